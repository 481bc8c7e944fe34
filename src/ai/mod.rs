//! Bots: anything that picks one of the pending decision's options. `random` and `heuristic`
//! (argmax of the AI script's scores, seeded tie-break) work for every game. Each bot can
//! explain a choice: the candidates it weighed and their scores.

pub mod mcts;

use crate::core::rng::{splitmix64, GameRng};
use crate::engine::{Game, GameError};
use mcts::{Budget, Mcts};
use std::fmt;

/// Who sits in a seat, as written on the command line (`human`, `ai`, `random`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Heuristic,
    Random,
    Mcts(Budget),
}

impl Seat {
    pub fn parse(text: &str) -> Result<Seat, String> {
        match text.trim() {
            "human" | "h" => Ok(Seat::Human),
            "ai" | "heuristic" => Ok(Seat::Heuristic),
            "random" => Ok(Seat::Random),
            "mcts" => Ok(Seat::Mcts(Budget::Iterations(mcts::DEFAULT_ITERATIONS))),
            other if other.starts_with("mcts:") => parse_budget(&other[5..]).map(Seat::Mcts),
            other => Err(format!(
                "unknown player kind '{other}' (expected: human, ai, heuristic, random, mcts, mcts:N, mcts:Nms)"
            )),
        }
    }

    pub fn parse_list(text: &str) -> Result<Vec<Seat>, String> {
        text.split(',').map(Seat::parse).collect()
    }

    /// The heuristic bot needs the game's AI script.
    pub fn check_for(&self, pkg: &crate::def::Package) -> Result<(), String> {
        if *self == Seat::Heuristic && pkg.ai_file.is_none() {
            return Err(format!(
                "game '{}' has no AI script (ai = \"ai.lua\" in game.toml), so it has no ai player; use random or mcts",
                pkg.id
            ));
        }
        Ok(())
    }

    /// A bot for this seat; `None` for a human.
    pub fn bot(&self, seed: u64, seat: usize) -> Option<Box<dyn Bot>> {
        let rng = GameRng::from_seed(splitmix64(seed ^ (0x5eed_0000 + seat as u64)));
        match self {
            Seat::Human => None,
            Seat::Heuristic => Some(Box::new(Heuristic { rng })),
            Seat::Random => Some(Box::new(RandomBot { rng })),
            Seat::Mcts(budget) => Some(Box::new(Mcts::new(*budget, rng.clone().next_u64()))),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Heuristic => f.write_str("ai"),
            Seat::Random => f.write_str("random"),
            Seat::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            Seat::Mcts(Budget::Time(t)) => write!(f, "mcts:{}ms", t.as_millis()),
        }
    }
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
}

pub struct Heuristic {
    rng: GameRng,
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
        let (_, tied) = game.best_options()?;
        let index = tied[self.rng.below(tied.len() as u64) as usize];
        Ok(Choice {
            index,
            candidates: Vec::new(),
        })
    }

    fn explain(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        let index = self.choose(game)?.index;
        let mut candidates: Vec<(usize, f64)> =
            game.score_options()?.into_iter().enumerate().collect();
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(Choice { index, candidates })
    }
}

/// Plays every seat with its bot until the game ends; `None` seats must not be asked.
pub fn play_out(game: &mut Game, bots: &mut [Option<Box<dyn Bot>>]) -> Result<(), GameError> {
    while let Some(p) = game.pending() {
        let seat = p.seat;
        let bot = bots
            .get_mut(seat)
            .and_then(|b| b.as_mut())
            .ok_or_else(|| GameError::Rejected(format!("no bot for P{}", seat + 1)))?;
        let choice = bot.choose(game)?;
        game.apply_index(choice.index)?;
    }
    Ok(())
}
