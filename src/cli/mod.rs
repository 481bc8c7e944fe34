//! The command line (clap): `play`, `sim`, `check`, `eval`, `replay`, `ai`, `console`, `new`, `types`. Each command loads the
//! game through the same path, prints diagnostics once, and returns the process exit code.

mod ai;
pub mod check;
mod console;
pub mod coverage;
pub mod docs;
mod live;
mod new;
mod out;
pub(crate) mod play;
pub mod render;
mod sim;
mod thinking;
mod types;

use crate::def::Package;
use crate::diag::{render, Diagnostic};
use crate::engine::{Game, GameConfig};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "meeple",
    version,
    about = "Play, simulate and check tabletop games written in TOML and Lua"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game against AI players, in a window when a display is available, else in the terminal
    #[command(
        after_help = "At a prompt in the terminal: an option's number or the action itself, undo, redo, why (or why BOT, e.g. why mcts:500), save FILE, quit."
    )]
    Play(play::PlayArgs),
    /// Run many AI-vs-AI games and print statistics (Ctrl-C stops early with the games finished)
    Sim(sim::SimArgs),
    /// Load and validate games, then play seeded games until every state and verb is reached, looking for script errors
    Check(check::CheckArgs),
    /// Run a Lua chunk in a game's sandbox after setup (G, ctx and R in scope); print JSON
    Eval(EvalArgs),
    /// Re-run a replay or save file and verify every state
    Replay(ReplayArgs),
    /// Show what a bot would choose in a position, with its top candidates, as JSON
    Ai(ai::AiArgs),
    /// A Lua prompt in a game's sandbox on a live position (G, ctx, R); results print as JSON
    Console(console::ConsoleArgs),
    /// Make a new game folder (a grid, track or table game) that checks, plays and simulates
    New(new::NewArgs),
    /// Write editor types (LuaLS/EmmyLua) for the Lua API and a game's settings, states and zones
    Types(types::TypesArgs),
}

/// Which game and how to set it up; shared by the commands that start games.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// Game id (a folder under games/) or a path to a game folder
    pub game: String,
    /// Map to play on (default: the game's default map)
    #[arg(long)]
    pub map: Option<String>,
    /// Seed of the game's random generator
    #[arg(long, default_value_t = 1, value_parser = whole)]
    pub seed: u64,
    /// Override a setting from game.toml, e.g. --set salary=300 (repeatable)
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
}

impl GameArgs {
    pub fn config(&self, seats: usize) -> GameConfig {
        GameConfig {
            map: self.map.clone(),
            seats,
            seed: self.seed,
            settings: self.settings.clone(),
        }
    }
}

#[derive(Args)]
struct EvalArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of seats (default: the fewest the game takes)
    #[arg(long)]
    seats: Option<usize>,
    /// The Lua chunk, e.g. 'return ctx.counter:get(1, "cash")', or an expression, e.g.
    /// 'G.players[1]'
    lua: String,
}

#[derive(Args)]
struct ReplayArgs {
    /// A replay or save file written by `meeple play`
    file: PathBuf,
    /// The game's folder, when it moved since the record was made (its id must be the record's)
    #[arg(long)]
    game: Option<String>,
}

/// The command line, where a negative number is taken as a flag's value, for the flag's own
/// check to refuse (`--games -5`), not as an unknown flag.
fn command() -> clap::Command {
    let negatives = |a: clap::Arg| match a.get_action().takes_values() {
        true => a.allow_negative_numbers(true),
        false => a,
    };
    Cli::command().mut_subcommands(|c| c.mut_args(negatives))
}

pub fn main() -> i32 {
    let cli = Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Play(a) => play::run(a),
        Command::Sim(a) => sim::run(a),
        Command::Check(a) => check::run(a),
        Command::Eval(a) => eval(a),
        Command::Replay(a) => replay(a),
        Command::Ai(a) => ai::run(a),
        Command::Console(a) => console::run(a),
        Command::New(a) => new::run(a),
        Command::Types(a) => types::run(a),
    };
    match result {
        Ok(code) => code,
        Err(diags) => {
            eprintln!("{}", render(&diags));
            1
        }
    }
}

pub type CmdResult = Result<i32, Vec<Diagnostic>>;

/// A count given on the command line: a whole number of 1 or more, or an error saying so.
pub fn positive<T: std::str::FromStr + Default + PartialEq>(text: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(n) if n != T::default() => Ok(n),
        _ => Err("expected a whole number of 1 or more".into()),
    }
}

/// Whether a file can be made at `path` (`-` is standard output): its folder exists and it is
/// not itself a folder.
pub fn can_write(path: &std::path::Path) -> Result<(), Vec<Diagnostic>> {
    let folder = (path.parent())
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let why = match () {
        _ if path.as_os_str() == "-" => return Ok(()),
        _ if path.is_dir() => "it is a folder",
        _ if !folder.is_dir() => "its folder does not exist",
        _ => return Ok(()),
    };
    Err(vec![Diagnostic::error(
        path.display().to_string(),
        format!("cannot write: {why}"),
    )])
}

/// A whole number of 0 or more given on the command line, or an error saying so.
pub fn whole(text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!("expected a whole number up to {}", u64::MAX)
        }
        _ => "expected a whole number of 0 or more".into(),
    })
}

/// The note under a game's error: its seed and the command that plays it again (every bot
/// plays the same game under `play` as under `sim` and `check`), with the same `--set`
/// settings and decision cap.
pub fn replay_note(game: (&str, &str, &str), seed: u64, settings: &[String], cap: u64) -> String {
    let command = crate::session::play_command(game, seed, settings);
    let cap = match cap != crate::ai::MAX_DECISIONS {
        true => format!(" --max-decisions {cap}"),
        false => String::new(),
    };
    format!("on seed {seed} (replay: {command}{cap} --text)")
}

/// Finds and loads a game, or explains why not: every problem of every one of its files.
/// The seats a game gets when `--players` is not given: `first`, then `ai`, in as many seats
/// as the game's fewest players (at least two, when it takes two).
pub fn default_players(pkg: &Package, first: &str) -> String {
    let (min, max) = pkg.players;
    let seats = min.max(2).min(max);
    std::iter::once(first)
        .chain(std::iter::repeat_n("ai", seats.saturating_sub(1)))
        .collect::<Vec<_>>()
        .join(",")
}

pub fn load(game: &str) -> Result<Arc<Package>, Vec<Diagnostic>> {
    crate::session::read_game(game, false)
}

/// A new game from the arguments, or the position a replay or save file ends in (played with
/// GAME's files: a copy with another AI, say; the record's own folder when GAME is its game's
/// id and no folder of that name is found from here).
pub fn position(
    game: &GameArgs,
    seats: Option<usize>,
    replay: Option<&std::path::Path>,
) -> Result<Game, Vec<Diagnostic>> {
    let Some(file) = replay else {
        let pkg = load(&game.game)?;
        let seats = seats.unwrap_or(pkg.players.0);
        return Game::new(pkg, game.config(seats))
            .map_err(|d| relabel(d, &["--players"], "--seats"));
    };
    let record = crate::replay::Record::load(file).map_err(|d| vec![d])?;
    let shown = file.display().to_string();
    // GAME, else, when it names the record's game but is not found from here, the folder the
    // record was played from.
    let lost = crate::def::find_game(&game.game).is_err() && record.game == game.game;
    let pkg = record_game(&record, &shown, (!lost).then_some(game.game.as_str()))?;
    crate::replay::resume(pkg, &record, &shown)
}

/// The game a record or save `file` was made of (see `session::files::record_game`), with its
/// notes printed.
pub fn record_game(
    record: &crate::replay::Record,
    file: &str,
    game: Option<&str>,
) -> Result<Arc<Package>, Vec<Diagnostic>> {
    let mut said = Vec::new();
    let pkg = crate::session::record_game(record, file, game, &mut said)?;
    said.iter().for_each(|l| println!("{l}"));
    Ok(pkg)
}

fn eval(a: EvalArgs) -> CmdResult {
    // An expression is returned (`G.players[1]`, `ctx:seats()`), as in the console.
    let code = console::returned(&a.lua).unwrap_or_else(|| a.lua.clone());
    let game = position(&a.game, a.seats, None)?;
    match game.eval(&code) {
        Ok(v) => {
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
            Ok(0)
        }
        Err(e) => Err(vec![e.into_diagnostic("meeple")]),
    }
}

/// The flags `Game::new` names as the source of a bad map, seat count or setting.
pub const CONFIG_FLAGS: [&str; 3] = ["--map", "--players", "--set"];

/// `diags` with those labelled by one of the flags `from` labelled `to` instead: the file a
/// game's config was read from, or the flag of a command that sets it another way.
pub fn relabel(diags: Vec<Diagnostic>, from: &[&str], to: &str) -> Vec<Diagnostic> {
    diags
        .into_iter()
        .map(|mut d| {
            if from.contains(&d.path.as_str()) {
                d.path = to.to_string();
            }
            d
        })
        .collect()
}

fn replay(a: ReplayArgs) -> CmdResult {
    let shown = a.file.display().to_string();
    let record = crate::replay::Record::load(&a.file).map_err(|d| vec![d])?;
    let pkg = record_game(&record, &shown, a.game.as_deref())?;
    let problems = record.check(&pkg, &shown);
    if !problems.is_empty() {
        return Err(problems);
    }
    let now = pkg.files_hash.clone();
    let v = crate::replay::verify(pkg, &record).map_err(|d| relabel(d, &CONFIG_FLAGS, &shown))?;
    if v.files_changed {
        println!("note: the game's files changed since this record was made");
    }
    match v.divergence {
        None if v.edited_at.is_some() => {
            println!(
                "ok: {} reproduced exactly; the position was edited by hand after step {} (meeple console), later steps are not re-run",
                crate::diag::plural(v.steps, "step"),
                v.edited_at.expect("checked")
            );
            Ok(0)
        }
        None if v.stopped_at.is_some() => {
            let mark = v.stopped_at.expect("checked");
            println!(
                "ok: {} reproduced exactly; the game's files changed after step {} (edited live, or a save resumed under new files: {}), later steps are not re-run",
                crate::diag::plural(v.steps, "step"), mark.after_step, mark.files_hash
            );
            Ok(0)
        }
        None => {
            println!(
                "ok: {} reproduced exactly ({} {})",
                crate::diag::plural(v.steps, "step"),
                record.game,
                shown
            );
            Ok(0)
        }
        Some(d) => {
            println!(
                "diverged after {}: {d}",
                crate::diag::plural(v.steps, "matching step")
            );
            if let Some(mark) = record.reloads.iter().find(|m| m.files_hash == now) {
                println!(
                    "note: the game's files are those it was reloaded to after step {}; the steps \
                     before were played under earlier files, which a record does not keep",
                    mark.after_step
                );
            }
            Ok(2)
        }
    }
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the command line (they run in debug builds).
    #[test]
    fn the_command_line_is_well_formed() {
        super::command().debug_assert();
    }
}
