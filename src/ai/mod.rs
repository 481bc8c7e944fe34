//! Bots: anything that picks one of the pending decision's options. `random` and `heuristic`
//! (argmax of the AI script's scores, seeded tie-break) work for every game. Each bot can
//! explain a choice: the candidates it weighed and their scores.

pub mod alphabeta;
pub mod mcts;
pub mod montecarlo;

use crate::core::rng::{splitmix64, GameRng};
use crate::engine::{Game, GameError, Policy};
use alphabeta::AlphaBeta;
use mcts::{Budget, Mcts};
use montecarlo::MonteCarlo;
use std::fmt;

/// The bot kinds a seat may name, for help texts and errors (one list to keep in step with
/// `Seat::parse`).
#[macro_export]
macro_rules! bot_kinds {
    () => {
        "ai (heuristic), ai:STYLE, random, mcts, mcts:N, mcts:Nms, montecarlo, montecarlo:N, alphabeta, alphabeta:N"
    };
}

/// Who sits in a seat, as written on the command line (`human`, `ai`, `random`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// The AI script's scores, or those of one of its `AI.styles`.
    Heuristic(Option<String>),
    Random,
    Mcts(Budget),
    /// Flat Monte Carlo: this many random playouts per decision, spread over the options.
    MonteCarlo(u32),
    /// Alpha-beta search this many moves deep over the AI's best options (two players).
    AlphaBeta(u32),
}

impl Seat {
    /// A seat as written on the command line (`human`, `ai:bold`, `mcts:500`).
    pub fn parse(text: &str) -> Result<Seat, String> {
        Seat::known(text).unwrap_or_else(|| {
            let expected = concat!("human, ", bot_kinds!());
            Err(unknown(text, "player kind", &KINDS, expected))
        })
    }

    /// A bot as written (`mcts:500`): what `parse` takes but `human`.
    pub fn parse_bot(text: &str) -> Result<Seat, String> {
        match Seat::known(text) {
            Some(Ok(Seat::Human)) => Err(concat!(
                "'human' is a person, not a bot: name a bot (expected: ",
                bot_kinds!(),
                ")"
            )
            .to_string()),
            None => Err(unknown(text, "bot", &KINDS[1..], bot_kinds!())),
            Some(seat) => seat,
        }
    }

    /// The seat `text` names, an error in its parameter, or None for a kind there is not.
    fn known(text: &str) -> Option<Result<Seat, String>> {
        let seat = match text.trim() {
            "human" | "h" => Seat::Human,
            "ai" | "heuristic" => Seat::Heuristic(None),
            "random" => Seat::Random,
            "mcts" => Seat::Mcts(Budget::Iterations(mcts::DEFAULT_ITERATIONS)),
            "montecarlo" => Seat::MonteCarlo(montecarlo::DEFAULT_PLAYOUTS),
            "alphabeta" => Seat::AlphaBeta(alphabeta::DEFAULT_DEPTH),
            other => {
                if let Some(style) = other.strip_prefix("ai:").filter(|s| !s.is_empty()) {
                    return Some(Ok(Seat::Heuristic(Some(style.to_string()))));
                }
                if let Some(budget) = other.strip_prefix("mcts:") {
                    return Some(parse_budget(budget).map(Seat::Mcts));
                }
                if let Some(n) = other.strip_prefix("montecarlo:") {
                    return Some(n
                        .parse::<u32>()
                        .ok()
                        .filter(|n| *n > 0)
                        .map(Seat::MonteCarlo)
                        .ok_or_else(|| format!("bad montecarlo budget '{n}' (expected playouts like montecarlo:500)")));
                }
                if let Some(n) = other.strip_prefix("alphabeta:") {
                    return Some(n
                        .parse::<u32>()
                        .ok()
                        .filter(|n| (1..=alphabeta::MAX_DEPTH).contains(n))
                        .map(Seat::AlphaBeta)
                        .ok_or_else(|| format!("bad alphabeta depth '{n}' (expected moves ahead from 1 to {}, like alphabeta:3)", alphabeta::MAX_DEPTH)));
                }
                return None;
            }
        };
        Some(Ok(seat))
    }

    pub fn parse_list(text: &str) -> Result<Vec<Seat>, String> {
        text.split(',').map(Seat::parse).collect()
    }

    /// The heuristic and alpha-beta bots need the game's AI script; alpha-beta needs two seats.
    pub fn check_for(&self, pkg: &crate::def::Package, seats: usize) -> Result<(), String> {
        if matches!(self, Seat::AlphaBeta(_)) && seats != 2 {
            return Err(alphabeta::two_players_only(seats));
        }
        if matches!(self, Seat::Heuristic(_) | Seat::AlphaBeta(_)) && pkg.ai_file.is_none() {
            return Err(format!(
                "game '{}' has no AI script (ai = \"ai.lua\" in game.toml), so it has no {} player; use random or mcts",
                pkg.id,
                if matches!(self, Seat::AlphaBeta(_)) { "alphabeta" } else { "ai" }
            ));
        }
        Ok(())
    }

    /// Checks `seats` against the loaded `game`: what each kind of bot needs of the game
    /// (`check_for`) and that the AI style a seat names exists.
    pub fn check_all(seats: &[Seat], game: &Game) -> Result<(), String> {
        let n = game.config.seats;
        seats.iter().try_for_each(|s| {
            s.check_for(&game.pkg, n)?;
            match s {
                Seat::Heuristic(Some(style)) => game.check_ai_style(style),
                _ => Ok(()),
            }
        })
    }

    /// A bot for this seat; `None` for a human.
    pub fn bot(&self, seed: u64, seat: usize) -> Option<Box<dyn Bot>> {
        let rng = GameRng::from_seed(splitmix64(seed ^ (0x5eed_0000 + seat as u64)));
        let fair_seed = splitmix64(seed ^ (0xfa1e_0000 + seat as u64));
        let bot: Box<dyn Bot> = match self {
            Seat::Human => return None,
            Seat::Heuristic(style) => Box::new(Heuristic {
                rng,
                style: style.clone(),
            }),
            Seat::Random => Box::new(RandomBot { rng }),
            Seat::Mcts(budget) => Box::new(Mcts::new(*budget, rng.clone().next_u64())),
            Seat::MonteCarlo(n) => Box::new(MonteCarlo::new(*n, rng.clone().next_u64())),
            Seat::AlphaBeta(depth) => Box::new(AlphaBeta::new(*depth, rng.clone().next_u64())),
        };
        Some(fair(bot, fair_seed))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Heuristic(None) => f.write_str("ai"),
            Seat::Heuristic(Some(style)) => write!(f, "ai:{style}"),
            Seat::Random => f.write_str("random"),
            Seat::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            Seat::Mcts(Budget::Time(t)) => write!(f, "mcts:{}ms", t.as_millis()),
            Seat::MonteCarlo(n) => write!(f, "montecarlo:{n}"),
            Seat::AlphaBeta(depth) => write!(f, "alphabeta:{depth}"),
        }
    }
}

/// The kinds of seat, as `Seat::known` reads them without a parameter: `human`, then the bots.
const KINDS: [&str; 6] = ["human", "ai", "random", "mcts", "montecarlo", "alphabeta"];

/// `unknown bot 'rnadom'; did you mean 'random'? (expected: …)`, the hint taken from `kinds`.
fn unknown(text: &str, what: &str, kinds: &[&str], expected: &str) -> String {
    let hint = crate::diag::hint(text.trim(), kinds.iter().copied());
    format!(
        "unknown {what} '{}'{hint} (expected: {expected})",
        text.trim()
    )
}

/// `2000` (iterations) or `200ms` (time per decision).
fn parse_budget(text: &str) -> Result<Budget, String> {
    let bad = || {
        format!(
            "bad mcts budget '{text}' (expected iterations like mcts:2000 or time like mcts:200ms)"
        )
    };
    match text.strip_suffix("ms") {
        Some(ms) => ms
            .parse::<u64>()
            .ok()
            .filter(|m| *m > 0)
            .map(|m| Budget::Time(std::time::Duration::from_millis(m)))
            .ok_or_else(bad),
        None => text
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .map(Budget::Iterations)
            .ok_or_else(bad),
    }
}

/// A bot's choice and what it weighed.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub index: usize,
    /// (option index, score) for every candidate, best first (filled by `explain`).
    pub candidates: Vec<(usize, f64)>,
}

impl Choice {
    /// The candidates best first and, among equal scores, the chosen option first (a random
    /// bot scores all alike; a tie-break picks one of several best): as they are listed.
    pub fn ranked(&self) -> Vec<(usize, f64)> {
        let mut ranked = self.candidates.clone();
        ranked.sort_by(|x, y| {
            y.1.total_cmp(&x.1)
                .then((y.0 == self.index).cmp(&(x.0 == self.index)))
        });
        ranked
    }
}

pub trait Bot {
    /// Picks an option quickly (`candidates` may be left empty).
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError>;

    /// Picks an option and lists every candidate with its score, best first.
    fn explain(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        let choice = self.choose(game)?;
        let n = game.pending().map(|p| p.len()).unwrap_or(1);
        let share = 1.0 / n as f64;
        Ok(Choice {
            index: choice.index,
            candidates: (0..n).map(|i| (i, share)).collect(),
        })
    }

    /// How the rules' driver can answer for this bot, at `seat` of `game`: its policy and the
    /// generator it draws from, when every choice the bot makes is that policy's (the same
    /// game whoever drives it). `None` (the default): the bot chooses in Rust every time.
    fn policy(&mut self, _game: &Game, _seat: usize) -> Option<(Policy, &mut GameRng)> {
        None
    }

    /// Whether the bot reads the position to choose (a uniform pick does not, so it needs no
    /// re-deal of what its seat cannot see).
    fn reads_position(&self) -> bool {
        true
    }
}

/// Lets a bot see only what its seat may see: in a game whose zones hide something from the
/// seat, the bot decides on a determinized copy (hidden piles re-dealt from what the seat
/// knows, generator reseeded) and the true position is restored afterwards. Every bot made
/// by `Seat::bot` is wrapped so.
/// `seed` varies the re-deals (bots with different seeds sample differently).
pub fn fair(bot: Box<dyn Bot>, seed: u64) -> Box<dyn Bot> {
    Box::new(Fair { bot, seed })
}

struct Fair {
    bot: Box<dyn Bot>,
    seed: u64,
}

impl Fair {
    fn seen<R>(
        &mut self,
        game: &mut Game,
        think: impl FnOnce(&mut dyn Bot, &mut Game) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        let seat = game.decision()?.seat;
        if !game.hides_from(Some(seat)) || !self.bot.reads_position() {
            return think(self.bot.as_mut(), game);
        }
        let seed = splitmix64(self.seed ^ (game.decisions() << 8) ^ seat as u64);
        // Back to the truth, and its log, however the re-deal or the thinking ended.
        game.searching(|game, _| {
            game.determinize(seat, seed)?;
            think(self.bot.as_mut(), game)
        })
    }
}

impl Bot for Fair {
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        self.seen(game, |bot, g| bot.choose(g))
    }

    fn explain(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        self.seen(game, |bot, g| bot.explain(g))
    }

    /// The wrapped bot's, when it needs no re-deal here: the game hides nothing from the
    /// seat, or the bot does not read the position.
    fn policy(&mut self, game: &Game, seat: usize) -> Option<(Policy, &mut GameRng)> {
        match game.hides_from(Some(seat)) && self.bot.reads_position() {
            true => None,
            false => self.bot.policy(game, seat),
        }
    }

    fn reads_position(&self) -> bool {
        self.bot.reads_position()
    }
}

pub struct RandomBot {
    rng: GameRng,
}

impl Bot for RandomBot {
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        let p = game.decision()?;
        let index = self.rng.below(p.len() as u64) as usize;
        Ok(Choice {
            index,
            candidates: Vec::new(),
        })
    }

    /// The driver's "random" policy draws as `choose` does.
    fn policy(&mut self, _game: &Game, _seat: usize) -> Option<(Policy, &mut GameRng)> {
        Some((Policy::Random, &mut self.rng))
    }

    fn reads_position(&self) -> bool {
        false
    }
}

/// One of the best options (`tied`, not empty): drawn from `rng` when several tie; a single
/// best option draws nothing (as the driver's heuristic policy does).
fn tie_break(tied: &[usize], rng: &mut GameRng) -> usize {
    match tied.len() {
        1 => tied[0],
        n => tied[rng.below(n as u64) as usize],
    }
}

pub struct Heuristic {
    rng: GameRng,
    style: Option<String>,
}

impl Bot for Heuristic {
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        let p = game.decision()?;
        if p.len() == 1 {
            return Ok(Choice {
                index: 0,
                candidates: Vec::new(),
            });
        }
        let (_, tied) = game.best_options(self.style.as_deref())?;
        let index = tie_break(&tied, &mut self.rng);
        Ok(Choice {
            index,
            candidates: Vec::new(),
        })
    }

    /// Scores once and picks from those scores as `choose` would (scripted scores may sample,
    /// so a second scoring could differ).
    fn explain(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        let scores = game.score_options(self.style.as_deref())?;
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..scores.len()).filter(|i| scores[*i] == best).collect();
        let index = match scores.len() {
            1 => 0,
            _ => tie_break(&tied, &mut self.rng),
        };
        let mut candidates: Vec<(usize, f64)> = scores.into_iter().enumerate().collect();
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(Choice { index, candidates })
    }

    /// The driver's heuristic policy scores and draws as `choose` does.
    fn policy(&mut self, _game: &Game, _seat: usize) -> Option<(Policy, &mut GameRng)> {
        Some((Policy::Heuristic(self.style.clone()), &mut self.rng))
    }
}

/// Decisions a game played out by `check` or `sim` may take before it is stopped as endless:
/// far more than any game here needs (a property game capped at 300 rounds takes about 1,500).
pub const MAX_DECISIONS: u64 = 100_000;

/// Plays every seat with its bot until the game ends; `None` seats must not be asked. A game
/// that has taken `max_decisions` decisions since its start and is still going is an error
/// that says where it stood. Seats whose bot has a driver policy are answered inside the
/// rules' driver (the same choices, without crossing into Rust); the driver stops for the
/// others, whose bots choose here.
pub fn play_out(
    game: &mut Game,
    bots: &mut [Option<Box<dyn Bot>>],
    max_decisions: u64,
) -> Result<(), GameError> {
    play_out_until(game, bots, max_decisions, &|| false)
}

/// `play_out`, stopping early (the game still going) once `stop` says so before a decision a
/// bot makes here (the driver plays its own seats' decisions on without asking `stop`).
pub fn play_out_until(
    game: &mut Game,
    bots: &mut [Option<Box<dyn Bot>>],
    max_decisions: u64,
    stop: &dyn Fn() -> bool,
) -> Result<(), GameError> {
    while game.pending().is_some() && game.decisions() < max_decisions && !stop() {
        let (policies, mut generators) = policies_of(game, bots);
        if policies.iter().any(|p| *p != Policy::Ask) {
            let driven = game.drive(&policies, &mut generators, max_decisions);
            store_generators(game, bots, generators);
            driven?;
        }
        let Some(seat) = game.pending().map(|p| p.seat) else {
            break;
        };
        if policies.get(seat).is_some_and(|p| *p != Policy::Ask)
            || game.decisions() >= max_decisions
        {
            continue;
        }
        play_decisions(game, bots, 1)?;
    }
    within(game, max_decisions)
}

/// Each seat's driver policy (`Ask` for a bot that chooses in Rust, or no bot) and a copy of
/// the generator it draws from.
fn policies_of(game: &Game, bots: &mut [Option<Box<dyn Bot>>]) -> (Vec<Policy>, Vec<GameRng>) {
    (bots.iter_mut().enumerate())
        .map(
            |(seat, bot)| match bot.as_mut().and_then(|b| b.policy(game, seat)) {
                Some((policy, rng)) => (policy, rng.clone()),
                None => (Policy::Ask, GameRng::from_seed(0)),
            },
        )
        .unzip()
}

/// Puts the generators a drive drew from back in their bots.
fn store_generators(game: &Game, bots: &mut [Option<Box<dyn Bot>>], generators: Vec<GameRng>) {
    for (seat, (bot, rng)) in bots.iter_mut().zip(generators).enumerate() {
        if let Some((_, own)) = bot.as_mut().and_then(|b| b.policy(game, seat)) {
            *own = rng;
        }
    }
}

/// The error of a game still going after `max_decisions` decisions since its start; `Ok` for a
/// game that is over or has decisions left.
pub fn within(game: &Game, max_decisions: u64) -> Result<(), GameError> {
    match game.pending() {
        Some(_) if game.decisions() >= max_decisions => Err(game.endless(max_decisions)),
        _ => Ok(()),
    }
}

/// Plays at most `limit` decisions step by step, each seat by its bot (`None` seats must not
/// be asked); stops early when the game ends. Returns the decisions played.
pub fn play_decisions(
    game: &mut Game,
    bots: &mut [Option<Box<dyn Bot>>],
    limit: usize,
) -> Result<usize, GameError> {
    let mut played = 0;
    while game.pending().is_some() && played < limit {
        play_one(game, bots)?;
        played += 1;
    }
    Ok(played)
}

/// Plays the pending decision by its seat's bot (a `None` seat is an error): the index of the
/// option it played.
pub fn play_one(game: &mut Game, bots: &mut [Option<Box<dyn Bot>>]) -> Result<usize, GameError> {
    let seat = game.decision()?.seat;
    let bot = bots
        .get_mut(seat)
        .and_then(|b| b.as_mut())
        .ok_or_else(|| GameError::Rejected(format!("no bot for P{}", seat + 1)))?;
    let index = bot.choose(game)?.index;
    game.apply_index(index)?;
    Ok(index)
}
