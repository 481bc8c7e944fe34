//! `meeple check`: load and validate a game (or every game), then play seeded games (random
//! and AI seats, every map) until every state and every offered verb has been reached, and
//! report the first script error, or what was never reached. Exit code 1 on a problem in a
//! game, 2 on a usage error.

use super::coverage::Coverage;
use super::CmdResult;
use crate::ai::{play_one, within, Bot, Seat};
use crate::core::action::Action;
use crate::core::event::Outcome;
use crate::def::Package;
use crate::diag::{plural, Diagnostic};
use crate::engine::{Game, GameConfig, GameError};
use crate::session::read_game;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["game", "all"])))]
pub struct CheckArgs {
    /// Game id or folder (omit with --all)
    game: Option<String>,
    /// Check every game under games/
    #[arg(long)]
    all: bool,
    /// Games to play at least (game N on seed N; the maps, player counts and bots in turn)
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = super::positive::<usize>)]
    games: usize,
    /// Games to play at most while a state or an offered verb has not been reached
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = super::positive::<usize>)]
    max_games: usize,
    /// Time budget per game checked, in seconds, for the games past --games: none starts after it (the output says so)
    #[arg(long, value_name = "S", default_value_t = 30,
          value_parser = super::positive::<u64>)]
    seconds: u64,
    /// Check with a setting from game.toml changed, e.g. --set salary=300 (repeatable; not with --all)
    #[arg(long = "set", value_name = "KEY=VALUE", conflicts_with = "all")]
    settings: Vec<String>,
    /// Report a game that has not ended after this many decisions
    #[arg(long, value_name = "N", default_value_t = crate::ai::MAX_DECISIONS,
          value_parser = super::positive::<u64>)]
    max_decisions: u64,
}

pub fn run(a: CheckArgs) -> CmdResult {
    let names: Vec<String> = match (&a.game, a.all) {
        (Some(g), false) => vec![g.clone()],
        (None, true) => {
            let games: Vec<String> = (crate::def::all_games().iter())
                .map(|p| p.display().to_string())
                .collect();
            if games.is_empty() {
                eprintln!("error: no games found (looked for games/*/game.toml)");
                return Ok(1);
            }
            games
        }
        // clap takes a game or --all, never both nor neither.
        _ => unreachable!("check takes a game or --all"),
    };
    let mut failed = 0;
    // Each game's id and its folder: `replay` finds a game by its id, so two may not share one.
    let mut ids: std::collections::HashMap<String, String> = Default::default();
    for name in names {
        match check_one(&name, &a) {
            Ok((id, root, _)) if ids.contains_key(&id) => {
                failed += 1;
                eprintln!(
                    "{root}/game.toml: error: id '{id}' is also the id of {} (give each game its own id)",
                    ids[&id]
                );
            }
            Ok((id, root, summary)) => {
                println!("ok: {summary}");
                ids.insert(id, root);
            }
            Err(diags) => {
                failed += 1;
                eprintln!("{}", crate::diag::render(&diags));
            }
        }
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// Checks one game; its id, its folder as shown and the summary line. Warns of what the
/// games never reached.
fn check_one(name: &str, a: &CheckArgs) -> Result<(String, String, String), Vec<Diagnostic>> {
    let pkg = read_game(name, true)?;
    let fewest = pkg.players.0.min(pkg.players.1);
    // The first position, on the default map: an error a hook raised there is the first
    // random game's (one the files hold alone has no context note).
    let first = Planned {
        map: pkg.default_map.clone(),
        kind: Seat::Random,
        seats: fewest,
        seed: 1,
    };
    let probe =
        Game::new(pkg.clone(), config(a, &first.map, first.seed, fewest)).map_err(|ds| {
            let note = first.replay(name, a);
            let noted = |d: Diagnostic| match d.notes.is_empty() {
                true => d,
                false => d.note(note.clone()),
            };
            // The files' warnings stay beside the error: a slip they name is often its cause.
            let mut all: Vec<Diagnostic> = pkg.warnings.clone();
            all.extend(ds.into_iter().map(noted));
            crate::diag::sort(&mut all);
            all
        })?;
    let mut warnings = pkg.warnings.clone();
    warnings.extend(probe.warnings());
    if !warnings.is_empty() {
        crate::diag::sort(&mut warnings);
        eprintln!("{}", crate::diag::render(&warnings));
    }
    // The AI script runs too: its heuristic bot, and each of its styles.
    let styles = probe
        .ai_styles()
        .into_iter()
        .map(|s| Seat::Heuristic(Some(s)));
    let ai = match probe.has_ai() {
        true => std::iter::once(Seat::Heuristic(None))
            .chain(styles)
            .collect(),
        false => Vec::new(),
    };
    let plan = Plan {
        maps: pkg.maps.keys().cloned().collect(),
        ai,
        fewest,
        most: pkg.players.1,
    };
    let bar = progress(&pkg.id);
    let run = play_plan(name, a, &pkg, &plan, &bar);
    bar.finish_and_clear();
    let (coverage, played, out_of_time) = run?;
    let mut unreached = coverage.warnings(&pkg, played.len());
    if let Some(ai) = &pkg.ai_file {
        unreached.extend(coverage.fixed_warnings(&probe.ai_fixed(), &pkg.file(ai), played.len()));
    }
    if out_of_time {
        let msg = format!(
            "the time budget (--seconds {}) ran out after {}: a state or verb not reached may be reachable",
            a.seconds,
            plural(played.len(), "game")
        );
        unreached.insert(0, Diagnostic::warning(&pkg.shown, msg));
    }
    if !unreached.is_empty() {
        eprintln!("{}", crate::diag::render(&unreached));
    }
    let with = match a.settings.is_empty() {
        true => String::new(),
        false => format!(" with {}", a.settings.join(", ")),
    };
    let summary = format!(
        "{}{with} ({}, {}; {})",
        pkg.id,
        plural(plan.maps.len(), "map"),
        plan.describe(&played),
        coverage.summary(&pkg)
    );
    Ok((pkg.id.clone(), pkg.shown.clone(), summary))
}

/// An option listed more than once in `options` (the same move, `Action::same`), if any.
fn listed_twice(options: &[Action]) -> Option<&Action> {
    let mut seen = std::collections::HashSet::new();
    options.iter().find(|o| !seen.insert(o.key()))
}

/// How `check` starts a game.
fn config(a: &CheckArgs, map: &str, seed: u64, seats: usize) -> GameConfig {
    GameConfig {
        map: Some(map.to_string()),
        seats,
        seed,
        settings: a.settings.clone(),
    }
}

/// Plays the games of `plan` in order: at least `--games`, then on while a state or an
/// offered verb has not been reached, up to `--max-games`; none of those starts once the
/// time budget is spent. What they reached, the games played and whether the budget stopped them; or the
/// first error, with the command that replays its game.
fn play_plan(
    name: &str,
    a: &CheckArgs,
    pkg: &Arc<Package>,
    plan: &Plan,
    bar: &ProgressBar,
) -> Result<(Coverage, Vec<Planned>, bool), Vec<Diagnostic>> {
    let least = plan.minimum(a.games);
    let most = a.max_games.max(least);
    let (started, budget) = (Instant::now(), Duration::from_secs(a.seconds));
    let (mut coverage, mut played) = (Coverage::default(), Vec::new());
    loop {
        let n = played.len();
        if n >= most || (n >= least && coverage.complete(pkg)) {
            return Ok((coverage, played, false));
        }
        if n >= least && started.elapsed() >= budget {
            return Ok((coverage, played, true));
        }
        let game = plan.game(n);
        let replay = |d: Diagnostic| d.note(game.replay(name, a));
        let mut g = Game::new(pkg.clone(), config(a, &game.map, game.seed, game.seats))
            .map_err(|ds| ds.into_iter().map(replay).collect::<Vec<_>>())?;
        // Seeded as `play --seed` and `sim` seed a game's bots: the same games.
        let mut bots: Vec<_> = (0..game.seats)
            .map(|s| game.kind.bot(game.seed, s))
            .collect();
        play_saving(&mut g, &mut bots, a.max_decisions, &mut coverage)
            .map_err(|e| vec![replay(e.into_diagnostic("meeple"))])?;
        played.push(game);
        bar.inc(1);
    }
}

/// A spinner on stderr counting the games played (hidden when stderr is not a terminal).
fn progress(id: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    let template = "{spinner} checking {msg}: {pos} games played  {elapsed}";
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    bar.set_message(id.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Every how many games on a map one is an AI game.
const AI_EVERY: usize = 5;

/// The games `check` plays, in order: the maps in turn; on each map the second game and every
/// fifth after it an AI game (the AI script's bot in every seat, its styles in turn), the
/// others random. Random games go round the player counts up from the fewest, AI games down
/// from the most. Game n (from 0) plays on seed n + 1.
struct Plan {
    maps: Vec<String>,
    /// The heuristic bot and one per style; empty for a game without an AI script.
    ai: Vec<Seat>,
    fewest: usize,
    most: usize,
}

/// One game of the plan.
struct Planned {
    map: String,
    kind: Seat,
    seats: usize,
    seed: u64,
}

impl Plan {
    fn game(&self, n: usize) -> Planned {
        let (map, r) = (self.maps[n % self.maps.len()].clone(), n / self.maps.len());
        let span = self.most - self.fewest + 1;
        let (kind, seats) = match self.ai.is_empty() || r % AI_EVERY != 1 {
            true => {
                let ai_before = if self.ai.is_empty() {
                    0
                } else {
                    (r + AI_EVERY - 2) / AI_EVERY
                };
                (Seat::Random, self.fewest + (r - ai_before) % span)
            }
            false => {
                let j = r / AI_EVERY;
                (self.ai[j % self.ai.len()].clone(), self.most - j % span)
            }
        };
        let seed = n as u64 + 1;
        Planned {
            map,
            kind,
            seats,
            seed,
        }
    }

    /// The fewest games to play: `games`, or more so that every map plays every AI kind.
    fn minimum(&self, games: usize) -> usize {
        let per_map = match self.ai.len() {
            0 => 1,
            k => AI_EVERY * (k - 1) + 2,
        };
        games.max(per_map * self.maps.len())
    }

    /// "20 games: 16 random at 2 to 6 players and 4 AI at 3 to 6 players" (the player counts
    /// when the game takes more than one).
    fn describe(&self, played: &[Planned]) -> String {
        let kind = |ai: bool, name: &str| {
            let of_kind = played.iter().filter(|g| (g.kind != Seat::Random) == ai);
            let seats: Vec<usize> = of_kind.map(|g| g.seats).collect();
            let (lo, hi) = (*seats.iter().min()?, *seats.iter().max()?);
            let at = match (self.fewest == self.most, lo == hi) {
                (true, _) => String::new(),
                (false, true) => format!(" at {lo} players"),
                (false, false) => format!(" at {lo} to {hi} players"),
            };
            Some(format!("{} {name}{at}", seats.len()))
        };
        let kinds: Vec<String> = [kind(false, "random"), kind(true, "AI")]
            .into_iter()
            .flatten()
            .collect();
        format!("{}: {}", plural(played.len(), "game"), kinds.join(" and "))
    }
}

impl Planned {
    /// The note on this game's error: the command that plays it again.
    fn replay(&self, name: &str, a: &CheckArgs) -> String {
        let players = vec![self.kind.to_string(); self.seats].join(",");
        let game = (name, self.map.as_str(), players.as_str());
        super::replay_note(game, self.seed, &a.settings, a.max_decisions)
    }
}

/// Plays the game to its end one decision at a time, saving before each and at the end (G
/// must be plain data whenever a player may save) and showing each decision as `play` would
/// (labels and status lines), so that a problem is found at the decision it first appears in.
/// An option listed twice in one list is an error (a random player would favour it).
/// Notes in `coverage` the states the game entered and the verbs offered and played. A game
/// still going after `max` decisions is an error.
pub fn play_saving(
    game: &mut Game,
    bots: &mut [Option<Box<dyn Bot>>],
    max: u64,
    coverage: &mut Coverage,
) -> Result<(), GameError> {
    loop {
        if game.pending().is_none() {
            game.snapshot()?;
            let capped = matches!(game.outcome(), Some(Outcome::Capped { .. }));
            coverage.end(game.entered_states(), game.forced_verbs(), capped);
            // The numbers `sim` reports of a finished game.
            return game.stats().map(|_| ());
        }
        within(game, max)?;
        // Showing the decision saves the position first (to put it back after its texts):
        // that save is the one a player could make here.
        game.check_shown()?;
        let (state, options) = (game.state_name(), game.decision()?.options().to_vec());
        if let Some(twice) = listed_twice(&options) {
            let msg = format!(
                "option '{twice}' is listed twice: a random player picks it twice as often as \
                 the others"
            );
            return Err(game.hook_error("options", msg));
        }
        let played = play_one(game, bots)?;
        coverage.decide(&state, &options, played);
    }
}
