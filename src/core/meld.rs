//! Meld shapes over a multiset of item counts, for tile and card games: sets (three alike) and
//! runs (three in sequence, only inside declared ranges), plus one pair. Answers whether the
//! counts split exactly into `groups` melds and a pair, whether they contain such a hand with
//! items left over, and how far along a sequence of draws one first appears. Shanten (how many
//! items away) is in `shanten`.

use super::shanten::Shanten;

/// Which kinds exist and where runs may form.
#[derive(Clone, Debug, PartialEq)]
pub struct Shapes {
    /// Number of item kinds (codes 0..kinds).
    pub kinds: usize,
    /// `run_from[k]`: a run k, k+1, k+2 is allowed.
    run_from: Vec<bool>,
}

impl Shapes {
    /// `runs` are inclusive code ranges inside which runs form (e.g. one suit 0..=8).
    pub fn new(kinds: usize, runs: &[(usize, usize)]) -> Shapes {
        let mut run_from = vec![false; kinds];
        for &(lo, hi) in runs {
            let hi = hi.min(kinds.saturating_sub(1));
            for slot in run_from.iter_mut().take(hi.saturating_sub(1)).skip(lo) {
                *slot = true;
            }
        }
        Shapes { kinds, run_from }
    }

    /// A run k, k+1, k+2 is allowed.
    pub fn runs_from(&self, k: usize) -> bool {
        self.run_from.get(k).copied().unwrap_or(false)
    }

    /// k and k+gap (gap 1 or 2) lie in one run range.
    pub fn links(&self, k: usize, gap: usize) -> bool {
        match gap {
            1 => (k + 1 < self.kinds) && (self.run_from[k] || (k > 0 && self.run_from[k - 1])),
            _ => self.run_from[k],
        }
    }

    /// The counts split into exactly `groups` melds and one pair, with nothing left over.
    pub fn complete(&self, counts: &[u8], groups: usize) -> bool {
        let total: usize = counts.iter().map(|c| *c as usize).sum();
        total == 3 * groups + 2 && self.contains(counts, groups)
    }

    /// The counts contain `groups` melds and one pair (other items may be left over).
    pub fn contains(&self, counts: &[u8], groups: usize) -> bool {
        let mut c = counts.to_vec();
        let left: usize = c.iter().map(|x| *x as usize).sum();
        self.find(&mut c, 0, groups, true, left)
    }

    fn find(&self, c: &mut [u8], mut i: usize, groups: usize, pair: bool, left: usize) -> bool {
        if groups == 0 && !pair {
            return true;
        }
        if left < 3 * groups + 2 * pair as usize {
            return false;
        }
        while i < c.len() && c[i] == 0 {
            i += 1;
        }
        if i == c.len() {
            return false;
        }
        if groups > 0 && c[i] >= 3 {
            c[i] -= 3;
            let found = self.find(c, i, groups - 1, pair, left - 3);
            c[i] += 3;
            if found {
                return true;
            }
        }
        if groups > 0 && self.run_from[i] && c[i + 1] > 0 && c[i + 2] > 0 {
            take_run(c, i);
            let found = self.find(c, i, groups - 1, pair, left - 3);
            put_run(c, i);
            if found {
                return true;
            }
        }
        if pair && c[i] >= 2 {
            c[i] -= 2;
            let found = self.find(c, i, groups, false, left - 2);
            c[i] += 2;
            if found {
                return true;
            }
        }
        let n = c[i];
        c[i] = 0;
        let found = self.find(c, i + 1, groups, pair, left - n as usize);
        c[i] = n;
        found
    }

    /// How far the counts are from a win along `draws` (taken in order): the number of draws
    /// after which they first contain a winning hand, or, when none does, `draws.len() + 1`
    /// plus the shanten left after them all (so hands still far away compare too). Monte
    /// Carlo bots pass a sample of the unseen items.
    pub fn distance(
        &self,
        counts: &[u8],
        draws: &[i64],
        groups: usize,
        shanten: &mut Shanten,
    ) -> usize {
        let mut c = counts.to_vec();
        for (k, code) in draws.iter().enumerate() {
            if let Some(n) = usize::try_from(*code).ok().and_then(|i| c.get_mut(i)) {
                *n = n.saturating_add(1);
                if self.contains(&c, groups) {
                    return k + 1;
                }
            }
        }
        draws.len() + 1 + shanten.of(self, &c, groups).max(0) as usize
    }
}

fn take_run(c: &mut [u8], i: usize) {
    c[i] -= 1;
    c[i + 1] -= 1;
    c[i + 2] -= 1;
}

fn put_run(c: &mut [u8], i: usize) {
    c[i] += 1;
    c[i + 1] += 1;
    c[i + 2] += 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::GameRng;

    /// The reference shanten: a search over every reading of the whole hand.
    trait Reference {
        fn shanten(&self, counts: &[u8], groups: usize) -> i32;
        fn explore(&self, c: &mut [u8], i: usize, groups: usize, p: &mut Partial, best: &mut i32);
    }

    impl Reference for Shapes {
        fn shanten(&self, counts: &[u8], groups: usize) -> i32 {
            let mut c = counts.to_vec();
            let mut best = 2 * groups as i32 + 1;
            let mut part = Partial::default();
            self.explore(&mut c, 0, groups, &mut part, &mut best);
            best
        }

        fn explore(
            &self,
            c: &mut [u8],
            mut i: usize,
            groups: usize,
            p: &mut Partial,
            best: &mut i32,
        ) {
            while i < c.len() && c[i] == 0 {
                i += 1;
            }
            if i == c.len() {
                *best = (*best).min(p.shanten(groups));
                return;
            }
            if p.shanten(groups) - remaining_gain(c, i, groups, p) >= *best {
                return;
            }
            let room = p.melds + p.partials < groups;
            if c[i] >= 3 && p.melds < groups {
                c[i] -= 3;
                p.melds += 1;
                self.explore(c, i, groups, p, best);
                p.melds -= 1;
                c[i] += 3;
            }
            if p.melds < groups && self.run_from[i] && c[i + 1] > 0 && c[i + 2] > 0 {
                take_run(c, i);
                p.melds += 1;
                self.explore(c, i, groups, p, best);
                p.melds -= 1;
                put_run(c, i);
            }
            if c[i] >= 2 {
                c[i] -= 2;
                if !p.pair {
                    p.pair = true;
                    self.explore(c, i, groups, p, best);
                    p.pair = false;
                }
                if room {
                    p.partials += 1;
                    self.explore(c, i, groups, p, best);
                    p.partials -= 1;
                }
                c[i] += 2;
            }
            for gap in [1, 2] {
                if room && i + gap < c.len() && self.links(i, gap) && c[i + gap] > 0 {
                    c[i] -= 1;
                    c[i + gap] -= 1;
                    p.partials += 1;
                    self.explore(c, i, groups, p, best);
                    p.partials -= 1;
                    c[i] += 1;
                    c[i + gap] += 1;
                }
            }
            let n = c[i];
            c[i] = 0;
            self.explore(c, i + 1, groups, p, best);
            c[i] = n;
        }
    }

    #[derive(Default)]
    struct Partial {
        melds: usize,
        partials: usize,
        pair: bool,
    }

    impl Partial {
        fn shanten(&self, groups: usize) -> i32 {
            let partials = self.partials.min(groups - self.melds);
            2 * (groups - self.melds) as i32 - partials as i32 - self.pair as i32
        }
    }

    /// An optimistic bound on how much the items from `i` on can still lower the shanten.
    fn remaining_gain(c: &[u8], i: usize, groups: usize, p: &Partial) -> i32 {
        let left: usize = c[i..].iter().map(|x| *x as usize).sum();
        let open = groups - p.melds.min(groups);
        // Each meld lowers by 2 (three items), a pair head by 1 (two items).
        let melds = (left / 3).min(open);
        let head = (!p.pair && left >= 2) as i32;
        (2 * melds) as i32 + head + (!left.is_multiple_of(3) as i32)
    }

    /// Tiles as the seed encodes them: 0–8 万, 9–17 条, 18–26 饼, 27–33 honours.
    fn mahjong() -> Shapes {
        Shapes::new(34, &[(0, 8), (9, 17), (18, 26)])
    }

    fn counts(codes: &[usize]) -> Vec<u8> {
        let mut c = vec![0u8; 34];
        for k in codes {
            c[*k] += 1;
        }
        c
    }

    #[test]
    fn runs_stay_inside_their_range() {
        let s = mahjong();
        // 8万 9万 1条 is not a run; 东南西 (27, 28, 29) never is.
        assert!(!s.complete(&counts(&[7, 8, 9, 0, 0]), 1));
        assert!(!s.complete(&counts(&[27, 28, 29, 0, 0]), 1));
        assert!(s.complete(&counts(&[6, 7, 8, 0, 0]), 1));
        assert!(s.complete(&counts(&[27, 27, 27, 0, 0]), 1));
    }

    #[test]
    fn standard_hands_and_near_misses() {
        let s = mahjong();
        let win = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 31, 31];
        assert!(s.complete(&counts(&win), 4));
        assert_eq!(s.shanten(&counts(&win), 4), -1);
        let ready = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 31];
        assert!(!s.complete(&counts(&ready), 4));
        assert_eq!(s.shanten(&counts(&ready), 4), 0);
        let miss = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 31, 32];
        assert!(!s.complete(&counts(&miss), 4));
        assert!(s.contains(
            &counts(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 31, 31, 20]),
            4
        ));
    }

    #[test]
    fn shanten_of_scattered_hands() {
        let s = mahjong();
        let mut fast = Shanten::new(&s);
        // 13 unconnected tiles: every meld still to build.
        let scattered = counts(&[0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30]);
        assert_eq!(s.shanten(&scattered, 4), 8);
        assert_eq!(fast.of(&s, &scattered, 4), 8);
        // One meld exposed: three groups to go with 10 tiles.
        let ten = counts(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 31]);
        assert_eq!(s.shanten(&ten, 3), 0);
        assert_eq!(fast.of(&s, &ten, 3), 0);
    }

    #[test]
    fn segmented_shanten_equals_the_whole_hand_search() {
        let s = mahjong();
        let mut fast = Shanten::new(&s);
        let seed = 20261130;
        println!("seed {seed}");
        let mut rng = GameRng::from_seed(seed);
        for n in 0..3000 {
            let size = [5, 8, 11, 13, 14, 17, 19][n % 7];
            let mut tiles: Vec<usize> = (0..136).map(|i| i / 4).collect();
            rng.shuffle(&mut tiles);
            // Every third hand from one suit and the honours: long runs and many sets.
            if n % 3 == 0 {
                tiles.retain(|t| *t < 9 || *t >= 27);
            }
            let c = counts(&tiles[..size]);
            let groups = 1 + rng.below(4) as usize;
            assert_eq!(
                fast.of(&s, &c, groups),
                s.shanten(&c, groups),
                "hand {n}: {:?}",
                &tiles[..size]
            );
        }
    }

    #[test]
    fn distance_counts_the_draws_to_a_win() {
        let s = mahjong();
        let ready = counts(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 31]);
        assert_eq!(s.distance(&ready, &[31], 4, &mut Shanten::new(&s)), 1);
        assert_eq!(
            s.distance(&ready, &[20, 22, 31, 24], 4, &mut Shanten::new(&s)),
            3
        );
        // Never complete: three draws, plus one more tile still missing.
        assert_eq!(
            s.distance(&ready, &[20, 22, 24], 4, &mut Shanten::new(&s)),
            4
        );
        let far = counts(&[0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30]);
        assert_eq!(s.distance(&far, &[33], 4, &mut Shanten::new(&s)), 2 + 8);
    }
}
