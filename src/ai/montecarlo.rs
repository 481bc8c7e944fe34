//! Flat Monte Carlo for any game, hidden information included: the options (the AI's best
//! `WIDTH` when the game has an AI) are tried in turn, each try from a fresh determinization
//! of what the seat cannot see (or a fresh seed for chance), then played out at random (see
//! `mcts::playout`); the option with the best mean result wins.

use super::mcts::WIDTH;
use super::{Bot, Choice};
use crate::core::rng::GameRng;
use crate::engine::{Game, GameError, Mark};

pub const DEFAULT_PLAYOUTS: u32 = 200;

pub struct MonteCarlo {
    playouts: u32,
    rng: GameRng,
}

impl MonteCarlo {
    pub fn new(playouts: u32, seed: u64) -> MonteCarlo {
        MonteCarlo {
            playouts,
            rng: GameRng::from_seed(seed),
        }
    }

    /// The options tried, each with the mean result for the seat.
    fn means(&mut self, game: &mut Game, root: &Mark) -> Result<Vec<(usize, f64)>, GameError> {
        let (seat, n) = {
            let p = game.decision()?;
            (p.seat, p.len())
        };
        let mut tried: Vec<usize> = (0..n).collect();
        if game.has_ai() && n > WIDTH {
            let scores = game.score_options(None)?;
            tried.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
            tried.truncate(WIDTH);
        }
        let mut total = vec![0.0; tried.len()];
        let rounds = (self.playouts as usize).div_ceil(tried.len());
        for k in 0..rounds * tried.len() {
            let at = k % tried.len();
            game.back_to(root)?;
            game.determinize(seat, self.rng.next_u64())?;
            game.apply_index(tried[at])?;
            total[at] += super::mcts::playout(game)?[seat];
        }
        Ok(tried
            .into_iter()
            .zip(total)
            .map(|(i, t)| (i, t / rounds as f64))
            .collect())
    }
}

impl Bot for MonteCarlo {
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        self.explain(game).map(|c| Choice {
            index: c.index,
            candidates: Vec::new(),
        })
    }

    /// Candidates are scored by their mean result.
    fn explain(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        if game.decision()?.len() == 1 {
            return Ok(Choice {
                index: 0,
                candidates: vec![(0, 1.0)],
            });
        }
        let mut candidates = game.searching(|g, root| self.means(g, root))?;
        // Equal means keep the order tried: the AI's ranking (a won line wins every playout).
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(Choice {
            index: candidates[0].0,
            candidates,
        })
    }
}
