//! The world: every runtime-owned part of a game's state (turn order, counters, board, decks,
//! generator, outcome, tallies) plus the event log. Together with the script's `G` it is the
//! snapshot; rules change it only through `ctx`.

use super::action::Action;
use super::board::BoardState;
use super::deck::DeckState;
use super::event::{Event, Outcome};
use super::grid::GridState;
use super::rng::GameRng;
use super::zone::ZoneState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct World {
    pub seats: usize,
    /// Current flow state (index into the flow).
    pub state: usize,
    /// Seat whose turn it is.
    pub current: usize,
    /// False once a seat has been eliminated.
    pub in_play: Vec<bool>,
    /// Turns started so far (the first turn is 1).
    pub turn: u64,
    /// Rounds started so far (a round ends when turn order wraps).
    pub round: u64,
    /// Decisions applied so far.
    pub decisions: u64,
    pub outcome: Option<Outcome>,
    pub rng: GameRng,
    /// `counters[counter][seat]`.
    pub counters: Vec<Vec<i64>>,
    pub board: BoardState,
    /// The cells of a grid map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridState>,
    pub decks: Vec<DeckState>,
    /// Piles of the game's declared zones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: ZoneState,
    /// Answers collected so far in a state that asks several seats at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claim>,
    /// Named counts a game keeps for statistics (`ctx:tally`), e.g. landings per space.
    pub tallies: BTreeMap<String, BTreeMap<String, u64>>,
    #[serde(skip)]
    pub events: Vec<Event>,
    /// Die faces to use before the generator (scenario tests and tutorials set up exact rolls).
    #[serde(skip)]
    pub forced_dice: std::collections::VecDeque<u32>,
    #[serde(skip, default = "yes")]
    pub record_events: bool,
}

/// A simultaneous decision in progress: the seats asked, in asking order (from the seat after
/// the current one around the table), and the answers given so far, kept out of every view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub seats: Vec<usize>,
    pub answers: Vec<Action>,
}

fn yes() -> bool {
    true
}

impl World {
    pub fn new(seats: usize, counters: usize, spaces: usize, seed: u64) -> Self {
        World {
            seats,
            state: 0,
            current: 0,
            in_play: vec![true; seats],
            turn: 1,
            round: 1,
            decisions: 0,
            outcome: None,
            rng: GameRng::from_seed(seed),
            counters: vec![vec![0; seats]; counters],
            board: BoardState::new(spaces, seats),
            grid: None,
            decks: Vec::new(),
            zones: Vec::new(),
            claim: None,
            tallies: BTreeMap::new(),
            events: Vec::new(),
            forced_dice: Default::default(),
            record_events: true,
        }
    }

    pub fn log(&mut self, event: Event) {
        if self.record_events {
            self.events.push(event);
        }
    }

    pub fn finish(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.log(Event::GameOver {
                outcome: outcome.clone(),
            });
            self.outcome = Some(outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_is_final_and_logged_once() {
        let mut w = World::new(2, 0, 1, 1);
        w.finish(Outcome::Won { winners: vec![1] });
        w.finish(Outcome::Draw);
        assert_eq!(w.outcome, Some(Outcome::Won { winners: vec![1] }));
        assert_eq!(w.events.len(), 1);
    }
}
