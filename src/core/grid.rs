//! A grid board's state: rows × columns of cells, each empty or holding one seat's stone (with
//! its level, a mark such as a king's), and the queries every grid game needs (runs through a cell, their open ends, empty cells near
//! stones), answered in Rust. Cells are 0-based here; the Lua API counts from 1.

use super::rng::GameRng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GridState {
    pub rows: usize,
    pub cols: usize,
    /// Row-major; 0 is empty, otherwise seat + 1.
    pub cells: Vec<u8>,
    /// Row-major marks on the stones (a checkers king, a promoted piece), 0 by default; empty
    /// until a stone is first marked, so a game that marks none saves as it always did.
    #[serde(default, skip_serializing_if = "unmarked")]
    pub levels: Vec<u8>,
    /// The cell most recently filled (set while empty), which the window marks as the last
    /// move; not part of the position (not in a snapshot, not compared: a save file keeps it
    /// beside the snapshot).
    #[serde(skip)]
    pub filled: Option<(usize, usize)>,
}

/// Whether no stone is marked: the levels are saved (and compared) only when one is.
fn unmarked(levels: &[u8]) -> bool {
    levels.iter().all(|l| *l == 0)
}

impl PartialEq for GridState {
    fn eq(&self, other: &Self) -> bool {
        let levels = match (unmarked(&self.levels), unmarked(&other.levels)) {
            (true, true) => true,
            _ => self.levels == other.levels,
        };
        (self.rows, self.cols, &self.cells) == (other.rows, other.cols, &other.cells) && levels
    }
}

impl Eq for GridState {}

/// The four line directions: horizontal, vertical and the two diagonals.
pub const DIRECTIONS: [(i64, i64); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl GridState {
    pub fn new(rows: usize, cols: usize) -> Self {
        GridState {
            rows,
            cols,
            cells: vec![0; rows * cols],
            levels: Vec::new(),
            filled: None,
        }
    }

    pub fn contains(&self, r: i64, c: i64) -> bool {
        r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols
    }

    fn at(&self, r: i64, c: i64) -> Option<u8> {
        self.contains(r, c)
            .then(|| self.cells[r as usize * self.cols + c as usize])
    }

    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.cols + c]
    }

    /// Puts `value` in the cell (0 empties it); whatever stood there goes, its mark too.
    pub fn set(&mut self, r: usize, c: usize, value: u8) {
        let i = r * self.cols + c;
        let cell = &mut self.cells[i];
        if *cell == 0 && value != 0 {
            self.filled = Some((r, c));
        }
        *cell = value;
        if let Some(level) = self.levels.get_mut(i) {
            *level = 0;
        }
    }

    /// The mark on the cell's stone (0: none).
    pub fn level(&self, r: usize, c: usize) -> u8 {
        self.levels.get(r * self.cols + c).copied().unwrap_or(0)
    }

    /// Marks the cell's stone with `level` (0 clears the mark).
    pub fn set_level(&mut self, r: usize, c: usize, level: u8) {
        if self.levels.is_empty() {
            if level == 0 {
                return;
            }
            self.levels = vec![0; self.cells.len()];
        }
        self.levels[r * self.cols + c] = level;
    }

    /// Counts `who`'s stones from (r, c) outward along (dr, dc) and back, counting (r, c) as
    /// `who`'s whatever it holds; also how many of the run's two ends are empty cells.
    pub fn line(&self, r: usize, c: usize, (dr, dc): (i64, i64), who: u8) -> (usize, usize) {
        let mut len = 1;
        let mut open = 0;
        for sign in [1, -1] {
            let (mut y, mut x) = (r as i64 + sign * dr, c as i64 + sign * dc);
            loop {
                match self.at(y, x) {
                    Some(v) if v == who => len += 1,
                    Some(0) => {
                        open += 1;
                        break;
                    }
                    _ => break,
                }
                y += sign * dr;
                x += sign * dc;
            }
        }
        (len, open)
    }

    /// The longest line of `who` through (r, c) over the four directions.
    pub fn longest(&self, r: usize, c: usize, who: u8) -> usize {
        DIRECTIONS
            .iter()
            .map(|d| self.line(r, c, *d, who).0)
            .max()
            .unwrap_or(1)
    }

    /// Empty cells within Chebyshev distance `d` of any stone, in row-major order.
    pub fn empty_near(&self, d: usize) -> Vec<usize> {
        let near = self.near(d, |v| v != 0);
        (0..self.cells.len()).filter(|i| near[*i]).collect()
    }

    /// A uniformly random empty cell within distance `d` of any stone, or None when there is
    /// none.
    pub fn random_near(&self, d: usize, rng: &mut GameRng) -> Option<usize> {
        let cells = self.empty_near(d);
        (!cells.is_empty()).then(|| cells[rng.below(cells.len() as u64) as usize])
    }

    /// Marks the empty cells within Chebyshev distance `d` of a cell whose value passes
    /// `stone`.
    fn near(&self, d: usize, stone: impl Fn(u8) -> bool) -> Vec<bool> {
        let mut near = vec![false; self.cells.len()];
        for (i, v) in self.cells.iter().enumerate() {
            if !stone(*v) {
                continue;
            }
            let (r, c) = (i / self.cols, i % self.cols);
            for y in r.saturating_sub(d)..=(r + d).min(self.rows - 1) {
                for x in c.saturating_sub(d)..=(c + d).min(self.cols - 1) {
                    let j = y * self.cols + x;
                    near[j] = self.cells[j] == 0;
                }
            }
        }
        near
    }

    /// Empty cells where a stone of `who` would make a run of `n` or more in some direction
    /// (exactly `n` when `exact`), in row-major order.
    pub fn completing(&self, who: u8, n: usize, exact: bool) -> Vec<usize> {
        let hits = |len: usize| if exact { len == n } else { len >= n };
        // A run longer than one needs a stone of `who` next to the cell: only those are tried.
        let candidates = if n <= 1 {
            self.cells.iter().map(|v| *v == 0).collect()
        } else {
            self.near(1, |v| v == who)
        };
        (0..self.cells.len())
            .filter(|i| candidates[*i])
            .filter(|i| {
                let (r, c) = (i / self.cols, i % self.cols);
                DIRECTIONS.iter().any(|d| hits(self.line(r, c, *d, who).0))
            })
            .collect()
    }

    /// Whether any stone lies within distance `d` of (r, c).
    pub fn has_neighbor(&self, r: usize, c: usize, d: usize) -> bool {
        (r.saturating_sub(d)..=(r + d).min(self.rows - 1)).any(|y| {
            (c.saturating_sub(d)..=(c + d).min(self.cols - 1))
                .any(|x| (y, x) != (r, c) && self.get(y, x) != 0)
        })
    }

    pub fn stones(&self) -> usize {
        self.cells.len() - self.empty_count()
    }

    /// Number of empty cells, counted in byte lanes (255 cells at most per lane count, so
    /// the compiler adds sixteen or more cells a step).
    fn empty_count(&self) -> usize {
        (self.cells.chunks(255))
            .map(|c| c.iter().map(|v| (*v == 0) as u8).sum::<u8>() as usize)
            .sum()
    }

    /// A uniformly random empty cell, or None on a full board: a few random cells are tried
    /// first (on a board that is mostly empty one of them nearly always is), then the
    /// empty cells are counted and one is picked by rank.
    pub fn random_empty(&self, rng: &mut GameRng) -> Option<usize> {
        let n = self.cells.len() as u64;
        if n == 0 {
            return None;
        }
        for _ in 0..4 {
            let i = rng.below(n) as usize;
            if self.cells[i] == 0 {
                return Some(i);
            }
        }
        let empty = self.empty_count();
        if empty == 0 {
            return None;
        }
        self.nth_empty(rng.below(empty as u64) as usize)
    }

    /// The index of the `k`-th empty cell (from 0) in row-major order.
    fn nth_empty(&self, mut k: usize) -> Option<usize> {
        let (words, _) = self.cells.as_chunks::<8>();
        let mut start = 0;
        for w in words {
            let n = zero_bytes(u64::from_le_bytes(*w)) as usize;
            if k < n {
                break;
            }
            k -= n;
            start += 8;
        }
        self.cells[start..]
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == 0)
            .nth(k)
            .map(|(i, _)| start + i)
    }
}

/// How many of a word's eight bytes are zero.
fn zero_bytes(x: u64) -> u32 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let y = (x & LOW7).wrapping_add(LOW7);
    (!(y | x | LOW7)).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_are_counted_on_boards_of_more_than_255_cells() {
        let mut g = GridState::new(20, 20);
        for i in (0..400).step_by(3) {
            g.set(i / 20, i % 20, 1 + (i % 2) as u8);
        }
        assert_eq!(g.stones(), 134);
        g.set(0, 0, 0);
        assert_eq!(g.stones(), 133);
    }

    #[test]
    fn completing_cells_make_the_run_and_exact_excludes_overlines() {
        let g = grid(&["xx.xx.", "......", "oooo..", "......"]);
        assert_eq!(g.completing(1, 5, false), vec![2]);
        assert_eq!(g.completing(2, 5, false), vec![16]);
        let long = grid(&["xxx.xx"]);
        assert_eq!(long.completing(1, 5, false), vec![3]);
        assert_eq!(
            long.completing(1, 5, true),
            Vec::<usize>::new(),
            "six is not five"
        );
    }

    fn grid(rows: &[&str]) -> GridState {
        let mut g = GridState::new(rows.len(), rows[0].len());
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                g.set(
                    r,
                    c,
                    match ch {
                        'x' => 1,
                        'o' => 2,
                        _ => 0,
                    },
                );
            }
        }
        g
    }

    #[test]
    fn lines_count_runs_and_open_ends() {
        let g = grid(&[".xxx.", "o....", "....."]);
        assert_eq!(g.line(0, 2, (0, 1), 1), (3, 2));
        assert_eq!(
            g.line(0, 4, (0, 1), 1),
            (4, 1),
            "an empty cell counts as the player's"
        );
        assert_eq!(
            g.line(1, 0, (0, 1), 2),
            (1, 1),
            "the board edge closes a run"
        );
        assert_eq!(g.longest(0, 1, 1), 3);
    }

    #[test]
    fn diagonals_and_edges() {
        let g = grid(&["x..", ".x.", "..x"]);
        assert_eq!(g.line(1, 1, (1, 1), 1), (3, 0));
        assert_eq!(g.line(2, 0, (1, -1), 1), (2, 1));
    }

    #[test]
    fn empty_cells_counted_and_picked_by_rank() {
        let mut g = GridState::new(5, 5);
        for (r, c, v) in [(0, 0, 1), (0, 2, 2), (1, 4, 200), (3, 1, 1), (4, 4, 2)] {
            g.set(r, c, v);
        }
        let empty: Vec<usize> = (0..25).filter(|i| g.cells[*i] == 0).collect();
        assert_eq!(g.empty_count(), 20);
        assert_eq!(g.stones(), 5);
        for (k, i) in empty.iter().enumerate() {
            assert_eq!(g.nth_empty(k), Some(*i), "empty cell number {k}");
        }
        assert_eq!(g.nth_empty(20), None);
    }

    /// `completing`, `empty_near` and the empty count against plain definitions on random boards.
    #[test]
    fn fast_queries_agree_with_plain_definitions_on_random_boards() {
        let seed = 11;
        println!("seed {seed}");
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..2_000 {
            let (rows, cols) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
            let mut g = GridState::new(rows, cols);
            let fill = rng.below(100);
            for i in 0..rows * cols {
                if rng.below(100) < fill {
                    g.cells[i] = 1 + rng.below(2) as u8;
                }
            }
            let empty: Vec<usize> = (0..rows * cols).filter(|i| g.cells[*i] == 0).collect();
            assert_eq!(g.empty_count(), empty.len(), "{g:?}");
            let near: Vec<usize> = empty
                .iter()
                .copied()
                .filter(|i| g.has_neighbor(i / cols, i % cols, 1))
                .collect();
            assert_eq!(g.empty_near(1), near, "{g:?}");
            for (who, n, exact) in [(1, 5, false), (2, 3, true), (1, 2, false), (2, 1, false)] {
                let plain: Vec<usize> = empty
                    .iter()
                    .copied()
                    .filter(|i| {
                        DIRECTIONS.iter().any(|d| {
                            let len = g.line(i / cols, i % cols, *d, who).0;
                            if exact {
                                len == n
                            } else {
                                len >= n
                            }
                        })
                    })
                    .collect();
                assert_eq!(
                    g.completing(who, n, exact),
                    plain,
                    "{who} {n} {exact} {g:?}"
                );
            }
        }
    }

    /// The last move is the cell filled last: emptying a cell or changing whose stone it holds
    /// (a capture, a flip) is not a placement; equality ignores it.
    #[test]
    fn the_cell_filled_last_is_kept_apart_from_the_position() {
        let mut g = GridState::new(3, 3);
        g.set(1, 1, 1);
        g.set(0, 2, 2);
        assert_eq!(g.filled, Some((0, 2)));
        g.set(1, 1, 2);
        g.set(0, 2, 0);
        assert_eq!(g.filled, Some((0, 2)));
        let mut other = GridState::new(3, 3);
        other.set(1, 1, 2);
        assert_eq!((other.filled, other == g), (Some((1, 1)), true));
    }

    #[test]
    fn random_empty_cells_are_empty_and_uniform() {
        let seed = 5;
        println!("seed {seed}");
        let mut rng = GameRng::from_seed(seed);
        let mut g = grid(&["xo.", "oxo", "xox"]);
        assert!((0..50).all(|_| g.random_empty(&mut rng) == Some(2)));
        g.set(0, 2, 1);
        assert_eq!(g.random_empty(&mut rng), None);
        let g = grid(&["x....", ".o...", "..x..", "...o.", "....x"]);
        let mut seen = [0u32; 25];
        for _ in 0..20_000 {
            seen[g.random_empty(&mut rng).unwrap()] += 1;
        }
        for (i, n) in seen.iter().enumerate() {
            match g.cells[i] {
                0 => assert!(
                    (800..1200).contains(n),
                    "cell {i} drawn {n} times of 20,000"
                ),
                _ => assert_eq!(*n, 0, "occupied cell {i} drawn"),
            }
        }
    }

    #[test]
    fn random_near_cells_are_empty_neighbours_of_stones() {
        let seed = 9;
        println!("seed {seed}");
        let mut rng = GameRng::from_seed(seed);
        let g = grid(&["x....", ".....", ".....", "....o"]);
        let near = g.empty_near(1);
        assert_eq!(near, vec![1, 5, 6, 13, 14, 18]);
        let mut seen = std::collections::BTreeMap::new();
        for _ in 0..6_000 {
            *seen.entry(g.random_near(1, &mut rng).unwrap()).or_insert(0) += 1;
        }
        assert_eq!(seen.keys().copied().collect::<Vec<_>>(), near);
        assert!(seen.values().all(|n| (850..1150).contains(n)), "{seen:?}");
        assert_eq!(GridState::new(3, 3).random_near(1, &mut rng), None);
    }

    #[test]
    fn empty_cells_near_stones() {
        let g = grid(&[".....", "..x..", ".....", ".....", "....."]);
        assert_eq!(g.empty_near(1), vec![1, 2, 3, 6, 8, 11, 12, 13]);
        assert!(g.has_neighbor(2, 3, 1));
        assert!(!g.has_neighbor(4, 4, 1));
        assert_eq!(g.stones(), 1);
    }

    #[test]
    fn a_mark_stays_with_its_stone_and_is_saved_only_while_some_stone_has_one() {
        let mut g = GridState::new(2, 2);
        g.set(0, 0, 1);
        let plain = serde_json::to_string(&g).unwrap();
        g.set_level(0, 0, 1);
        assert_eq!(g.level(0, 0), 1);
        assert_ne!(serde_json::to_string(&g).unwrap(), plain);
        let back: GridState = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
        assert_eq!((back.level(0, 0), &back), (1, &g));
        // A stone set over it takes its place, unmarked; the unmarked grid saves as before.
        g.set(0, 0, 2);
        assert_eq!(g.level(0, 0), 0);
        g.set(0, 0, 1);
        assert_eq!(serde_json::to_string(&g).unwrap(), plain);
        let mut unmarked = GridState::new(2, 2);
        unmarked.set(0, 0, 1);
        assert_eq!(g, unmarked);
    }
}
