//! A track board: spaces in a loop, each with an owner and a level mark, and one token per
//! seat. Movement reports how many times a token passed or landed on the first space, so
//! rules pay a lap bonus exactly once per lap.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardState {
    pub owners: Vec<Option<usize>>,
    pub levels: Vec<i64>,
    /// Space index of each seat's token.
    pub tokens: Vec<usize>,
}

/// Where a move ended and how many times it reached the first space going forward.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub struct Moved {
    pub to: usize,
    pub laps: u32,
}

impl BoardState {
    pub fn new(spaces: usize, seats: usize) -> Self {
        BoardState {
            owners: vec![None; spaces],
            levels: vec![0; spaces],
            tokens: vec![0; seats],
        }
    }

    pub fn len(&self) -> usize {
        self.owners.len()
    }

    pub fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }

    /// Moves a token `steps` spaces (negative goes backwards and never counts a lap).
    pub fn move_by(&mut self, seat: usize, steps: i64) -> Moved {
        let n = self.len() as i64;
        let from = self.tokens[seat] as i64;
        let raw = from + steps;
        let to = raw.rem_euclid(n) as usize;
        let laps = if steps > 0 { (raw / n) as u32 } else { 0 };
        self.tokens[seat] = to;
        Moved { to, laps }
    }

    /// Moves a token forward until it stands on `target` (a full lap if it is already there).
    pub fn advance_to(&mut self, seat: usize, target: usize) -> Moved {
        let n = self.len() as i64;
        let from = self.tokens[seat] as i64;
        let mut steps = (target as i64 - from).rem_euclid(n);
        if steps == 0 {
            steps = n;
        }
        self.move_by(seat, steps)
    }

    /// Puts a token on a space without passing anything.
    pub fn place(&mut self, seat: usize, target: usize) {
        self.tokens[seat] = target;
    }

    /// Frees every space a seat owns and clears its level; returns the spaces freed.
    pub fn release_all(&mut self, seat: usize) -> Vec<usize> {
        let mut freed = Vec::new();
        for (i, owner) in self.owners.iter_mut().enumerate() {
            if *owner == Some(seat) {
                *owner = None;
                self.levels[i] = 0;
                freed.push(i);
            }
        }
        freed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passing_and_landing_on_start_count_once() {
        let mut b = BoardState::new(10, 2);
        b.place(0, 8);
        assert_eq!(b.move_by(0, 2), Moved { to: 0, laps: 1 });
        b.place(0, 8);
        assert_eq!(b.move_by(0, 5), Moved { to: 3, laps: 1 });
        assert_eq!(b.move_by(0, 2), Moved { to: 5, laps: 0 });
        assert_eq!(b.move_by(0, -7), Moved { to: 8, laps: 0 });
    }

    #[test]
    fn advance_to_wraps_forward() {
        let mut b = BoardState::new(10, 1);
        b.place(0, 7);
        assert_eq!(b.advance_to(0, 2), Moved { to: 2, laps: 1 });
        assert_eq!(b.advance_to(0, 5), Moved { to: 5, laps: 0 });
    }
}
