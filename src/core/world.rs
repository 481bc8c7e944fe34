//! A position in its serialized form: the world (every runtime-owned part of a game's state:
//! turn order, counters, board, decks, generator, zones, the open claim, outcome, tallies)
//! and, with the flow's state and the script's `G`, the snapshot: the unit of save, undo,
//! replay check, reload and search. Rules change a position only through `ctx`; a world read
//! from a file is checked against the game's `Shape` before it is used.

use super::action::Action;
use super::board::BoardState;
use super::deck::DeckState;
use super::event::Outcome;
use super::grid::GridState;
use super::rng::GameRng;
use super::zone::ZoneState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Everything needed to resume a game exactly: the flow's state, the world and `G`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub state: String,
    pub world: World,
    pub g: serde_json::Value,
}

impl Snapshot {
    pub fn hash(&self) -> String {
        let bytes = serde_json::to_vec(self).expect("snapshots serialize");
        blake3::hash(&bytes).to_hex()[..16].to_string()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct World {
    pub seats: usize,
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
}

/// A simultaneous decision in progress: the seats asked, in asking order (from the seat after
/// the current one around the table), which of them the rules named (the others may only give
/// the default answer), and the answers given so far, kept out of every view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub seats: Vec<usize>,
    /// Per asked seat: whether the `seats` hook named it.
    #[serde(default)]
    pub named: Vec<bool>,
    pub answers: Vec<Action>,
}

/// What a world of one game must look like: the sizes its package, map and settings give.
/// A world read from a file (a save, a hand edit) is checked against it before it is used.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub seats: usize,
    pub counters: usize,
    pub spaces: usize,
    /// Cards in each deck.
    pub decks: Vec<usize>,
    /// Piles of each zone.
    pub zones: Vec<usize>,
    /// Item codes run from 0 to `items - 1` (0: the game names none, any code goes).
    pub items: usize,
    pub grid: Option<(usize, usize)>,
}

impl World {
    /// Every way this world does not fit `shape`, each naming its field (`world.counters[1]`).
    pub fn check(&self, shape: &Shape) -> Vec<String> {
        let mut out = Vec::new();
        let mut len = |field: &str, got: usize, want: usize, what: &str| {
            if got != want {
                out.push(format!("world.{field} holds {got}, not {want} ({what})"));
            }
        };
        let seats = shape.seats;
        len("seats", self.seats, seats, "the seats of the game");
        len("in_play", self.in_play.len(), seats, "one per seat");
        len(
            "counters",
            self.counters.len(),
            shape.counters,
            "one per counter game.toml declares",
        );
        for (c, column) in self.counters.iter().enumerate() {
            len(
                &format!("counters[{c}]"),
                column.len(),
                seats,
                "one per seat",
            );
        }
        let b = &self.board;
        len(
            "board.owners",
            b.owners.len(),
            shape.spaces,
            "one per space of the map",
        );
        len(
            "board.levels",
            b.levels.len(),
            shape.spaces,
            "one per space of the map",
        );
        len("board.tokens", b.tokens.len(), seats, "one per seat");
        len(
            "decks",
            self.decks.len(),
            shape.decks.len(),
            "one per deck of the map",
        );
        len(
            "zones",
            self.zones.len(),
            shape.zones.len(),
            "one per zone game.toml declares",
        );
        for (z, (piles, want)) in self.zones.iter().zip(&shape.zones).enumerate() {
            len(&format!("zones[{z}]"), piles.len(), *want, "its piles");
        }
        if self.current >= seats {
            out.push(format!(
                "world.current is seat index {}, but the game has {seats} seats",
                self.current
            ));
        }
        let seat_of = |what: String, s: usize| {
            (s >= seats)
                .then(|| format!("{what} is seat index {s}, but the game has {seats} seats"))
        };
        out.extend(
            (b.owners.iter().enumerate())
                .filter_map(|(i, o)| seat_of(format!("world.board.owners[{i}]"), (*o)?)),
        );
        for (i, t) in b.tokens.iter().enumerate() {
            if *t >= shape.spaces.max(1) {
                out.push(format!(
                    "world.board.tokens[{i}] is space index {t}, but the map has {} spaces",
                    shape.spaces
                ));
            }
        }
        for (d, (deck, size)) in self.decks.iter().zip(&shape.decks).enumerate() {
            let mut cards: Vec<u16> = deck.pile.iter().chain(&deck.discard).copied().collect();
            cards.extend(deck.held.iter().map(|(c, _)| *c));
            cards.sort_unstable();
            if !cards.iter().copied().eq(0..*size as u16) {
                out.push(format!("world.decks[{d}] must hold each of its {size} cards once (in the pile, the discard or a hand)"));
            }
            out.extend(
                (deck.held.iter().enumerate())
                    .filter_map(|(i, (_, s))| seat_of(format!("world.decks[{d}].held[{i}]"), *s)),
            );
        }
        for (z, piles) in self.zones.iter().enumerate() {
            for (p, items) in piles.iter().enumerate() {
                if let Some(bad) = items
                    .iter()
                    .find(|i| shape.items > 0 && !(0..shape.items as i64).contains(i))
                {
                    out.push(format!(
                        "world.zones[{z}][{p}] holds item code {bad}, but the game names {} items",
                        shape.items
                    ));
                }
            }
        }
        match (&self.grid, shape.grid) {
            (None, None) => {}
            (Some(g), Some((rows, cols))) => {
                if (g.rows, g.cols) != (rows, cols) {
                    out.push(format!(
                        "world.grid is {}×{}, but the map is {rows}×{cols}",
                        g.rows, g.cols
                    ));
                } else if g.cells.len() != rows * cols {
                    out.push(format!(
                        "world.grid.cells has {} cells, not {}",
                        g.cells.len(),
                        rows * cols
                    ));
                } else if let Some(c) = g.cells.iter().find(|c| **c as usize > seats) {
                    out.push(format!(
                        "world.grid.cells holds {c}, but the game has {seats} seats"
                    ));
                } else if !g.levels.is_empty() && g.levels.len() != rows * cols {
                    out.push(format!(
                        "world.grid.levels has {} cells, not {}",
                        g.levels.len(),
                        rows * cols
                    ));
                }
            }
            (Some(_), None) => out.push("world.grid is set, but the map is not a grid".into()),
            (None, Some(_)) => out.push("world.grid is missing, but the map is a grid".into()),
        }
        if let Some(claim) = &self.claim {
            out.extend(
                (claim.seats.iter().enumerate())
                    .filter_map(|(i, s)| seat_of(format!("world.claim.seats[{i}]"), *s)),
            );
            // (A claim saved before `named` was kept has none: every seat was named then.)
            if !claim.named.is_empty() && claim.named.len() != claim.seats.len() {
                out.push(format!(
                    "world.claim.named holds {}, not {} (one per seat asked)",
                    claim.named.len(),
                    claim.seats.len()
                ));
            }
            if claim.answers.len() >= claim.seats.len() {
                out.push(format!("world.claim has {} answers for {} seats asked (a claim is resolved once all have answered)", claim.answers.len(), claim.seats.len()));
            }
        }
        if let Some(Outcome::Won { winners }) = &self.outcome {
            out.extend(
                (winners.iter().enumerate())
                    .filter_map(|(i, s)| seat_of(format!("world.outcome.winners[{i}]"), *s)),
            );
        }
        out
    }
}

impl World {
    /// A world at the start of a game: nothing owned, every counter 0, the first seat to move.
    pub fn new(seats: usize, counters: usize, spaces: usize, seed: u64) -> Self {
        World {
            seats,
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::deck::DeckState;

    fn shape() -> Shape {
        Shape {
            seats: 2,
            counters: 1,
            spaces: 3,
            decks: vec![2],
            zones: vec![2],
            items: 5,
            grid: None,
        }
    }

    fn world() -> World {
        let mut w = World::new(2, 1, 3, 1);
        w.decks = vec![DeckState::new(2, &mut w.rng)];
        w.zones = vec![vec![vec![0, 4], vec![]]];
        w
    }

    #[test]
    fn a_world_that_fits_its_shape_has_no_problem() {
        assert_eq!(world().check(&shape()), Vec::<String>::new());
    }

    #[test]
    fn every_misfit_names_its_field() {
        let mut w = world();
        w.counters[0].pop();
        w.board.owners[1] = Some(5);
        w.board.tokens[0] = 3;
        w.decks[0].pile.push(0);
        w.zones[0][1].push(9);
        w.in_play.push(true);
        assert_eq!(
            w.check(&shape()),
            [
                "world.in_play holds 3, not 2 (one per seat)",
                "world.counters[0] holds 1, not 2 (one per seat)",
                "world.board.owners[1] is seat index 5, but the game has 2 seats",
                "world.board.tokens[0] is space index 3, but the map has 3 spaces",
                "world.decks[0] must hold each of its 2 cards once (in the pile, the discard or a hand)",
                "world.zones[0][1] holds item code 9, but the game names 5 items",
            ]
        );
        let mut w = world();
        w.seats = 99;
        assert!(w.check(&shape())[0].starts_with("world.seats holds 99, not 2"));
    }
}
