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
        // A forced move whose act at once logs a line that says it (`P3 plays 2♣` for
        // `play 2♣`) is said by that line alone.
        if let (Event::Note { text }, Some(last)) = (&event, self.events.last()) {
            if says_forced(text, last) {
                self.events.pop();
            }
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

/// Whether `line` says the forced move `forced`: it starts with the seat and holds each word
/// of the move as the log would say it.
fn says_forced(line: &str, forced: &Event) -> bool {
    let Event::Forced {
        seat,
        action,
        label,
        ..
    } = forced
    else {
        return false;
    };
    let said = label.clone().unwrap_or_else(|| action.to_string());
    let Some(rest) = line.strip_prefix(&format!("P{} ", seat + 1)) else {
        return false;
    };
    // Each word of the move begins a word of the line's own (`play` in `plays`), once each.
    let mut words: Vec<&str> = (rest.split_whitespace())
        .map(|w| w.trim_matches(|c: char| c.is_ascii_punctuation()))
        .collect();
    said.split_whitespace()
        .all(|w| match words.iter().position(|l| l.starts_with(w)) {
            Some(i) => {
                words.remove(i);
                true
            }
            None => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_says_a_forced_move_when_it_holds_its_seat_and_words() {
        let forced = |seat, action: &str, label: Option<&str>| Event::Forced {
            seat,
            action: crate::core::action::Action::parse(action).unwrap(),
            label: label.map(String::from),
            lone: false,
        };
        let lead = forced(2, "play 2C", Some("play 2♣"));
        assert!(super::says_forced("P3 plays 2♣", &lead));
        assert!(!super::says_forced("P3 plays 3♣", &lead));
        assert!(!super::says_forced("P2 plays 2♣", &lead));
        let place = forced(1, "place 4 4", None);
        assert!(!super::says_forced("P2 turns 1", &place));
        assert!(super::says_forced("P2 places at (4, 4)", &place));
        assert!(!super::says_forced("P2 places at (4, 1)", &place));
        assert!(!super::says_forced("P1 bypasses", &forced(0, "pass", None)));
        assert!(super::says_forced("P1 passes", &forced(0, "pass", None)));
        assert!(!super::says_forced("P2 wins", &forced(0, "pass", None)));
    }

    #[test]
    fn outcome_is_final_and_logged_once() {
        let mut l = Live::new(2, 1);
        l.finish(Outcome::Won { winners: vec![1] });
        l.finish(Outcome::Draw);
        assert_eq!(l.outcome, Some(Outcome::Won { winners: vec![1] }));
        assert_eq!(l.events.len(), 1);
    }
}
