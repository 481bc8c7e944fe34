//! The live components the runtime keeps in Rust while a game runs: the generator, the decks,
//! a grid's cells, the outcome and the event log (the rest of a position lives in the script
//! VM, beside the rules). Each has this one live copy; a snapshot is their serialized form.

use super::deck::DeckState;
use super::event::{Event, Outcome};
use super::grid::GridState;
use super::rng::GameRng;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct Live {
    pub seats: usize,
    pub rng: GameRng,
    pub decks: Vec<DeckState>,
    pub grid: Option<GridState>,
    pub outcome: Option<Outcome>,
    pub events: Vec<Event>,
    /// Die faces to use before the generator (scenario tests and tutorials set up exact rolls).
    pub forced_dice: VecDeque<u32>,
    pub record_events: bool,
    /// The seat whose rolls and draws follow: the one whose turn it is, or who played the last
    /// action logged since (a claim out of turn); none during the set-up.
    pub acting: Option<usize>,
}

impl Live {
    pub fn new(seats: usize, seed: u64) -> Live {
        Live {
            seats,
            rng: GameRng::from_seed(seed),
            decks: Vec::new(),
            grid: None,
            outcome: None,
            events: Vec::new(),
            forced_dice: VecDeque::new(),
            record_events: true,
            acting: None,
        }
    }

    pub fn log(&mut self, event: Event) {
        if let Event::Action { seat, .. } | Event::Forced { seat, .. } = event {
            self.acting = Some(seat);
        }
        if !self.record_events {
            return;
        }
        // A forced move whose act logs a line at once is said by that line alone.
        if matches!(event, Event::Note { .. })
            && matches!(self.events.last(), Some(Event::Forced { .. }))
        {
            self.events.pop();
        }
        self.events.push(event);
    }

    /// Records the outcome, once: a later one is ignored.
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
        let mut l = Live::new(2, 1);
        l.finish(Outcome::Won { winners: vec![1] });
        l.finish(Outcome::Draw);
        assert_eq!(l.outcome, Some(Outcome::Won { winners: vec![1] }));
        assert_eq!(l.events.len(), 1);
    }
}
