//! The world: every runtime-owned part of a game's state (turn order, counters, board, decks,
//! generator, outcome, tallies) plus the event log. Together with the script's `G` it is the
//! snapshot; rules change it only through `ctx`.

use super::board::BoardState;
use super::deck::DeckState;
use super::event::{Event, Outcome};
use super::rng::GameRng;
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
    pub decks: Vec<DeckState>,
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
            decks: Vec::new(),
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

    pub fn seats_in_play(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats).filter(|s| self.in_play[*s])
    }

    /// Passes the turn to the next seat still in play; counts turns and rounds.
    pub fn next_seat(&mut self) -> usize {
        let n = self.seats;
        for step in 1..=n {
            let s = (self.current + step) % n;
            if self.in_play[s] {
                if s <= self.current {
                    self.round += 1;
                }
                self.current = s;
                break;
            }
        }
        self.turn += 1;
        self.current
    }

    pub fn eliminate(&mut self, seat: usize) {
        if self.in_play[seat] {
            self.in_play[seat] = false;
            self.log(Event::Eliminated { seat });
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

    pub fn tally(&mut self, name: &str, key: &str, by: u64) {
        let table = match self.tallies.get_mut(name) {
            Some(t) => t,
            None => self.tallies.entry(name.to_string()).or_default(),
        };
        match table.get_mut(key) {
            Some(v) => *v += by,
            None => {
                table.insert(key.to_string(), by);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_skips_eliminated_and_counts_rounds() {
        let mut w = World::new(3, 0, 1, 1);
        w.eliminate(1);
        assert_eq!(w.next_seat(), 2);
        assert_eq!(w.round, 1);
        assert_eq!(w.next_seat(), 0);
        assert_eq!(w.round, 2);
        assert_eq!(w.turn, 3);
        assert_eq!(w.events, vec![Event::Eliminated { seat: 1 }]);
    }
}
