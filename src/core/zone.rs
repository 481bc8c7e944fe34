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
    /// Everyone sees the top item; the rest only by how many (a discard pile).
    Top,
}

impl Visibility {
    pub const NAMES: &'static [&'static str] = &["public", "owner", "count", "hidden", "top"];

    pub fn parse(text: &str) -> Option<Visibility> {
        match text {
            "public" => Some(Visibility::Public),
            "owner" => Some(Visibility::Owner),
            "count" => Some(Visibility::Count),
            "hidden" => Some(Visibility::Hidden),
            "top" => Some(Visibility::Top),
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
    Count {
        count: usize,
    },
    /// The top item (none in an empty pile) and how many items the pile holds.
    Top {
        top: Option<i64>,
        count: usize,
    },
    Nothing {},
}

/// The items of `want` that `have` lacks, a value named twice needing two copies there.
pub fn missing<T: PartialEq + Clone>(have: &[T], want: &[T]) -> Vec<T> {
    let mut left = have.to_vec();
    (want.iter())
        .filter(|w| match left.iter().position(|h| h == *w) {
            Some(at) => {
                left.swap_remove(at);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
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

    /// Whether `viewer` (None: an observer who sees only public things) sees every item of
    /// pile `pile`, whatever it holds.
    pub fn shows_items(&self, pile: usize, viewer: Option<usize>) -> bool {
        match self.visibility {
            Visibility::Public => true,
            Visibility::Owner | Visibility::Count => self.per_seat && viewer == Some(pile),
            Visibility::Hidden | Visibility::Top => false,
        }
    }

    /// How many of the `len` items of pile `pile`, counted from the bottom, `viewer` does not
    /// see: all or none, but for a top-only pile, whose top item alone is seen.
    pub fn unseen(&self, pile: usize, len: usize, viewer: Option<usize>) -> usize {
        match self.visibility {
            Visibility::Top => len.saturating_sub(1),
            _ if self.shows_items(pile, viewer) => 0,
            _ => len,
        }
    }

    /// What `viewer` sees of `items`, the content of pile `pile`.
    pub fn seen(&self, pile: usize, items: &[i64], viewer: Option<usize>) -> Seen {
        match self.visibility {
            _ if self.shows_items(pile, viewer) => Seen::Items(items.to_vec()),
            Visibility::Top => Seen::Top {
                top: items.last().copied(),
                count: items.len(),
            },
            Visibility::Owner => Seen::Nothing {},
            _ => Seen::Count { count: items.len() },
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

/// Re-deals every item `viewer` cannot see among the places it cannot see (whole piles, or
/// all but the top of a top-only pile), keeping each pile's size. The items are sorted before the shuffle, so the result depends only on what the seat
/// knows (the multiset of unseen items and the pile sizes), never on the true arrangement.
pub fn determinize(
    specs: &[ZoneSpec],
    zones: &mut ZoneState,
    viewer: Option<usize>,
    rng: &mut GameRng,
) {
    let unseen = |z: usize, p: usize, len: usize| specs[z].unseen(p, len, viewer);
    let mut pool = Vec::new();
    for (z, piles) in zones.iter().enumerate() {
        for (p, items) in piles.iter().enumerate() {
            pool.extend_from_slice(&items[..unseen(z, p, items.len())]);
        }
    }
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    let mut deal = pool.into_iter();
    for (z, piles) in zones.iter_mut().enumerate() {
        for (p, items) in piles.iter_mut().enumerate() {
            let n = unseen(z, p, items.len());
            for slot in items[..n].iter_mut() {
                *slot = deal.next().expect("as many items as slots");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_counts_copies() {
        assert_eq!(missing(&[1, 2, 1], &[1, 1, 2]), Vec::<i64>::new());
        assert_eq!(missing(&[1, 2], &[1, 1, 3]), vec![1, 3]);
        assert_eq!(missing::<i64>(&[], &[]), Vec::<i64>::new());
    }

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
            z("pile", Visibility::Top, false),
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
        let top = Seen::Top {
            top: Some(9),
            count: 3,
        };
        assert_eq!(s[3].seen(0, &[7, 8, 9], Some(0)), top);
        assert_eq!(s[3].seen(0, &[7, 8, 9], None), top);
        let empty = Seen::Top {
            top: None,
            count: 0,
        };
        assert_eq!(s[3].seen(0, &[], Some(1)), empty);
    }

    #[test]
    fn determinizing_keeps_what_the_seat_sees_and_hides_the_truth() {
        let s = specs();
        let truth: ZoneState = vec![
            vec![vec![1, 2, 3, 4]],
            vec![vec![10, 11], vec![20, 21]],
            vec![vec![30], vec![31]],
            vec![vec![40, 41, 42]],
        ];
        // Same unseen multiset, another arrangement: the seat cannot tell them apart.
        let other: ZoneState = vec![
            vec![vec![21, 4, 20, 2]],
            vec![vec![10, 11], vec![1, 3]],
            vec![vec![30], vec![31]],
            vec![vec![41, 40, 42]],
        ];
        let (mut a, mut b) = (truth.clone(), other);
        determinize(&s, &mut a, Some(0), &mut GameRng::from_seed(9));
        determinize(&s, &mut b, Some(0), &mut GameRng::from_seed(9));
        assert_eq!(a, b);
        assert_eq!(a[1][0], vec![10, 11], "own hand kept");
        assert_eq!(a[2], truth[2], "public piles kept");
        assert_eq!(a[3][0][2], 42, "the top of a top-only pile kept");
        let mut unseen: Vec<i64> = (a[0][0].iter().chain(&a[1][1]).chain(&a[3][0][..2]))
            .copied()
            .collect();
        unseen.sort();
        assert_eq!(unseen, vec![1, 2, 3, 4, 20, 21, 40, 41]);
        assert_eq!((a[0][0].len(), a[1][1].len()), (4, 2));
    }
}
