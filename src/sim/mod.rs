//! Batch simulation: N seeded AI-vs-AI games across J threads (one Lua VM per thread, reused
//! between games), gathered in game order so the same seed gives the same numbers for any J.

mod naming;
pub mod profile;
pub mod report;

use crate::ai::{play_out_until, Seat};
use crate::core::event::Outcome;
use crate::core::rng::splitmix64;
use crate::def::Package;
use crate::diag::Diagnostic;
use crate::engine::{Game, GameConfig};
use crate::script::profile::{self as sampler, Profile};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

pub struct SimConfig {
    pub pkg: Arc<Package>,
    /// Map and settings; `seats` and `seed` are set per game.
    pub base: GameConfig,
    pub seats: Vec<Seat>,
    pub games: usize,
    pub seed: u64,
    pub jobs: usize,
    /// A game still going after this many decisions stops with an error (`ai::play_out`).
    pub max_decisions: u64,
    /// Each game seats the players one seat further round (`seating`).
    pub rotate: bool,
    /// Sample where the games' Lua work goes (`Batch::profile`).
    pub profile: bool,
}

impl SimConfig {
    /// Which of `seats` plays each seat in game `index`: in order, or, rotated, the list
    /// turned by one seat a game, so that over as many games as seats each player has sat
    /// in every seat once.
    pub fn seating(&self, index: usize) -> Vec<usize> {
        let n = self.seats.len();
        let turn = if self.rotate { index % n } else { 0 };
        (0..n).map(|s| (s + n - turn) % n).collect()
    }
}

/// What one game produced.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub index: usize,
    pub seed: u64,
    pub outcome: Option<Outcome>,
    pub rounds: u64,
    pub decisions: u64,
    pub tallies: BTreeMap<String, BTreeMap<String, u64>>,
    pub stats: Vec<(String, f64)>,
    pub error: Option<String>,
    /// Which player (an index into the batch's seats) played each seat.
    pub players: Vec<usize>,
}

/// The seed of game `index` in a batch started with `seed`. The batch seed is mixed before the
/// index is added, so batches from different seeds share no games in practice (two mixed seeds
/// would have to fall within a batch's length of each other); adding the index to the batch
/// seed itself made seed 2's games seed 1's shifted by one.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    splitmix64(splitmix64(seed).wrapping_add(index as u64))
}

fn config_for(cfg: &SimConfig, index: usize) -> GameConfig {
    GameConfig {
        seats: cfg.seats.len(),
        seed: game_seed(cfg.seed, index),
        ..cfg.base.clone()
    }
}

/// The games a batch played, in game order, and where their Lua work went when sampled.
pub struct Batch {
    pub results: Vec<GameResult>,
    pub profile: Option<Profile>,
}

impl Batch {
    /// Whether the first `GIVE_UP` games all stopped on an error (so that no more were
    /// started, when the batch asked for more).
    pub fn gave_up(&self) -> bool {
        let first = self.results.iter().take(GIVE_UP).enumerate();
        first
            .filter(|(i, r)| r.index == *i && r.error.is_some())
            .count()
            == GIVE_UP
    }
}

/// A batch whose first this many games (by game order) all stop on an error plays no more: a
/// game that loops for ever waits out the script watchdog, and the rest would say the same.
pub const GIVE_UP: usize = 10;

/// How many of the batch's first `GIVE_UP` games have stopped on an error so far: whatever
/// the number of workers, the batch gives up only when all of them did.
#[derive(Default)]
struct Tally {
    failed: AtomicUsize,
}

impl Tally {
    fn note(&self, result: &GameResult) {
        if result.index < GIVE_UP && result.error.is_some() {
            self.failed.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn given_up(&self) -> bool {
        self.failed.load(Ordering::Relaxed) == GIVE_UP
    }
}

/// Runs the batch; `tick` is called after every game (for a progress bar). Once `stop` says
/// so, or the first `GIVE_UP` games all stopped on an error, no game starts, and a game under
/// way stops at its next decision a bot makes in Rust (a search bot's; seats the driver
/// answers play a game out in one call): the results are the games finished, in game order.
pub fn run(
    cfg: &SimConfig,
    tick: &(dyn Fn() + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Batch, Vec<Diagnostic>> {
    if cfg.seats.contains(&Seat::Human) {
        return Err(vec![Diagnostic::error(
            "--players",
            "sim plays bots only (ai, random, mcts, montecarlo or alphabeta; not human)",
        )]);
    }
    let first = Game::new(cfg.pkg.clone(), config_for(cfg, 0))?;
    Seat::check_all(&cfg.seats, &first).map_err(|e| vec![Diagnostic::error("--players", e)])?;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<GameResult>> = Mutex::new(Vec::new());
    let profile = Mutex::new(cfg.profile.then(Profile::default));
    let tally = Tally::default();
    let stop = &|| stop() || tally.given_up();
    std::thread::scope(|scope| {
        for _ in 0..cfg.jobs.max(1).min(cfg.games.max(1)) {
            scope.spawn(|| {
                if cfg.profile {
                    sampler::start();
                }
                worker(cfg, &next, &results, (tick, stop), &tally);
                if let Some(p) = profile.lock().expect("no worker panicked").as_mut() {
                    p.merge(sampler::finish());
                }
            });
        }
    });
    let mut results = results.into_inner().expect("no worker panicked");
    results.sort_unstable_by_key(|r| r.index);
    let profile = profile.into_inner().expect("no worker panicked");
    Ok(Batch { results, profile })
}

fn worker(
    cfg: &SimConfig,
    next: &AtomicUsize,
    results: &Mutex<Vec<GameResult>>,
    (tick, stop): (&(dyn Fn() + Sync), &(dyn Fn() -> bool + Sync)),
    tally: &Tally,
) {
    let mut game: Option<Game> = None;
    loop {
        if stop() {
            return;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= cfg.games {
            return;
        }
        let Some(result) = play_one(cfg, index, &mut game, stop) else {
            return;
        };
        tally.note(&result);
        results.lock().expect("no worker panicked").push(result);
        tick();
    }
}

/// Game `index` of the batch, played in the game kept in `slot`; None when `stop` stopped it.
fn play_one(
    cfg: &SimConfig,
    index: usize,
    slot: &mut Option<Game>,
    stop: &dyn Fn() -> bool,
) -> Option<GameResult> {
    let config = config_for(cfg, index);
    let players = cfg.seating(index);
    let mut result = GameResult {
        index,
        seed: config.seed,
        outcome: None,
        rounds: 0,
        decisions: 0,
        tallies: BTreeMap::new(),
        stats: Vec::new(),
        error: None,
        players: players.clone(),
    };
    let started = match slot.as_mut() {
        Some(g) => {
            sampler::next_game();
            g.restart(config.seed).map_err(|e| e.to_string())
        }
        None => match Game::new(cfg.pkg.clone(), config.clone()) {
            Ok(mut g) => {
                g.set_record_events(false);
                sampler::next_game();
                let r = g.restart(config.seed).map_err(|e| e.to_string());
                *slot = Some(g);
                r
            }
            Err(d) => Err(crate::diag::render(&d)),
        },
    };
    if let Err(e) = started {
        *slot = None;
        result.error = Some(e);
        return Some(result);
    }
    let game = slot.as_mut().expect("started above");
    let mut bots: Vec<_> = (players.iter().enumerate())
        .map(|(i, p)| cfg.seats[*p].bot(config.seed, i))
        .collect();
    let played = play_out_until(game, &mut bots, cfg.max_decisions, stop);
    if played.is_ok() && game.pending().is_some() && stop() {
        sampler::discard_game();
        return None;
    }
    if let Ok(w) = game.world() {
        result.rounds = match w.outcome {
            Some(Outcome::Capped { round }) => round,
            _ => w.round,
        };
        result.outcome = w.outcome;
        result.decisions = w.decisions;
        result.tallies = w.tallies;
    }
    match played.and_then(|_| game.stats()) {
        Ok(stats) => result.stats = stats,
        Err(e) => {
            result.error = Some(e.to_string());
            *slot = None;
        }
    }
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn batches_from_neighbouring_seeds_share_no_games() {
        let batch = |seed| (0..1000).map(move |i| game_seed(seed, i));
        for seed in 0..20 {
            let this: HashSet<u64> = batch(seed).collect();
            assert_eq!(this.len(), 1000, "batch {seed} repeats a game seed");
            let next: HashSet<u64> = batch(seed + 1).collect();
            assert!(
                this.is_disjoint(&next),
                "batches {seed} and {} overlap",
                seed + 1
            );
        }
    }
}
