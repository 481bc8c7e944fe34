//! `meeple play`: a game in the terminal. Shows the board, every player's counters and
//! holdings, what just happened and the numbered options of a human seat; bots move on their
//! own. At any prompt: a number or an action, `undo`, `redo`, `save FILE`, `why`, `quit`. The game's
//! files are watched: a save reloads the rules in the same position. With a display (and no
//! `--text`) the same session opens in the window (`crate::app`).

use super::live::{self, Input, Inputs};
use super::out::{self, say};
use super::render::render;
use super::thinking::thinking;
use super::{load, CmdResult};
use crate::ai::alphabeta::value_text;
use crate::ai::Seat;
use crate::core::event::Event;
use crate::diag::{plural, Diagnostic};
use crate::engine::{Game, GameConfig, GameError};
use crate::reload::Watcher;
use crate::session::{self, interrupt, Session};
use crate::sim::report::pad;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use unicode_width::UnicodeWidthStr;

#[derive(Args)]
#[command(group(clap::ArgGroup::new("which").required(true).multiple(true).args(["game", "load"])))]
pub struct PlayArgs {
    /// Game id (a folder under games/) or a path to a game folder
    game: Option<String>,
    /// Map to play on (default: the game's default map)
    #[arg(long)]
    map: Option<String>,
    #[arg(long, help = concat!("Who plays each seat, comma-separated, one entry per seat: human, ", crate::bot_kinds!(), " (default: human, then ai up to the game's fewest players, at least 2 seats in all; with --load, the saved game's players)"))]
    players: Option<String>,
    /// Seed of the game's random generator (default: a new one each game, printed at the start, or at the end when it would tell a person hidden cards)
    #[arg(long, value_parser = super::whole)]
    seed: Option<u64>,
    /// Override a setting from game.toml, e.g. --set salary=300 (repeatable)
    #[arg(long = "set", value_name = "KEY=VALUE")]
    settings: Vec<String>,
    /// Resume a game saved with `save FILE`, or go on from the end of a `--record` replay (from the GAME folder when given: a game that moved)
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Write a replay of the whole game to FILE when the session ends: game over, quit, Ctrl-C, an error, or output piped to a reader that stopped
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// In the terminal, stop as an error when bots have made this many decisions with nobody
    /// asked
    #[arg(long, value_name = "N", default_value_t = crate::ai::MAX_DECISIONS,
          value_parser = super::positive::<u64>)]
    max_decisions: u64,
    /// Do not reload the rules when the game's files change
    #[arg(long)]
    no_watch: bool,
    /// Seconds a person has to answer when several players are asked at once (a claim on a
    /// discard); then the state's default answer is taken. 0 waits for ever (default: the
    /// state's `seconds` in game.toml, else 15)
    #[arg(long, value_name = "SECONDS", value_parser = super::whole)]
    answer_seconds: Option<u64>,
    /// Play in the terminal even when a display is available
    #[arg(long)]
    text: bool,
    #[command(flatten)]
    window: crate::app::WindowArgs,
}

pub fn run(a: PlayArgs) -> CmdResult {
    if let Some(path) = &a.record {
        super::can_write(path)?;
    }
    let windowed = windowed(&a);
    let mut s = match &a.load {
        Some(file) => {
            if a.map.is_some() || a.seed.is_some() || !a.settings.is_empty() {
                eprintln!("note: --load resumes the saved game as it was; --map, --seed and --set are ignored");
            }
            let started = session::resume(file, a.game.as_deref(), a.players.as_deref())?;
            say!("{}", banner(&started.session, windowed));
            started.said.iter().for_each(|l| say!("{l}"));
            started.session
        }
        None => {
            let s = start(&a)?;
            say!("{}", banner(&s, windowed));
            s
        }
    };
    s.answer_seconds = a.answer_seconds;
    let watcher = if a.no_watch {
        None
    } else {
        match Watcher::for_game(&s.game.pkg) {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!("note: {e}; edits will not reload");
                None
            }
        }
    };
    if windowed {
        if let Err(why) = crate::app::display() {
            let flag = a.window.scripted_by().unwrap_or("play");
            return Err(vec![Diagnostic::error(
                flag,
                format!("the window cannot open: {why}; on a machine without one, run under `xvfb-run -a`"),
            )]);
        }
        return crate::app::run(s, watcher, a.window, a.record);
    }
    if let (false, Err(why)) = (a.text, crate::app::display()) {
        if std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty()) {
            eprintln!("note: the window cannot open: {why}; playing in the terminal");
        }
    }
    interrupt::watch();
    out::outlive_readers();
    let ended = play_in_terminal(&mut s, watcher, a.max_decisions, a.load.is_some());
    // Whatever ended the game, its record is written: on an error, on Ctrl-C, with nobody
    // reading the output.
    if let Some(path) = &a.record {
        match s.write_replay(path) {
            // Standard error may be gone too (`2>&1 | head`): then the file speaks for itself.
            Ok(said) if out::gone() => _ = writeln!(std::io::stderr(), "{said}"),
            Ok(said) => say!("{said}"),
            Err(d) => return Err(vec![d]),
        }
    }
    if let Some(note) = s.seed_note() {
        say!("{note}");
    }
    ended
}

/// The terminal game's loop, until it ends, a person quits, Ctrl-C is pressed or nobody reads
/// the output any more; its exit status.
fn play_in_terminal(
    s: &mut Session,
    watcher: Option<Watcher>,
    max_decisions: u64,
    resumed: bool,
) -> CmdResult {
    let mut inputs = Inputs::new(watcher);
    let mut redraw = true;
    // A bot's move the rules failed on: bots wait until the rules reload or a line is typed.
    let mut stalled = false;
    // Bots' moves since a person was last asked, to stop a game of bots that never ends.
    let mut streak = 0;
    let mut ended = Ok(0);
    // Lines told to a person who is not the viewer now (two people at one terminal): each
    // is shown when its seat is next asked.
    let mut held = Vec::new();
    // The options last listed, with their seat: a line that changed nothing does not list
    // them again.
    let mut options_listed = Vec::new();
    if resumed {
        print_backlog(s, &mut held);
    }
    loop {
        if interrupt::asked() {
            ended = Ok(interrupt::STATUS);
            break;
        }
        if out::gone() {
            ended = Ok(out::STATUS);
            break;
        }
        for r in inputs.reloads() {
            let changed = live::reload(s, &r);
            redraw |= changed;
            stalled &= !changed;
        }
        print_events(s, &mut held);
        let Some(p) = s.game.pending() else {
            say!("\n{}", picture(s));
            if let Some(o) = s.game.outcome() {
                say!("game over: {o}");
                ended = Ok(say_stats(s));
            }
            // A person may still take a move back, or save the end.
            let over = s.game.outcome().is_some() && s.seats.contains(&Seat::Human);
            match over.then(|| at_the_end(s, &mut inputs)) {
                Some(End::Undone) => {
                    (redraw, ended) = (true, Ok(0));
                    continue;
                }
                Some(End::Interrupted) => ended = Ok(interrupt::STATUS),
                _ => {}
            }
            break;
        };
        let seat = p.seat;
        if let Some(index) = s.forced() {
            if let Err(GameError::Script(e)) = s.apply(seat, index) {
                say!("{}", session::failed(&e));
                stalled = true;
            }
            continue;
        }
        if s.bots[seat].is_some() && !stalled {
            streak += 1;
            if streak > max_decisions {
                ended = Err(s.game.endless(max_decisions));
                break;
            }
            if let Err(e) = bot_move(s, seat) {
                say!(
                    "{e}\nP{} ({}) cannot move: fix the rules (saving them reloads the game) or press \
                     Enter to let it try again; a number or an action moves for it; undo, save FILE \
                     and quit work as ever",
                    seat + 1,
                    s.seats[seat]
                );
                stalled = true;
            }
            continue;
        }
        if redraw {
            say!("\n{}", picture(s));
            options_listed.clear();
        }
        print_options(s, &mut options_listed);
        // No clock while a bot waits for its rules to be fixed.
        let limit = s.answer_limit().filter(|_| !stalled);
        if let Some(d) = limit {
            say!(
                "(answer within {} s, or {} is taken)",
                d.as_secs(),
                s.default_label()
            );
        }
        out::write(format_args!("> "));
        streak = 0;
        let line = match inputs.next(limit) {
            None => break,
            // The loop's head ends the session.
            Some(Input::Interrupted) => {
                say!();
                continue;
            }
            Some(Input::Reload(r)) => {
                say!();
                redraw = live::reload(s, &r);
                stalled &= !redraw;
                continue;
            }
            Some(Input::TimedOut) => {
                let index = s.default_option();
                say!("\ntime is up: {}", s.label(index));
                match s.apply(seat, index) {
                    Err(GameError::Script(e)) => say!("{}", session::failed(&e)),
                    other => other.map_err(|e| vec![e.into_diagnostic("meeple")])?,
                }
                redraw = true;
                continue;
            }
            Some(Input::Line(line)) => line,
        };
        let before = s.game.history.len();
        if !command(s, seat, line.trim(), &mut options_listed)? {
            break;
        }
        redraw = s.game.history.len() != before;
        // Enter lets a waiting bot try again; so does a move made for it (or an undo).
        stalled &= !(redraw || line.trim().is_empty());
    }
    // A session that ends on a move the rules could not make did not go well.
    match ended {
        Ok(0) => Ok(if stalled { 1 } else { 0 }),
        Ok(status) => Ok(status),
        Err(e) => Err(vec![e.into_diagnostic("meeple")]),
    }
}

/// Says the ended game's numbers as `R.stats` gives them to `sim` (`stats: moves 9`), or the
/// error it raised; the exit status that makes.
fn say_stats(s: &Session) -> i32 {
    match s.game.stats() {
        Ok(stats) if stats.is_empty() => 0,
        Ok(mut stats) => {
            stats.sort_by(|a, b| a.0.cmp(&b.0));
            let shown: Vec<String> = (stats.iter())
                .map(|(name, v)| match v.fract() == 0.0 && v.abs() < 1e15 {
                    true => format!("{name} {v:.0}"),
                    false => format!("{name} {v:.2}"),
                })
                .collect();
            say!("stats: {}", shown.join(", "));
            0
        }
        Err(e) => {
            say!("{}", crate::diag::render(&[e.into_diagnostic("R.stats")]));
            1
        }
    }
}

fn start(a: &PlayArgs) -> Result<Session, Vec<Diagnostic>> {
    let name = a
        .game
        .as_deref()
        .expect("clap asks for a game unless --load");
    let pkg = load(name)?;
    let players = (a.players.clone()).unwrap_or_else(|| super::default_players(&pkg, "human"));
    let seats = Seat::parse_list(&players).map_err(|e| vec![Diagnostic::error("--players", e)])?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let config = GameConfig {
        map: a.map.clone(),
        seats: seats.len(),
        seed,
        settings: a.settings.clone(),
    };
    session::start(pkg, seats, config, a.seed.is_none())
}

/// The line a game opens with: its title, map and seed (or when the seed is told) and, when
/// a person types at the prompt, what it takes. The window has its buttons and keys instead.
fn banner(s: &Session, windowed: bool) -> String {
    let game = &s.game;
    let map = (game.pkg.map(game.config.map.as_deref()))
        .map(|b| b.name.clone())
        .unwrap_or_default();
    let seed = match s.secret_seed {
        Some(_) => "seed told when the game ends".to_string(),
        None => format!("seed {}", game.config.seed),
    };
    let typed = !windowed && s.seats.contains(&Seat::Human);
    let prompt = match typed {
        true => " · type a number, an action or help",
        false => "",
    };
    format!("{} · map {map} · {seed}{prompt}", game.pkg.title)
}

/// Whether the session opens the window (a display, or a scripted window run, and no --text).
fn windowed(a: &PlayArgs) -> bool {
    !a.text && (a.window.scripted() || crate::app::display().is_ok())
}

/// A seed for a new game when none is given: the clock's nanoseconds.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    crate::core::rng::splitmix64(nanos) % 1_000_000
}

/// The bot of `seat` moves. On an error the position stays as it was (a move the rules
/// failed on is undone) and the error is returned as text.
fn bot_move(s: &mut Session, seat: usize) -> Result<(), String> {
    let what = s.thinking();
    let bot = s.bots[seat].as_mut().expect("a bot seat");
    let choice = thinking(&what, || bot.choose(&mut s.game)).map_err(|e| e.to_string())?;
    // A simultaneous answer stays secret, and so does who was asked: nothing is said.
    if s.game.waiting().is_empty() {
        let label = s.label(choice.index);
        say!("P{} ({}) → {label}", seat + 1, s.seats[seat]);
    }
    s.apply(seat, choice.index).map_err(|e| match e {
        GameError::Script(e) => session::failed(&e),
        other => other.to_string(),
    })
}

/// The terminal picture, as the session's viewer may see it.
fn picture(s: &mut Session) -> String {
    let viewer = s.viewer();
    let shown = s.game.shown(viewer);
    render(&s.game, &s.seats, viewer, &shown)
}

/// A name typed in quotes, as a shell would take it, without them.
fn unquoted(text: &str) -> &str {
    match text.strip_prefix(['"', '\'']) {
        Some(inner) if !inner.is_empty() && inner.ends_with(&text[..1]) => {
            &inner[..inner.len() - 1]
        }
        _ => text,
    }
}

/// The words `command` reads as the prompt's own before any option: an option whose verb is
/// one of them can be picked only by its number (`check` warns of such verbs).
pub const PROMPT_WORDS: &[&str] = &["quit", "exit", "undo", "redo", "why", "save", "help"];

/// What `help` at the prompt says: the words for the game's end once it is over.
fn prompt_help(over: bool) -> String {
    let mut lines = vec![match over {
        false => "type an option's number or its text, or:",
        true => "the game is over; type:",
    }];
    lines.push(match over {
        false => "  undo        take back your last decision (and the bots' replies)",
        true => "  undo        take back the last decision, back into the game",
    });
    lines.push("  redo        bring back what undo took back");
    if !over {
        lines.push("  why [BOT]   what a bot would choose here, and how it ranks the options");
    }
    lines.push("  save FILE   save the game (resume it with meeple play --load FILE)");
    lines.push("  quit        stop playing");
    lines.join("\n")
}

/// The prompt's words about the session, which need no decision: Some(false) to stop playing,
/// Some(true) when `line` was one of them, None for anything else.
fn session_word(s: &mut Session, line: &str) -> Option<bool> {
    match line {
        "" => {}
        "quit" | "exit" => return Some(false),
        "help" | "?" => say!("{}", prompt_help(s.game.pending().is_none())),
        "undo" => say!("{}", with_lines(s.undo())),
        "redo" => say!("{}", with_lines(s.redo())),
        _ if line == "save" || line.starts_with("save ") => {
            say!("{}", s.save(unquoted(line["save".len()..].trim())))
        }
        _ => return None,
    }
    Some(true)
}

/// What an undo or redo says, then the log lines of the moves it took or brought back.
fn with_lines((said, lines): (String, Vec<String>)) -> String {
    match lines.is_empty() {
        true => said,
        false => format!(
            "{said}:{}",
            lines
                .iter()
                .map(|l| format!("\n  · {l}"))
                .collect::<String>()
        ),
    }
}

/// Handles one line typed at the prompt; false to stop playing. After a move the rules
/// failed on (a long message) the options are listed again (`options_listed` is cleared).
fn command(
    s: &mut Session,
    seat: usize,
    line: &str,
    options_listed: &mut Vec<String>,
) -> Result<bool, Vec<Diagnostic>> {
    if let Some(go_on) = session_word(s, line) {
        return Ok(go_on);
    }
    if line == "why" || line.starts_with("why ") {
        why(&mut s.game, seat, line[3..].trim());
        return Ok(true);
    }
    // The options are listed and the rules give no reason: point at the list rather than at
    // the actions behind its labels.
    let listed = |n: usize| {
        (1..=MAX_LISTED).contains(&n).then(|| {
            format!(
                "'{line}' is not one of P{}'s options: type its number or its text as listed",
                seat + 1
            )
        })
    };
    let index = s.typed(seat, line, listed);
    match index.and_then(|i| s.apply(seat, i)) {
        Ok(()) => {}
        Err(GameError::Rejected(r)) => say!("rejected: {r}"),
        Err(GameError::Script(e)) => {
            say!("{}", session::failed(&e));
            options_listed.clear();
        }
    }
    Ok(true)
}

/// What a bot (the heuristic unless named: `why mcts:500`) would choose here, and the
/// candidates it weighed, best first (top 10).
fn why(game: &mut Game, asker: usize, bot: &str) {
    let seat = match bot.is_empty() {
        true => Ok(Seat::Heuristic(None)),
        false => Seat::parse_bot(bot),
    };
    let (name, mut bot) = match seat {
        Ok(seat) => (
            seat.to_string(),
            seat.bot(game.config.seed, 0).expect("a bot"),
        ),
        Err(why) => return say!("{why}\nusage: why [BOT] (the heuristic bot when none is named)"),
    };
    match thinking(&format!("{name} is thinking"), || bot.explain(game)) {
        Ok(c) => {
            let labels = game.shown(Some(asker)).labels;
            say!("{name} would choose: {}", labels[c.index]);
            let ranked = c.ranked().into_iter().take(10);
            let shown: Vec<_> = ranked.map(|(i, v)| (i, value_text(v))).collect();
            let width = shown
                .iter()
                .map(|(_, v)| v.len())
                .max()
                .unwrap_or(0)
                .max(10);
            for (i, value) in shown {
                say!("  {value:>width$}  {}", labels[i]);
            }
        }
        // A bot that cannot play this game says why, as a sentence of its own.
        Err(GameError::Rejected(why)) => say!("{why}"),
        Err(e) => say!("{e}"),
    }
}

/// How the prompt after a game's end was left.
enum End {
    /// An undo went back into the game.
    Undone,
    /// Quit, the end of input, or nobody reading the output.
    Left,
    /// Ctrl-C.
    Interrupted,
}

/// The prompt after the game's end: undo (back into the game), redo, save FILE; quit, Ctrl-C,
/// the end of input or a reader gone end the session.
fn at_the_end(s: &mut Session, inputs: &mut Inputs) -> End {
    const OVER: &str = "the game is over: undo, save FILE or quit";
    say!("{OVER}");
    // Piped lines past the end (moves written for a longer game) are skipped: the line above
    // says why.
    let piped = !std::io::stdin().is_terminal();
    let mut quiet = false;
    loop {
        if !quiet {
            out::write(format_args!("> "));
        }
        if out::gone() {
            return End::Left;
        }
        let line = match inputs.next(None) {
            None => return End::Left,
            Some(Input::Interrupted) => return End::Interrupted,
            Some(Input::Reload(r)) => {
                say!();
                live::reload(s, &r);
                continue;
            }
            Some(Input::TimedOut) => continue,
            Some(Input::Line(line)) => line,
        };
        quiet = match session_word(s, line.trim()) {
            Some(false) => return End::Left,
            Some(true) => false,
            None if piped => true,
            None => {
                say!("{OVER}");
                false
            }
        };
        if s.game.pending().is_some() {
            return End::Undone;
        }
    }
}

/// A resumed game's log so far (its whole past, replayed, or the last lines its save kept),
/// the last `BACKLOG` lines only, after a line saying how many are left out.
fn print_backlog(s: &mut Session, held: &mut Vec<Event>) {
    let lines = log_lines(s, held);
    let skipped = lines.len().saturating_sub(crate::replay::BACKLOG);
    if skipped > 0 {
        say!("  · … {} before these", plural(skipped, "line"));
    }
    for e in &lines[skipped..] {
        say!("  · {e}");
    }
}

/// The new lines of the log, but the game's end: the line under the board says it.
fn print_events(s: &mut Session, held: &mut Vec<Event>) {
    for e in log_lines(s, held) {
        if !matches!(e, Event::GameOver { .. }) {
            say!("  · {e}");
        }
    }
}

/// The events logged since the last call that the terminal shows as lines
/// (`Event::is_line`), as the session's viewer may see them. A line told to another person
/// seated here is `held` until that person is the viewer, and shown then.
fn log_lines(s: &mut Session, held: &mut Vec<Event>) -> Vec<Event> {
    let viewer = s.viewer();
    let events = [std::mem::take(held), s.drain_log()].concat();
    let mut shown = Vec::new();
    for e in events.into_iter().filter(Event::is_line) {
        match e.told_to() {
            _ if e.seen_by(viewer) => shown.push(e),
            Some(seat) if s.is_person(seat) => held.push(e),
            _ => {}
        }
    }
    shown
}

/// Lists the options by number (labelled as the seat asked may know them, with a failing
/// text hook said once); a long list (a grid's free points) is summed up instead. Options
/// already `listed` for the same seat are not listed again.
fn print_options(s: &mut Session, listed: &mut Vec<String>) {
    let Some(seat) = s.game.pending().map(|p| p.seat) else {
        return;
    };
    let shown = s.game.shown(Some(seat));
    let now = [&[format!("P{}", seat + 1)], &shown.labels[..]].concat();
    if *listed == now {
        return;
    }
    *listed = now;
    if let Some(problem) = &shown.problem {
        say!("{problem}");
    }
    let Some(p) = s.game.pending() else { return };
    if p.len() > MAX_LISTED {
        let examples: Vec<String> = p
            .options()
            .iter()
            .take(3)
            .map(|o| format!("'{o}'"))
            .collect();
        say!(
            "P{}, choose one of {} options by typing it (e.g. {}, …)",
            p.seat + 1,
            p.len(),
            examples.join(", ")
        );
        return;
    }
    say!("P{}, choose:", p.seat + 1);
    for line in numbered(&shown.labels) {
        say!("{line}");
    }
}

/// The labels numbered from 1, one a line, or in columns read downwards when there are more
/// than `ONE_A_LINE`.
fn numbered(labels: &[String]) -> Vec<String> {
    let width = labels.len().to_string().len();
    let items: Vec<String> = (labels.iter().enumerate())
        .map(|(i, label)| format!("{:>width$}) {label}", i + 1))
        .collect();
    if items.len() <= ONE_A_LINE {
        return items.iter().map(|item| format!("  {item}")).collect();
    }
    let cell = items.iter().map(|item| item.width()).max().unwrap_or(0) + 3;
    let columns = ((COLUMNS_WIDTH - 2) / cell).max(1);
    let rows = items.len().div_ceil(columns);
    (0..rows)
        .map(|r| {
            let row: Vec<&String> = items.iter().skip(r).step_by(rows).collect();
            let (last, before) = row.split_last().expect("a row has an item");
            let padded: String = before.iter().map(|item| pad(item, cell)).collect();
            format!("  {padded}{last}")
        })
        .collect()
}

/// Longest option list printed one a line.
const ONE_A_LINE: usize = 20;

/// Longest option list printed in full (in columns past `ONE_A_LINE`).
const MAX_LISTED: usize = 60;

/// The terminal columns the option columns fill.
const COLUMNS_WIDTH: usize = 80;

#[cfg(test)]
mod tests {
    use super::numbered;

    fn labels(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("keep {i}")).collect()
    }

    #[test]
    fn twenty_options_go_one_a_line() {
        let lines = numbered(&labels(20));
        assert_eq!(lines.len(), 20);
        assert_eq!(lines[0], "   1) keep 1");
        assert_eq!(lines[19], "  20) keep 20");
    }

    #[test]
    fn more_options_go_in_columns_read_downwards() {
        let lines = numbered(&labels(23));
        // Cells of 14 columns ("23) keep 23" and 3 spaces): five fit in 78.
        assert_eq!(lines.len(), 5);
        assert_eq!(
            lines[0],
            "   1) keep 1     6) keep 6    11) keep 11   16) keep 16   21) keep 21"
        );
        assert_eq!(
            lines[4],
            "   5) keep 5    10) keep 10   15) keep 15   20) keep 20"
        );
    }
}
