//! Flat Monte Carlo for any game, hidden information included: every option is tried in
//! turn, each try from a fresh determinization of what the seat cannot see (or a fresh seed
//! for chance), then played out at random; the option with the best mean result wins.

use super::{Bot, Choice};
use crate::core::rng::GameRng;
use crate::engine::{Game, GameError, Mark};

pub const DEFAULT_PLAYOUTS: u32 = 200;
/// Decisions a playout may take before it is scored as unfinished.
const PLAYOUT_STEPS: usize = 2000;

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

    /// Mean result for the seat of each option.
    fn means(&mut self, game: &mut Game, root: &Mark) -> Result<Vec<f64>, GameError> {
        let (seat, n) = {
            let p = game.decision()?;
            (p.seat, p.len())
        };
        let seats = game.config.seats;
        let (mut total, mut tries) = (vec![0.0; n], vec![0u32; n]);
        for k in 0..self.playouts.max(n as u32) {
            let i = k as usize % n;
            game.back_to(root)?;
            game.determinize(seat, self.rng.next_u64())?;
            game.apply_index(i)?;
            game.random_playout(PLAYOUT_STEPS)?;
            total[i] += super::mcts::rewards(game.outcome(), seats)[seat];
            tries[i] += 1;
        }
        Ok(total
            .iter()
            .zip(&tries)
            .map(|(t, n)| t / *n as f64)
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
        let means = game.searching(|g, root| self.means(g, root))?;
        let mut candidates: Vec<(usize, f64)> = means.into_iter().enumerate().collect();
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(Choice {
            index: candidates[0].0,
            candidates,
        })
    }
}
