//! `meeple console`: a Lua prompt inside a game's sandbox on a live position. Each entry runs
//! with `G`, `ctx` and `R` in scope, as an expression when it is one, and its result prints as
//! JSON; an unfinished entry continues on the next line. `:options` and `:play N` move the
//! game on, so a modder can walk to the position they want, look at it, change it and
//! `:save` it to play on from there.

use super::{load, relabel, CmdResult, GameArgs};
use crate::ai::Seat;
use crate::diag::Diagnostic;
use crate::engine::{Game, GameError};
use crate::session::Session;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct ConsoleArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of seats, when starting a new game (default: the fewest the game takes)
    #[arg(long)]
    seats: Option<usize>,
    /// Start at the end of this replay or save file instead of a new game (its
    /// seats, seed, map and settings are the file's)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seats", "seed", "map", "settings"])]
    replay: Option<PathBuf>,
}

pub fn run(a: ConsoleArgs) -> CmdResult {
    let mut s = session(&a)?;
    println!("{} · {}", s.game.pkg.title, where_now(&s.game));
    println!("Lua in the game's sandbox (G, ctx, R); :options, :play N, :save FILE, :quit");
    // The set-up's lines; a replayed past is not repeated.
    if a.replay.is_some() {
        s.game.drain_events();
    }
    print_events(&mut s);
    let mut entry = String::new();
    let mut lines = super::live::typed_lines(std::io::stdin().lock());
    // Whether the note on `local` was said (once a session).
    let mut local_said = false;
    loop {
        print!("{}", if entry.is_empty() { "> " } else { ">> " });
        let _ = std::io::stdout().flush();
        let Some(line) = lines.next() else {
            println!();
            return Ok(0);
        };
        if ["quit", "exit"].contains(&line.trim()) && entry.is_empty() {
            println!("':quit' leaves the console");
            continue;
        }
        if line.trim_start().starts_with(':') {
            if !entry.is_empty() {
                println!("(the unfinished entry is dropped)");
                entry.clear();
            }
            match command(&mut s, line.trim()) {
                Some(text) => println!("{text}"),
                None => return Ok(0),
            }
            continue;
        }
        entry.push_str(&line);
        entry.push('\n');
        match chunk(&entry) {
            Chunk::Unfinished => continue,
            Chunk::Bad(problem) => println!("{problem}"),
            Chunk::Code(code) => {
                let result = exec(&mut s, &code);
                print_events(&mut s);
                match result {
                    // A call that returns nothing is a statement (`ctx.grid:set(1, 1, nil)`).
                    Ok(Some(v)) if code.starts_with("return ") => {
                        println!("{}", serde_json::to_string(&v).unwrap_or_default())
                    }
                    Ok(_) => {}
                    Err(GameError::Rejected(r)) => println!("{r}"),
                    Err(e) => println!("{}", said(e)),
                }
                // (an entry that returns what it made has no use for it later)
                let returns = entry
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == "return");
                let local = entry.trim_start().starts_with("local ") && !returns;
                if !local_said && local {
                    println!("(each entry is its own chunk: a local ends with it; leave out 'local' to keep a name)");
                    local_said = true;
                }
            }
        }
        entry.clear();
    }
}

/// A new game with a person in every seat, or the game a replay or save file ends with.
fn session(a: &ConsoleArgs) -> Result<Session, Vec<Diagnostic>> {
    if let Some(file) = &a.replay {
        let started = crate::session::resume(file, Some(&a.game.game), None)?;
        started.said.iter().for_each(|l| println!("{l}"));
        return Ok(started.session);
    }
    let pkg = load(&a.game.game)?;
    let seats = a.seats.unwrap_or(pkg.players.0);
    let config = a.game.config(seats);
    crate::session::start(pkg, vec![Seat::Human; seats], config, false)
        .map_err(|d| relabel(d, &["--players"], "--seats"))
}

/// Runs an entry; one that changed the position is noted in the record, whose steps no longer
/// lead to it (a save made now goes on from its snapshot).
fn exec(s: &mut Session, code: &str) -> Result<Option<serde_json::Value>, GameError> {
    let hash = |g: &Game| g.snapshot().map(|snap| snap.hash()).ok();
    let before = hash(&s.game);
    let result = s.game.exec(code);
    let steps = s.record.steps.len();
    if hash(&s.game) != before && s.record.edits.last() != Some(&steps) {
        s.record.edits.push(steps);
    }
    result
}

/// What an entry is: code to run (as `return ...` when it is an expression), not finished
/// yet, or a syntax error.
enum Chunk {
    Code(String),
    Unfinished,
    Bad(String),
}

/// The first syntax error of `code` as an entry or `eval` chunk, if any.
pub(super) fn syntax(code: &str) -> Option<Diagnostic> {
    let file = [("eval".to_string(), code.to_string())];
    crate::script::host::syntax_problems(&file)
        .into_iter()
        .next()
}

/// `return code` when that parses (an expression, a call among them: `ctx:seats()`), else
/// `code` as written: what the console and `eval` run.
pub(super) fn returned(code: &str) -> Option<String> {
    let expr = format!("return {code}");
    syntax(&expr).is_none().then_some(expr)
}

fn chunk(entry: &str) -> Chunk {
    if let Some(expr) = returned(entry) {
        return Chunk::Code(expr);
    }
    match syntax(entry) {
        None => Chunk::Code(entry.to_string()),
        Some(d) if d.message.ends_with("near <eof>") => Chunk::Unfinished,
        Some(d) => Chunk::Bad(d.to_string()),
    }
}

/// Runs a console command; None for `:quit`.
fn command(s: &mut Session, line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    let text = match (words.next(), words.next()) {
        (Some(":quit" | ":q"), _) => return None,
        (Some(":save"), Some(file)) => s.save(file),
        (Some(":save"), None) => {
            "':save FILE' saves the position (play on with: meeple play --load FILE)".to_string()
        }
        (Some(":options"), _) => match s.game.pending().cloned() {
            None => asks_nothing(&s.game).to_string(),
            Some(p) => {
                // Each option as typed, and as the rules label it where that differs.
                let labels = s.game.shown(Some(p.seat)).labels;
                (p.options().iter().enumerate())
                    .map(
                        |(i, o)| match labels.get(i).filter(|l| **l != o.to_string()) {
                            Some(label) => format!("{}) {o} · {label}", i + 1),
                            None => format!("{}) {o}", i + 1),
                        },
                    )
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        },
        (Some(":play"), Some(n)) => match (n.parse::<usize>(), s.game.pending()) {
            (Ok(n), Some(p)) if n >= 1 => match s.apply(p.seat, n - 1) {
                Ok(()) => {
                    print_events(s);
                    where_now(&s.game)
                }
                Err(e) => said(e),
            },
            (Ok(_), None) => format!("not played: {}", asks_nothing(&s.game)),
            _ => format!("':play {n}': give an option's number (see :options)"),
        },
        (Some(":play"), None) => "':play N' plays option N (see :options)".to_string(),
        _ => format!("'{line}' is not a console command (:options, :play N, :save FILE, :quit)"),
    };
    Some(text)
}

/// An error of `:play` as the console shows it: a refused move in words, a script error
/// located.
fn said(e: GameError) -> String {
    match e {
        GameError::Rejected(r) => format!("not played: {r}"),
        e => e.into_diagnostic("meeple").to_string(),
    }
}

/// The state the game is in and who is to play.
fn where_now(game: &Game) -> String {
    match game.pending() {
        Some(p) => format!("state {} · P{} to play", game.state_name(), p.seat + 1),
        None => format!("state {} · {}", game.state_name(), asks_nothing(game)),
    }
}

/// Why no decision is pending: the game is over, or the rules failed to ask one.
fn asks_nothing(game: &Game) -> &'static str {
    match game.outcome() {
        Some(_) => "the game is over",
        None => "no decision: the rules failed to ask one (the error above); an entry that mends it asks again",
    }
}

/// The lines logged since the last call (a forced move, a roll, the rules' own lines), as
/// the terminal shows them; a save keeps the last of them.
fn print_events(s: &mut Session) {
    for e in s.drain_log().iter().filter(|e| e.is_line()) {
        println!("  · {e}");
    }
}
