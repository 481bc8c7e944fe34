//! Bots think on a worker thread so the window never freezes. The Lua VM cannot move between
//! threads, so the thread owns its own `Game` built from the same package
//! and config, and each question carries a snapshot of the live position; the thread keeps one
//! bot per seat (the same bots, seeded as the terminal seeds them). Answers name the question
//! they answer; the window drops answers to positions it has left (undo, reload).

use crate::ai::{Bot, Choice, Seat};
use crate::core::action::Action;
use crate::def::Package;
use crate::engine::{Game, GameConfig, Snapshot};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// A position to think about.
pub struct Question {
    /// The window's position number; the answer carries it back.
    pub id: u64,
    pub pkg: Arc<Package>,
    pub config: GameConfig,
    pub snap: Snapshot,
    pub seat: usize,
    /// Ask this bot instead of the seat's own (what a bot would do for a human seat).
    pub advisor: Option<Seat>,
}

/// A bot's choice, explained.
#[derive(Clone, Debug)]
pub struct Thought {
    pub seat: usize,
    pub who: String,
    pub action: Action,
    pub label: String,
    /// Candidate labels and scores, best first.
    pub candidates: Vec<(String, f64)>,
    /// Whether the seat's own bot chose (to be played) or an advisor (only shown).
    pub to_play: bool,
    /// The game's turn and decisions played when it chose: the panel says when the choice
    /// shown is not the last decision played (forced moves came after it).
    pub turn: u64,
    pub decisions: u64,
}

impl Thought {
    /// What `who`, deciding for `seat`, chose in `game`: the chosen action and its label, and
    /// the best 8 candidates labelled.
    pub fn new(
        game: &mut Game,
        choice: &Choice,
        seat: usize,
        who: String,
        to_play: bool,
    ) -> Result<Thought, String> {
        let action = game.decision().map_err(|e| e.to_string())?.options()[choice.index].clone();
        let labels = game.shown(Some(seat)).labels;
        let (turn, decisions) = game.world().map_or((0, 0), |w| (w.turn, w.decisions));
        let candidates = choice
            .candidates
            .iter()
            .take(8)
            .map(|(i, score)| (labels[*i].clone(), *score))
            .collect();
        Ok(Thought {
            seat,
            who,
            action,
            label: labels[choice.index].clone(),
            candidates,
            to_play,
            turn,
            decisions,
        })
    }
}

pub struct Answer {
    pub id: u64,
    pub result: Result<Thought, String>,
}

pub struct Worker {
    questions: Sender<Question>,
    pub answers: Receiver<Answer>,
}

impl Worker {
    /// Starts the thread with the session's seats and bots (`session::bots` of the game's `seed`
    /// and the record's `steps`).
    pub fn start(seats: Vec<Seat>, seed: u64, steps: usize) -> Worker {
        let (questions, rx) = channel::<Question>();
        let (tx, answers) = channel();
        std::thread::spawn(move || {
            let mut mind = Mind {
                game: None,
                bots: crate::session::bots(&seats, seed, steps),
                seats,
            };
            while let Ok(mut q) = rx.recv() {
                // Only the latest question matters.
                while let Ok(newer) = rx.try_recv() {
                    q = newer;
                }
                let id = q.id;
                if tx
                    .send(Answer {
                        id,
                        result: mind.think(q),
                    })
                    .is_err()
                {
                    return;
                }
            }
        });
        Worker { questions, answers }
    }

    /// Hands `q` to the thread; false when the thread has stopped (a bot panicked).
    pub fn ask(&self, q: Question) -> bool {
        self.questions.send(q).is_ok()
    }
}

struct Mind {
    game: Option<Game>,
    bots: Vec<Option<Box<dyn Bot>>>,
    seats: Vec<Seat>,
}

impl Mind {
    fn think(&mut self, q: Question) -> Result<Thought, String> {
        let game = game_for(&mut self.game, &q)?;
        game.restore(&q.snap).map_err(|e| e.to_string())?;
        let (mut advisor, who) = match &q.advisor {
            Some(seat) => (seat.bot(q.config.seed, q.seat), seat.to_string()),
            None => (None, self.seats[q.seat].to_string()),
        };
        let bot = match advisor.as_mut() {
            Some(b) => b,
            None => self.bots[q.seat]
                .as_mut()
                .ok_or_else(|| format!("P{} has no bot", q.seat + 1))?,
        };
        let choice = bot.explain(game).map_err(|e| e.to_string())?;
        Thought::new(game, &choice, q.seat, who, q.advisor.is_none())
    }
}

/// The thread's game, rebuilt when the rules or the config changed.
fn game_for<'a>(slot: &'a mut Option<Game>, q: &Question) -> Result<&'a mut Game, String> {
    let fresh = match slot {
        Some(g) => g.pkg.files_hash != q.pkg.files_hash || g.config != q.config,
        None => true,
    };
    if fresh {
        let mut game =
            Game::new(q.pkg.clone(), q.config.clone()).map_err(|d| crate::diag::render(&d))?;
        game.set_record_events(false);
        *slot = Some(game);
    }
    Ok(slot.as_mut().expect("just built"))
}
