//! The one seeded generator of a game: PCG-XSL-RR 128/64 (`Pcg64`), whose output is fixed by
//! its published spec. Ranges and shuffles are written here on top of its raw 64-bit output so
//! that no dependency upgrade can change a replay.

use rand_core::Rng as _;
use rand_pcg::Pcg64;
use serde::de::{value::MapDeserializer, Error as _};
use serde::{Deserialize, Deserializer, Serialize};

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameRng(Pcg64);

/// A generator read from a file is checked: PCG's increment must be odd, or the generator
/// stops going through its states (an even one can repeat one output for ever).
impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            state: u128,
            increment: u128,
        }
        let raw = Raw::deserialize(d)?;
        if raw.increment % 2 == 0 {
            return Err(D::Error::custom(format!(
                "the generator's increment must be odd, not {}",
                raw.increment
            )));
        }
        let fields = [("state", raw.state), ("increment", raw.increment)];
        let pcg = Pcg64::deserialize(MapDeserializer::<_, D::Error>::new(fields.into_iter()))?;
        Ok(GameRng(pcg))
    }
}

const STREAM: u128 = 0xa02b_dbf7_bb3c_0a7a_c28f_a16a_64ab_f96d;

/// SplitMix64 step: spreads a small seed over all bits.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl GameRng {
    pub fn from_seed(seed: u64) -> Self {
        let hi = splitmix64(seed);
        let lo = splitmix64(hi);
        GameRng(Pcg64::new(((hi as u128) << 64) | lo as u128, STREAM))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform integer in `0..n` (Lemire's multiply-and-reject; `n > 0`). The rejection
    /// threshold (a division) is below `n`, so it is worked out only for a low part under `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// Uniform integer in `lo..=hi`; `lo <= hi`. The whole range of `i64` is one raw output.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        match u64::try_from(hi as i128 - lo as i128 + 1) {
            Ok(span) => lo.wrapping_add(self.below(span) as i64),
            Err(_) => self.next_u64() as i64,
        }
    }

    /// Fisher–Yates, from the back.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `k` of `items` (all when there are fewer) in random order: a partial Fisher–Yates from
    /// the front, drawing `k` numbers.
    pub fn sample<T>(&mut self, mut items: Vec<T>, k: usize) -> Vec<T> {
        let k = k.min(items.len());
        for i in 0..k {
            let j = i + self.below((items.len() - i) as u64) as usize;
            items.swap(i, j);
        }
        items.truncate(k);
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_pinned() {
        // A change here breaks every saved replay: never update without a format bump.
        let mut r = GameRng::from_seed(1);
        let first: Vec<u64> = (0..3).map(|_| r.below(6) + 1).collect();
        assert_eq!(first, vec![2, 3, 4]);
        assert_eq!(GameRng::from_seed(1).next_u64(), 5144466543414083770);
    }

    #[test]
    fn range_is_inclusive_and_bounded() {
        let mut r = GameRng::from_seed(7);
        let mut seen = [false; 6];
        for _ in 0..1000 {
            let v = r.range(1, 6);
            assert!((1..=6).contains(&v));
            seen[(v - 1) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn the_widest_ranges_stay_inside_their_bounds() {
        let mut r = GameRng::from_seed(11);
        for _ in 0..100 {
            r.range(i64::MIN, i64::MAX);
            assert!(r.range(i64::MIN, i64::MIN + 1) <= i64::MIN + 1);
            assert!(r.range(i64::MAX - 1, i64::MAX) >= i64::MAX - 1);
            assert!(r.range(-1, i64::MAX) >= -1);
        }
        assert_eq!(r.range(i64::MAX, i64::MAX), i64::MAX);
    }

    #[test]
    fn a_generator_reads_back_exactly_and_an_even_increment_is_refused() {
        let mut r = GameRng::from_seed(5);
        r.next_u64();
        let text = serde_json::to_string(&r).unwrap();
        let mut back: GameRng = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.next_u64(), r.next_u64());
        let err = serde_json::from_str::<GameRng>(r#"{"state": 0, "increment": 0}"#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the generator's increment must be odd, not 0"),
            "{err}"
        );
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = GameRng::from_seed(3);
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
