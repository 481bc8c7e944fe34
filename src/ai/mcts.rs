//! Monte Carlo tree search (UCT), open loop, over any game's options: every iteration starts
//! from the real position with a fresh seed for chance and, in a game with hidden zones, a
//! fresh re-deal of what the seat cannot see, so the bot never peeks. Playouts run in the VM
//! (`Game::random_playout`); an AI script's scores pick the options it expands; an option that
//! wins at once is played for as long as it keeps winning. A win shares 1 among the winners,
//! anything else among all; a playout the AI's horizon stops is scored by `AI.standing`.

use super::{Bot, Choice};
use crate::core::event::Outcome;
use crate::core::rng::GameRng;
use crate::engine::{Game, GameError, Mark};
use std::time::{Duration, Instant};

/// How long a search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Iterations(u32),
    Time(Duration),
}

pub const DEFAULT_ITERATIONS: u32 = 1000;
/// Decisions a playout may take before it is scored as unfinished.
const PLAYOUT_STEPS: usize = 2000;
const EXPLORATION: f64 = 1.4;
/// With an AI script, a node expands only its best-scored options, best first (and the Monte
/// Carlo bot tries only those: a budget spread over a Gomoku board's 200 points would give each
/// one playout).
pub(super) const WIDTH: usize = 12;
/// Weight of the AI's ranking in the choice of the option to explore (progressive bias).
const PRIOR: f64 = 4.0;

struct Node {
    seat: usize,
    /// Child node per option position, once tried.
    children: Vec<Option<usize>>,
    untried: Vec<usize>,
    visits: f64,
    /// Total reward per seat.
    reward: Vec<f64>,
    /// An option that ended the game with the mover winning: played from here until chance
    /// or a re-deal makes it end otherwise.
    winning: Option<usize>,
    /// Per option, a bonus from the AI's ranking (1 for its best, 1/2 for the next, …; 0
    /// without an AI script) that fades as the option is visited.
    prior: Vec<f64>,
}

pub struct Mcts {
    budget: Budget,
    rng: GameRng,
}

impl Mcts {
    pub fn new(budget: Budget, seed: u64) -> Mcts {
        Mcts {
            budget,
            rng: GameRng::from_seed(seed),
        }
    }

    /// A node for the game's position. Options to try are the AI's best `WIDTH` (best tried
    /// first) when the game has an AI script, else all of them in random order.
    fn node(&mut self, game: &Game, seats: usize) -> Result<Node, GameError> {
        let (seat, n) = game.pending().map(|p| (p.seat, p.len())).unwrap_or((0, 0));
        let mut untried: Vec<usize> = (0..n).collect();
        self.rng.shuffle(&mut untried);
        let mut prior = vec![0.0; n];
        if game.has_ai() && n > 1 {
            let scores = game.score_options(None)?;
            untried.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
            untried.truncate(WIDTH);
            for (rank, i) in untried.iter().enumerate() {
                prior[*i] = 1.0 / (rank as f64 + 1.0);
            }
            untried.reverse();
        }
        Ok(Node {
            seat,
            children: vec![None; n],
            untried,
            visits: 0.0,
            reward: vec![0.0; seats],
            winning: None,
            prior,
        })
    }

    /// Runs the search from the game's position (`root`, which `Game::searching` restores).
    fn search(&mut self, game: &mut Game, root: &Mark) -> Result<Vec<Node>, GameError> {
        let seats = game.config.seats;
        let mut tree = vec![self.node(game, seats)?];
        let started = Instant::now();
        let mut done = 0u32;
        let me = tree[0].seat;
        while !self.spent(done, started) {
            game.back_to(root)?;
            game.determinize(me, self.rng.next_u64())?;
            let path = self.descend(game, &mut tree, seats)?;
            let reward = playout(game)?;
            for n in path {
                let node = &mut tree[n];
                node.visits += 1.0;
                node.reward
                    .iter_mut()
                    .zip(&reward)
                    .for_each(|(t, r)| *t += r);
            }
            done += 1;
        }
        Ok(tree)
    }

    fn spent(&self, done: u32, started: Instant) -> bool {
        match self.budget {
            Budget::Iterations(n) => done >= n.max(1),
            Budget::Time(t) => done > 0 && started.elapsed() >= t,
        }
    }

    /// Selection and expansion: walks down by UCT, adds one node; returns the nodes visited.
    fn descend(
        &mut self,
        game: &mut Game,
        tree: &mut Vec<Node>,
        seats: usize,
    ) -> Result<Vec<usize>, GameError> {
        let mut path = vec![0];
        let mut at = 0;
        while let Some(n) = game.pending().map(|p| p.len()) {
            if tree[at].children.len() != n {
                break; // chance changed the options under this node: play out from here
            }
            if let Some(i) = tree[at].winning {
                game.apply_index(i)?;
                path.extend(tree[at].children[i]);
                // A win that chance or a re-deal can take away is no sure win.
                if !won_by(game, tree[at].seat) {
                    tree[at].winning = None;
                }
                break;
            }
            if let Some(i) = tree[at].untried.pop() {
                game.apply_index(i)?;
                let child = self.node(game, seats)?;
                tree.push(child);
                let id = tree.len() - 1;
                tree[at].children[i] = Some(id);
                path.push(id);
                if won_by(game, tree[at].seat) {
                    tree[at].winning = Some(i);
                }
                break;
            }
            let Some((i, child)) = best_child(tree, at) else {
                break;
            };
            game.apply_index(i)?;
            path.push(child);
            at = child;
        }
        Ok(path)
    }
}

/// Whether the game is over with `seat` its only winner.
fn won_by(game: &Game, seat: usize) -> bool {
    game.outcome()
        == Some(Outcome::Won {
            winners: vec![seat],
        })
}

fn best_child(tree: &[Node], at: usize) -> Option<(usize, usize)> {
    let node = &tree[at];
    let ln = node.visits.max(1.0).ln();
    node.children
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (i, c)))
        .map(|(i, c)| {
            let child = &tree[c];
            let visits = child.visits.max(1.0);
            let mean = child.reward[node.seat] / visits;
            let bias = PRIOR * node.prior[i] / (1.0 + child.visits);
            (i, c, mean + EXPLORATION * (ln / visits).sqrt() + bias)
        })
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(i, c, _)| (i, c))
}

/// A playout from the game's position and each seat's reward at its end. It plays on at
/// random to the end (at most `PLAYOUT_STEPS` decisions), or, when the AI judges positions
/// (`AI.standing`), for its horizon, and then the AI's values are the rewards.
pub(super) fn playout(game: &mut Game) -> Result<Vec<f64>, GameError> {
    let horizon = game.playout_horizon();
    game.random_playout(horizon.map_or(PLAYOUT_STEPS, |h| h as usize))?;
    let seats = game.config.seats;
    match (game.outcome(), horizon) {
        (None, Some(_)) => game.standings(),
        (outcome, _) => Ok(rewards(outcome, seats)),
    }
}

/// Reward per seat: a win shares 1 among the winners, anything else shares it among all.
pub(super) fn rewards(outcome: Option<Outcome>, seats: usize) -> Vec<f64> {
    match outcome {
        Some(Outcome::Won { winners }) if !winners.is_empty() => {
            let mut r = vec![0.0; seats];
            winners
                .iter()
                .for_each(|w| r[*w] = 1.0 / winners.len() as f64);
            r
        }
        _ => vec![1.0 / seats as f64; seats],
    }
}

impl Bot for Mcts {
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        self.explain(game).map(|c| Choice {
            index: c.index,
            candidates: Vec::new(),
        })
    }

    /// Candidates are scored by their visit counts.
    fn explain(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        let n = game.decision()?.len();
        if n == 1 {
            return Ok(Choice {
                index: 0,
                candidates: vec![(0, 0.0)],
            });
        }
        let tree = game.searching(|g, root| self.search(g, root))?;
        let mut candidates: Vec<(usize, f64)> = tree[0]
            .children
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (i, tree[c].visits)))
            .collect();
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let index = tree[0]
            .winning
            .or(candidates.first().map(|c| c.0))
            .unwrap_or(0);
        Ok(Choice { index, candidates })
    }
}
