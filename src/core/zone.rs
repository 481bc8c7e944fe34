//! Zones: named piles of items (tile or card codes) that a game declares once with a
//! visibility. From that one declaration the runtime derives what each seat may see, and how a
//! bot's determinizer re-deals everything its seat cannot see.

use super::rng::GameRng;
use serde::{Deserialize, Serialize};

/// Who sees what of a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Everyone sees the items (discards, exposed melds).
    Public,
    /// The owner sees the items; others see nothing, not even how many.
    Owner,
    /// The owner sees the items; others see how many (a hand held face down).
    Count,
    /// Nobody sees the items; everyone sees how many (the wall, a draw pile).
    Hidden,
}

impl Visibility {
    pub const NAMES: &'static [&'static str] = &["public", "owner", "count", "hidden"];

    pub fn parse(text: &str) -> Option<Visibility> {
        match text {
            "public" => Some(Visibility::Public),
            "owner" => Some(Visibility::Owner),
            "count" => Some(Visibility::Count),
            "hidden" => Some(Visibility::Hidden),
            _ => None,
        }
    }
}

/// A declared zone: one pile, or one pile per seat.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneSpec {
    pub name: String,
    pub visibility: Visibility,
    pub per_seat: bool,
    /// The window shows the pile split into melds (`layout = "melds"`).
    pub melds: bool,
}

/// What a seat may know of one pile.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Seen {
    Items(Vec<i64>),
    Count { count: usize },
    Nothing {},
}

impl ZoneSpec {
    /// Number of piles: one per seat or one in all.
    pub fn piles(&self, seats: usize) -> usize {
        if self.per_seat {
            seats
        } else {
            1
        }
    }

    /// Whether `viewer` (None: an observer who sees only public things) sees the items of
    /// pile `pile`.
    pub fn shows_items(&self, pile: usize, viewer: Option<usize>) -> bool {
        match self.visibility {
            Visibility::Public => true,
            Visibility::Owner | Visibility::Count => self.per_seat && viewer == Some(pile),
            Visibility::Hidden => false,
        }
    }

    /// What `viewer` sees of `items`, the content of pile `pile`.
    pub fn seen(&self, pile: usize, items: &[i64], viewer: Option<usize>) -> Seen {
        if self.shows_items(pile, viewer) {
            Seen::Items(items.to_vec())
        } else if self.visibility == Visibility::Owner {
            Seen::Nothing {}
        } else {
            Seen::Count { count: items.len() }
        }
    }
}

/// `zones[zone][pile]` are the items of each pile, in order (the last is the top).
pub type ZoneState = Vec<Vec<Vec<i64>>>;

/// Empty piles for the declared zones.
pub fn empty(specs: &[ZoneSpec], seats: usize) -> ZoneState {
    specs
        .iter()
        .map(|z| vec![Vec::new(); z.piles(seats)])
        .collect()
}

/// Re-deals every item `viewer` cannot see among the piles it cannot see, keeping each pile's
/// size. The items are sorted before the shuffle, so the result depends only on what the seat
/// knows (the multiset of unseen items and the pile sizes), never on the true arrangement.
pub fn determinize(
    specs: &[ZoneSpec],
    zones: &mut ZoneState,
    viewer: Option<usize>,
    rng: &mut GameRng,
) {
    let unseen = |z: usize, p: usize| !specs[z].shows_items(p, viewer);
    let mut pool = Vec::new();
    for (z, piles) in zones.iter().enumerate() {
        for (p, items) in piles.iter().enumerate() {
            if unseen(z, p) {
                pool.extend_from_slice(items);
            }
        }
    }
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    let mut deal = pool.into_iter();
    for (z, piles) in zones.iter_mut().enumerate() {
        for (p, items) in piles.iter_mut().enumerate() {
            if unseen(z, p) {
                for slot in items.iter_mut() {
                    *slot = deal.next().expect("as many items as slots");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<ZoneSpec> {
        let z = |name: &str, visibility, per_seat| ZoneSpec {
            name: name.into(),
            visibility,
            per_seat,
            melds: false,
        };
        vec![
            z("wall", Visibility::Hidden, false),
            z("hand", Visibility::Count, true),
            z("discards", Visibility::Public, true),
        ]
    }

    #[test]
    fn each_visibility_shows_what_it_says() {
        let s = specs();
        assert_eq!(s[0].seen(0, &[1, 2], Some(0)), Seen::Count { count: 2 });
        assert_eq!(s[1].seen(1, &[5], Some(1)), Seen::Items(vec![5]));
        assert_eq!(s[1].seen(1, &[5], Some(0)), Seen::Count { count: 1 });
        assert_eq!(s[1].seen(1, &[5], None), Seen::Count { count: 1 });
        assert_eq!(s[2].seen(0, &[7], Some(1)), Seen::Items(vec![7]));
        let owner = ZoneSpec {
            visibility: Visibility::Owner,
            ..s[1].clone()
        };
        assert_eq!(owner.seen(0, &[5], Some(1)), Seen::Nothing {});
    }

    #[test]
    fn determinizing_keeps_what_the_seat_sees_and_hides_the_truth() {
        let s = specs();
        let truth: ZoneState = vec![
            vec![vec![1, 2, 3, 4]],
            vec![vec![10, 11], vec![20, 21]],
            vec![vec![30], vec![31]],
        ];
        // Same unseen multiset, another arrangement: the seat cannot tell them apart.
        let other: ZoneState = vec![
            vec![vec![21, 4, 20, 2]],
            vec![vec![10, 11], vec![1, 3]],
            vec![vec![30], vec![31]],
        ];
        let (mut a, mut b) = (truth.clone(), other);
        determinize(&s, &mut a, Some(0), &mut GameRng::from_seed(9));
        determinize(&s, &mut b, Some(0), &mut GameRng::from_seed(9));
        assert_eq!(a, b);
        assert_eq!(a[1][0], vec![10, 11], "own hand kept");
        assert_eq!(a[2], truth[2], "public piles kept");
        let mut unseen: Vec<i64> = a[0][0].iter().chain(&a[1][1]).copied().collect();
        unseen.sort();
        assert_eq!(unseen, vec![1, 2, 3, 4, 20, 21]);
        assert_eq!((a[0][0].len(), a[1][1].len()), (4, 2));
    }
}
