//! Alpha-beta search for two-player games: minimax to a fixed depth over the options the AI
//! script rates highest (it orders the moves and prunes the rest). A line's leaf is worth the
//! AI's scores of its moves, the bot's added and the opponent's taken away; a win is worth
//! more than any score (a sooner one more), a draw or a capped game 0. Chance ahead comes from
//! the bot's own generator, so it never sees the game's real future rolls.

use super::{Bot, Choice};
use crate::core::event::Outcome;
use crate::core::rng::GameRng;
use crate::engine::{Game, GameError, Mark};

pub const DEFAULT_DEPTH: u32 = 2;
/// The deepest search `alphabeta:N` takes.
pub const MAX_DEPTH: u32 = 8;
/// Options searched at each position: the ones the AI script rates highest.
const WIDTH: usize = 8;
/// The value of a won game, above any AI score.
const WIN: f64 = 1e15;

pub struct AlphaBeta {
    depth: u32,
    rng: GameRng,
}

/// What one search needs at every position.
struct Search {
    me: usize,
    seed: u64,
}

impl AlphaBeta {
    pub fn new(depth: u32, seed: u64) -> AlphaBeta {
        AlphaBeta {
            depth: depth.max(1),
            rng: GameRng::from_seed(seed),
        }
    }

    /// Each searched root option with its value, best first.
    fn search(&mut self, game: &mut Game) -> Result<Vec<(usize, f64)>, GameError> {
        let s = Search {
            me: game.decision()?.seat,
            seed: self.rng.next_u64(),
        };
        let depth = self.depth;
        // A forced reply is weighed like any move: its score counts against the line.
        game.searching(|g, root| {
            g.asking_forced(|g| {
                let mut values = Vec::new();
                // Each root option gets a full window, so every value explained is exact.
                let all = (f64::NEG_INFINITY, f64::INFINITY);
                for (i, score) in ranked(g)? {
                    s.enter(g, root, i)?;
                    values.push((i, s.value(g, depth - 1, all, 1, score)?));
                }
                values.sort_by(|a, b| b.1.total_cmp(&a.1));
                Ok(values)
            })
        })
    }
}

impl Search {
    /// Back to `mark` with the search's own generator, then option `i`.
    fn enter(&self, g: &mut Game, mark: &Mark, i: usize) -> Result<(), GameError> {
        g.back_to(mark)?;
        g.reseed(self.seed);
        g.apply_index(i)
    }

    /// The position's value for `me`, `ply` moves below the root, reached by moves whose
    /// scores add up to `line` for `me`.
    fn value(
        &self,
        g: &mut Game,
        depth: u32,
        (mut alpha, mut beta): (f64, f64),
        ply: u32,
        line: f64,
    ) -> Result<f64, GameError> {
        if g.is_over() {
            return Ok(self.ended(g.outcome(), ply));
        }
        if depth == 0 {
            return Ok(line);
        }
        let mine = g.decision()?.seat == self.me;
        let options = ranked(g)?;
        g.marked(|g, here| {
            let mut best = if mine {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            for (i, score) in options {
                self.enter(g, here, i)?;
                let line = if mine { line + score } else { line - score };
                let v = self.value(g, depth - 1, (alpha, beta), ply + 1, line)?;
                if mine {
                    best = best.max(v);
                    alpha = alpha.max(v);
                } else {
                    best = best.min(v);
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    break;
                }
            }
            Ok(best)
        })
    }

    fn ended(&self, outcome: Option<Outcome>, ply: u32) -> f64 {
        match outcome {
            Some(Outcome::Won { winners }) if winners.contains(&self.me) => WIN - ply as f64,
            Some(Outcome::Won { .. }) => ply as f64 - WIN,
            _ => 0.0,
        }
    }
}

/// A candidate's value as a person reads it: `win in N plies` (or `loss in N plies`) for a line
/// the search saw end, N counted from the move weighed; else the number.
pub fn value_text(v: f64) -> String {
    let plies = WIN - v.abs();
    let unit = if plies == 1.0 { "ply" } else { "plies" };
    match plies.fract() == 0.0 && (1.0..=MAX_DEPTH as f64).contains(&plies) {
        true if v > 0.0 => format!("win in {plies} {unit}"),
        true => format!("loss in {plies} {unit}"),
        false => format!("{v:.2}"),
    }
}

pub fn two_players_only(seats: usize) -> String {
    format!("the alphabeta bot plays two-player games; this game has {seats} seats")
}

/// The pending options the AI rates highest, at most `WIDTH`, best first (ties in listing
/// order), with their scores.
fn ranked(g: &Game) -> Result<Vec<(usize, f64)>, GameError> {
    let mut scored: Vec<(usize, f64)> = g.score_options(None)?.into_iter().enumerate().collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored.truncate(WIDTH);
    Ok(scored)
}

impl Bot for AlphaBeta {
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        self.explain(game).map(|c| Choice {
            index: c.index,
            candidates: Vec::new(),
        })
    }

    /// Candidates are the searched options with their values.
    fn explain(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        let seats = game.config.seats;
        if seats != 2 {
            return Err(GameError::Rejected(two_players_only(seats)));
        }
        if game.decision()?.len() == 1 {
            return Ok(Choice {
                index: 0,
                candidates: vec![(0, 0.0)],
            });
        }
        let candidates = self.search(game)?;
        Ok(Choice {
            index: candidates[0].0,
            candidates,
        })
    }
}
