//! Bots: anything that picks one of the pending decision's options. `random` and `heuristic`
//! (argmax of the AI script's scores, seeded tie-break) work for every game. Each bot can
//! explain a choice: the candidates it weighed and their scores.

use crate::core::rng::{splitmix64, GameRng};
use crate::engine::{Game, GameError};
use std::fmt;

/// Who sits in a seat, as written on the command line (`human`, `ai`, `random`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Heuristic,
    Random,
}

impl Seat {
    pub fn parse(text: &str) -> Result<Seat, String> {
        match text.trim() {
            "human" | "h" => Ok(Seat::Human),
            "ai" | "heuristic" => Ok(Seat::Heuristic),
            "random" => Ok(Seat::Random),
            other => Err(format!(
                "unknown player kind '{other}' (expected: human, ai, heuristic, random)"
            )),
        }
    }

    pub fn parse_list(text: &str) -> Result<Vec<Seat>, String> {
        text.split(',').map(Seat::parse).collect()
    }

    /// A bot for this seat; `None` for a human.
    pub fn bot(&self, seed: u64, seat: usize) -> Option<Box<dyn Bot>> {
        let rng = GameRng::from_seed(splitmix64(seed ^ (0x5eed_0000 + seat as u64)));
        match self {
            Seat::Human => None,
            Seat::Heuristic => Some(Box::new(Heuristic { rng })),
            Seat::Random => Some(Box::new(RandomBot { rng })),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::Human => "human",
            Seat::Heuristic => "ai",
            Seat::Random => "random",
        })
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
    fn choose(&mut self, game: &Game) -> Result<Choice, GameError>;

    /// Picks an option and lists every candidate with its score, best first.
    fn explain(&mut self, game: &Game) -> Result<Choice, GameError> {
        let p = game
            .pending()
            .ok_or_else(|| GameError::Rejected("the game is over".into()))?;
        let choice = self.choose(game)?;
        let share = 1.0 / p.len() as f64;
        let candidates = (0..p.len()).map(|i| (i, share)).collect();
        Ok(Choice {
            index: choice.index,
            candidates,
        })
    }
}

pub struct RandomBot {
    rng: GameRng,
}

impl Bot for RandomBot {
    fn choose(&mut self, game: &Game) -> Result<Choice, GameError> {
        let p = game
            .pending()
            .ok_or_else(|| GameError::Rejected("the game is over".into()))?;
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

impl Heuristic {
    pub fn new(seed: u64) -> Self {
        Heuristic {
            rng: GameRng::from_seed(seed),
        }
    }
}

impl Bot for Heuristic {
    fn choose(&mut self, game: &Game) -> Result<Choice, GameError> {
        let p = game
            .pending()
            .ok_or_else(|| GameError::Rejected("the game is over".into()))?;
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

    fn explain(&mut self, game: &Game) -> Result<Choice, GameError> {
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
