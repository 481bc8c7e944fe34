//! Events: every applied action and every random outcome, in order. The terminal prints them,
//! the window animates them, tests compare them and replays reproduce them.

use super::action::Action;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Action {
        seat: usize,
        action: Action,
    },
    /// The lone option of a forced decision, played without asking: its label (R.label's
    /// text, if the rules label options, else the action with its items' labels when they
    /// differ from their names), and whether the log says it was the only option
    /// (not in a game with hidden piles, where that tells what a hand lacks). When the act
    /// at once logs a line that says the move (`P3 plays 2♣` for `play 2♣`), that line
    /// replaces this one.
    Forced {
        seat: usize,
        action: Action,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<String>,
        #[serde(default)]
        lone: bool,
    },
    /// `seat`, here and in `Random` and `Draw`: whose action the roll belongs to (none before
    /// the first action, at setup).
    Dice {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
        spec: String,
        values: Vec<u32>,
        total: i64,
    },
    Random {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
        lo: i64,
        hi: i64,
        value: i64,
    },
    /// A card drawn: the deck's name and the card's text (its id when it has none).
    Draw {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
        deck: String,
        card: String,
    },
    /// A deck's discards shuffled back in: the deck's name.
    Shuffle {
        deck: String,
    },
    Move {
        seat: usize,
        to: String,
        laps: u32,
    },
    Note {
        text: String,
    },
    /// A line only `seat` is shown (`ctx:tell`): what its own hidden pile gained, say.
    Told {
        seat: usize,
        text: String,
    },
    Eliminated {
        seat: usize,
    },
    GameOver {
        outcome: Outcome,
    },
    /// The rules were reloaded from edited files (their content hash).
    Reload {
        files_hash: String,
    },
}

/// How a game ended. Seats are 0-based here and shown 1-based to people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    Won {
        winners: Vec<usize>,
    },
    Draw,
    /// Stopped at the round cap: unfinished, nobody won.
    Capped {
        round: u64,
    },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Won { winners } => {
                let seats: Vec<String> = winners.iter().map(|s| format!("P{}", s + 1)).collect();
                write!(f, "{} won", seats.join(", "))
            }
            Outcome::Draw => write!(f, "draw"),
            Outcome::Capped { round } => {
                write!(
                    f,
                    "unfinished: stopped at the round cap, after round {round}"
                )
            }
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Action { seat, action } => write!(f, "P{} chose '{action}'", seat + 1),
            Event::Forced {
                seat,
                action,
                label,
                lone,
            } => {
                write!(f, "P{} → ", seat + 1)?;
                match label {
                    Some(label) => f.write_str(label)?,
                    None => write!(f, "{action}")?,
                }
                match lone {
                    true => f.write_str(", its only option"),
                    false => Ok(()),
                }
            }
            Event::Dice {
                seat,
                spec,
                values,
                total,
            } => {
                f.write_str(&by(*seat))?;
                let faces: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                let mut sum = faces.join(" + ");
                let bonus = total - values.iter().map(|v| i64::from(*v)).sum::<i64>();
                match bonus.signum() {
                    1 => sum += &format!(" + {bonus}"),
                    -1 => sum += &format!(" - {}", -bonus),
                    _ if values.len() == 1 => return write!(f, "rolled {spec}: {sum}"),
                    _ => {}
                }
                write!(f, "rolled {spec}: {sum} = {total}")
            }
            Event::Random {
                seat,
                lo,
                hi,
                value,
            } => write!(f, "{}random {lo}..{hi}: {value}", by(*seat)),
            Event::Draw { seat, deck, card } => write!(f, "{}drew {deck}: {card}", by(*seat)),
            Event::Shuffle { deck } => write!(f, "shuffled {deck}"),
            Event::Move { seat, to, laps: 1 } => {
                write!(f, "P{} moved to {to} (passed the start)", seat + 1)
            }
            Event::Move { seat, to, laps } if *laps > 1 => {
                write!(
                    f,
                    "P{} moved to {to} (passed the start {laps} times)",
                    seat + 1
                )
            }
            Event::Move { seat, to, .. } => write!(f, "P{} moved to {to}", seat + 1),
            Event::Note { text } => write!(f, "{text}"),
            Event::Told { seat, text } => write!(f, "(P{} only) {text}", seat + 1),
            Event::Eliminated { seat } => write!(f, "P{} is out", seat + 1),
            Event::GameOver { outcome } => write!(f, "game over: {outcome}"),
            Event::Reload { files_hash } => write!(f, "rules reloaded (files {files_hash})"),
        }
    }
}

impl Event {
    /// The seat a line is told to alone (`ctx:tell`); None for everything else.
    pub fn told_to(&self) -> Option<usize> {
        match self {
            Event::Told { seat, .. } => Some(*seat),
            _ => None,
        }
    }

    /// Whether the event is a line of the log as the terminal shows it: not an action (said
    /// with its seat where it is played) nor a reload (said where it happens).
    pub fn is_line(&self) -> bool {
        !matches!(self, Event::Action { .. } | Event::Reload { .. })
    }

    /// Whether a person seeing the game as `viewer` (None: nobody's seat) is shown the event.
    pub fn seen_by(&self, viewer: Option<usize>) -> bool {
        shown_to(self.told_to(), viewer)
    }
}

/// Whether a line told to seat `to` alone (None: to everyone) is shown to `viewer`.
pub fn shown_to(to: Option<usize>, viewer: Option<usize>) -> bool {
    to.is_none() || to == viewer
}

/// "P2 " before what a seat's action rolled or drew; nothing when no action is known.
fn by(seat: Option<usize>) -> String {
    seat.map(|s| format!("P{} ", s + 1)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_and_moves_read_plainly() {
        let dice = |spec: &str, values: Vec<u32>, total: i64| {
            let spec = spec.to_string();
            Event::Dice {
                seat: None,
                spec,
                values,
                total,
            }
            .to_string()
        };
        assert_eq!(dice("2d6", vec![3, 2], 5), "rolled 2d6: 3 + 2 = 5");
        assert_eq!(dice("1d6", vec![4], 4), "rolled 1d6: 4");
        assert_eq!(dice("1d6+2", vec![4], 6), "rolled 1d6+2: 4 + 2 = 6");
        assert_eq!(dice("2d6-1", vec![3, 5], 7), "rolled 2d6-1: 3 + 5 - 1 = 7");
        let values = vec![6, 1];
        let by_p2 = Event::Dice {
            seat: Some(1),
            spec: "2d6".into(),
            values,
            total: 7,
        };
        assert_eq!(by_p2.to_string(), "P2 rolled 2d6: 6 + 1 = 7");
        let card = "Go directly to Jail.".to_string();
        let (deck, seat) = ("Chance".to_string(), Some(0));
        let drawn = Event::Draw { seat, deck, card };
        assert_eq!(drawn.to_string(), "P1 drew Chance: Go directly to Jail.");
        let moved = |laps: u32| {
            let to = "起点".to_string();
            Event::Move { seat: 0, to, laps }.to_string()
        };
        assert_eq!(moved(0), "P1 moved to 起点");
        assert_eq!(moved(1), "P1 moved to 起点 (passed the start)");
        assert_eq!(moved(2), "P1 moved to 起点 (passed the start 2 times)");
    }

    #[test]
    fn a_capped_game_says_the_last_round_played() {
        let capped = Outcome::Capped { round: 300 };
        assert_eq!(
            capped.to_string(),
            "unfinished: stopped at the round cap, after round 300"
        );
    }
}
