//! Shanten by segments: runs never cross a segment (a declared run range, or one code outside
//! every range), so each segment's best trade-offs between melds and partial melds are
//! worked out once per distinct content, kept in a cache, and combined per hand. Monte Carlo
//! bots ask for thousands of shanten per decision over a few hundred distinct suit contents.

use super::meld::Shapes;
use std::collections::HashMap;

/// What one segment can give: (melds, partials) pairs that no other pair beats in both, with
/// the head pair taken elsewhere (`free`) or from this segment (`headed`).
#[derive(Clone, Debug, Default, PartialEq)]
struct Frontier {
    free: Vec<(u8, u8)>,
    headed: Vec<(u8, u8)>,
}

/// A shanten calculator for one set of shapes, with its cache of segment frontiers.
#[derive(Clone, Debug)]
pub struct Shanten {
    /// (first code, length) of each segment.
    segments: Vec<(usize, usize)>,
    cache: HashMap<(usize, u64), Frontier>,
}

impl Shanten {
    pub fn new(shapes: &Shapes) -> Shanten {
        let mut segments = Vec::new();
        let mut k = 0;
        while k < shapes.kinds {
            let start = k;
            while k < shapes.kinds && shapes.runs_from(k) {
                k += 1;
            }
            // A run from k-1 reaches k+1: the segment ends two codes past the last run start.
            let end = if k > start { k + 2 } else { k + 1 };
            segments.push((start, end.min(shapes.kinds) - start));
            k = end;
        }
        Shanten {
            segments,
            cache: HashMap::new(),
        }
    }

    /// Items to change before the counts hold `groups` melds and a pair, minus one: -1 means
    /// such a hand is there, 0 means one item away (ready).
    pub fn of(&mut self, shapes: &Shapes, counts: &[u8], groups: usize) -> i32 {
        let g = groups as u8;
        // (melds, partials, head taken), both capped at `groups`: more is never needed.
        let mut states: Vec<(u8, u8, bool)> = vec![(0, 0, false)];
        for s in 0..self.segments.len() {
            let (start, len) = self.segments[s];
            let part = &counts[start..start + len];
            if part.iter().all(|c| *c == 0) {
                continue;
            }
            let f = self.frontier(shapes, s, part);
            let mut next = Vec::with_capacity(states.len() * 4);
            for &(m, t, head) in &states {
                for &(dm, dt) in &f.free {
                    next.push(((m + dm).min(g), (t + dt).min(g), head));
                }
                if !head {
                    for &(dm, dt) in &f.headed {
                        next.push(((m + dm).min(g), (t + dt).min(g), true));
                    }
                }
            }
            states = pareto(next);
        }
        states
            .iter()
            .map(|&(m, t, head)| {
                let open = (g - m) as i32;
                2 * open - (t as i32).min(open) - head as i32
            })
            .min()
            .unwrap_or(2 * groups as i32)
    }

    fn frontier(&mut self, shapes: &Shapes, s: usize, part: &[u8]) -> Frontier {
        let key = pack(part);
        if let Some(f) = key.and_then(|k| self.cache.get(&(s, k))) {
            return f.clone();
        }
        let mut f = Frontier::default();
        let start = self.segments[s].0;
        explore(shapes, start, &mut part.to_vec(), 0, (0, 0, false), &mut f);
        f.free = pareto2(std::mem::take(&mut f.free));
        f.headed = pareto2(std::mem::take(&mut f.headed));
        if let Some(k) = key {
            self.cache.insert((s, k), f.clone());
        }
        f
    }
}

/// Counts of up to 16 codes, 4 bits each; `None` when a count does not fit (then no caching).
fn pack(part: &[u8]) -> Option<u64> {
    if part.len() > 16 || part.iter().any(|c| *c > 15) {
        return None;
    }
    Some(part.iter().fold(0u64, |acc, c| (acc << 4) | *c as u64))
}

/// Every way to read the segment as melds, partial melds (a pair, two in sequence, two with a
/// gap) and at most one head pair; the rest left over. `start` is the segment's first code.
fn explore(
    shapes: &Shapes,
    start: usize,
    c: &mut [u8],
    mut i: usize,
    (m, t, head): (u8, u8, bool),
    out: &mut Frontier,
) {
    while i < c.len() && c[i] == 0 {
        i += 1;
    }
    if i == c.len() {
        let list = if head { &mut out.headed } else { &mut out.free };
        if !list.contains(&(m, t)) {
            list.push((m, t));
        }
        return;
    }
    let code = start + i;
    let mut go = |c: &mut [u8], take: &[(usize, u8)], next: (u8, u8, bool)| {
        take.iter().for_each(|(j, n)| c[*j] -= n);
        explore(shapes, start, c, i, next, out);
        take.iter().for_each(|(j, n)| c[*j] += n);
    };
    if c[i] >= 3 {
        go(c, &[(i, 3)], (m + 1, t, head));
    }
    if shapes.runs_from(code) && c[i + 1] > 0 && c[i + 2] > 0 {
        go(c, &[(i, 1), (i + 1, 1), (i + 2, 1)], (m + 1, t, head));
    }
    if c[i] >= 2 {
        if !head {
            go(c, &[(i, 2)], (m, t, true));
        }
        go(c, &[(i, 2)], (m, t + 1, head));
    }
    for gap in [1, 2] {
        if i + gap < c.len() && shapes.links(code, gap) && c[i + gap] > 0 {
            go(c, &[(i, 1), (i + gap, 1)], (m, t + 1, head));
        }
    }
    let n = c[i];
    c[i] = 0;
    explore(shapes, start, c, i + 1, (m, t, head), out);
    c[i] = n;
}

/// The (melds, partials) pairs not beaten in both by another.
fn pareto2(mut v: Vec<(u8, u8)>) -> Vec<(u8, u8)> {
    v.sort_unstable_by(|a, b| b.cmp(a));
    let mut out: Vec<(u8, u8)> = Vec::new();
    for p in v {
        if !out.iter().any(|q| q.0 >= p.0 && q.1 >= p.1) {
            out.push(p);
        }
    }
    out
}

fn pareto(mut v: Vec<(u8, u8, bool)>) -> Vec<(u8, u8, bool)> {
    v.sort_unstable_by(|a, b| b.cmp(a));
    let mut out: Vec<(u8, u8, bool)> = Vec::new();
    for p in v {
        if !out.iter().any(|q| q.0 >= p.0 && q.1 >= p.1 && q.2 >= p.2) {
            out.push(p);
        }
    }
    out
}
