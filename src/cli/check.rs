//! `meeple check`: load and validate a game (or every game), then play seeded random games on
//! every map and report any script error. Exit code 1 on any problem.

use super::{read_game, CmdResult};
use crate::ai::{play_decisions, within, Bot, Seat};
use crate::diag::plural;
use crate::engine::GameError;
use crate::engine::{Game, GameConfig};
use clap::Args;

#[derive(Args)]
pub struct CheckArgs {
    /// Game id or folder (omit with --all)
    game: Option<String>,
    /// Check every game under games/
    #[arg(long)]
    all: bool,
    /// Random games to play per map
    #[arg(long, default_value_t = 5)]
    games: usize,
    /// Check with a setting from game.toml changed, e.g. --set salary=300 (repeatable; not with --all)
    #[arg(long = "set", value_name = "KEY=VALUE", conflicts_with = "all")]
    settings: Vec<String>,
    /// Report a game that has not ended after this many decisions
    #[arg(long, value_name = "N", default_value_t = crate::ai::MAX_DECISIONS,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_decisions: u64,
}

pub fn run(a: CheckArgs) -> CmdResult {
    let names: Vec<String> = match (&a.game, a.all) {
        (Some(g), false) => vec![g.clone()],
        (None, true) => {
            let games = all_games();
            if games.is_empty() {
                eprintln!("error: no games found (looked for games/*/game.toml)");
                return Ok(1);
            }
            games
        }
        (Some(_), true) => {
            eprintln!("error: give a game or --all, not both");
            return Ok(2);
        }
        (None, false) => {
            eprintln!("error: name a game to check (e.g. `meeple check monopoly`), or --all");
            return Ok(2);
        }
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

/// Every game folder under `games/` here, or else in the meeple source tree.
fn all_games() -> Vec<String> {
    let here = std::path::Path::new("games");
    let root = if here.is_dir() {
        here.to_path_buf()
    } else {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
    };
    let mut out: Vec<String> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("game.toml").is_file())
        .map(|e| e.path().display().to_string())
        .collect();
    out.sort();
    out
}

/// Checks one game; its id, its folder as shown and the summary line.
fn check_one(
    name: &str,
    a: &CheckArgs,
) -> Result<(String, String, String), Vec<crate::diag::Diagnostic>> {
    let pkg = read_game(name, true)?;
    // Random games go round the player counts the game allows, up from the fewest (at least
    // two); the AI games go round them down from the most.
    let (fewest, most) = (pkg.players.0.max(2).min(pkg.players.1), pkg.players.1);
    let seats_of = |i: usize| fewest + i % (most - fewest + 1);
    let ai_seats_of = |j: usize| most - j % (most - fewest + 1);
    let new_game = |map: &str, seed: u64, seats: usize| {
        let config = GameConfig {
            map: Some(map.to_string()),
            seats,
            seed,
            settings: a.settings.clone(),
        };
        Game::new(pkg.clone(), config)
    };
    let mut kinds = vec![Seat::Random; a.games];
    // The AI script runs too: one game with its heuristic bot in every seat, and one per style.
    let probe = new_game(&pkg.default_map, 1, fewest)?;
    let mut warnings = pkg.warnings.clone();
    warnings.extend(probe.warnings());
    if !warnings.is_empty() {
        crate::diag::sort(&mut warnings);
        eprintln!("{}", crate::diag::render(&warnings));
    }
    if probe.has_ai() {
        kinds.push(Seat::Heuristic(None));
        kinds.extend(
            probe
                .ai_styles()
                .into_iter()
                .map(|s| Seat::Heuristic(Some(s))),
        );
    }
    let ai_games = kinds.len() - a.games;
    for map in pkg.maps.keys() {
        for (i, kind) in kinds.iter().enumerate() {
            let seed = i as u64 + 1;
            let seats = match kind {
                Seat::Random => seats_of(i),
                _ => ai_seats_of(i - a.games),
            };
            let mut game = new_game(map, seed, seats)?;
            // Seeded as `play --seed` and `sim` seed a game's bots: the same games.
            let mut bots: Vec<_> = (0..seats).map(|s| kind.bot(seed, s)).collect();
            play_saving(&mut game, &mut bots, a.max_decisions)
                .map_err(|e| vec![super::script_diag(e)])?;
        }
    }
    let maps = plural(pkg.maps.len(), "map");
    // "N games" of a kind, and the player counts they went round (the fewest to the most)
    // when the game allows more than one.
    let games = |n: usize, kind: &str, first: usize, far: usize| {
        let at = match (most > fewest && n > 0, first == far) {
            (false, _) => String::new(),
            (true, true) => format!(" at {first} players"),
            (true, false) => format!(" at {} to {} players", first.min(far), first.max(far)),
        };
        format!("{}{at}", plural(n, kind))
    };
    let far = (0..a.games).map(seats_of).max().unwrap_or(fewest);
    let random = games(a.games, "random game", fewest, far);
    let ai = match ai_games {
        0 => String::new(),
        n => {
            let far = (0..n).map(ai_seats_of).min().unwrap_or(most);
            format!(" and {}", games(n, "AI game", most, far))
        }
    };
    let with = match a.settings.is_empty() {
        true => String::new(),
        false => format!(" with {}", a.settings.join(", ")),
    };
    let summary = format!("{}{with} ({maps}, {random}{ai} each)", pkg.id);
    Ok((pkg.id.clone(), pkg.shown.clone(), summary))
}

/// Plays the game to its end one decision at a time, saving before each and at the end (G
/// must be plain data whenever a player may save) and showing each decision as `play` would
/// (labels and status lines), so that a problem is found at the decision it first appears in.
/// A game still going after `max` decisions is an error.
pub fn play_saving(
    game: &mut Game,
    bots: &mut [Option<Box<dyn Bot>>],
    max: u64,
) -> Result<(), GameError> {
    loop {
        game.snapshot()?;
        if game.pending().is_none() {
            // The numbers `sim` reports of a finished game.
            return game.stats().map(|_| ());
        }
        within(game, max)?;
        game.check_shown()?;
        play_decisions(game, bots, 1)?;
    }
}
