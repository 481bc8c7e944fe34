//! A track board's state: each space's owner and level mark, and one token per seat. While a
//! game runs these live in the VM (moves and laps are `script/rawboard.rs`'s); this is their
//! snapshot form.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardState {
    pub owners: Vec<Option<usize>>,
    pub levels: Vec<i64>,
    /// Space index of each seat's token.
    pub tokens: Vec<usize>,
}

impl BoardState {
    pub fn new(spaces: usize, seats: usize) -> Self {
        BoardState {
            owners: vec![None; spaces],
            levels: vec![0; spaces],
            tokens: vec![0; seats],
        }
    }
}
