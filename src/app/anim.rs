//! Animations that follow events: a token walks the track space by space after a `Move`, the
//! dice tumble after a `Dice` event and then show the roll, and on a table of zones a tile
//! that joins a seat's pile (a discard, an exposed meld) slides there from that seat's hand.
//! Pure bookkeeping on a clock passed in (seconds); drawing reads positions from here, and
//! nothing waits for an animation.

use super::tableview::TableView;
use crate::core::event::Event;
use crate::core::world::World;
use crate::core::zone::Seen;
use crate::def::board::Board;

/// Seconds per space walked, and the longest walk.
const STEP: f64 = 0.12;
const LONGEST: f64 = 1.6;
/// Seconds the dice tumble.
const ROLL: f64 = 0.5;
/// Seconds a tile slides.
const SLIDE: f64 = 0.3;

/// A tile sliding into item `index` of `seat`'s pile in zone `zone`.
struct Slide {
    zone: usize,
    seat: usize,
    index: usize,
    start: f64,
}

struct Walk {
    from: usize,
    /// Spaces walked: forward, or back (negative) on a track that does not loop.
    steps: i64,
    start: f64,
}

/// The steps from space `from` to the space named `to`: on a loop, the next such space ahead;
/// on a track that does not loop, the nearest, ahead or back.
fn walk(board: &Board, from: usize, to: &str) -> Option<i64> {
    let n = board.spaces.len().max(1);
    if board.looped {
        let ahead = (1..=n).find(|k| board.spaces[(from + k) % n].name == to)?;
        return Some((ahead % n) as i64);
    }
    (board.spaces.iter().enumerate())
        .filter(|(_, s)| s.name == to)
        .map(|(i, _)| i as i64 - from as i64)
        .min_by_key(|d| (d.abs(), *d < 0))
}

/// The last roll as the window shows it now.
#[derive(Debug, PartialEq)]
pub struct Dice {
    pub faces: Vec<u32>,
    pub rolling: bool,
    /// Whose roll it was (none: the set-up's).
    pub seat: Option<usize>,
}

pub struct Anim {
    /// Where each seat's token ends up after the animations seen so far.
    target: Vec<usize>,
    walks: Vec<Option<Walk>>,
    /// The last roll, when it was made and whose it was.
    dice: Option<(Vec<u32>, f64, Option<usize>)>,
    /// The table as last seen, and the tiles sliding since.
    table: Option<TableView>,
    slides: Vec<Slide>,
    /// Screenshots and benchmarks settle every animation at once.
    pub instant: bool,
}

impl Anim {
    pub fn new(world: &World) -> Anim {
        Anim {
            target: world.board.tokens.clone(),
            walks: (0..world.seats).map(|_| None).collect(),
            dice: None,
            table: None,
            slides: Vec::new(),
            instant: false,
        }
    }

    /// Forgets running walks and slides and puts tokens where the world has them (after undo,
    /// reload).
    pub fn sync(&mut self, world: &World) {
        self.target = world.board.tokens.clone();
        self.walks = (0..world.seats).map(|_| None).collect();
        self.table = None;
        self.slides.clear();
    }

    /// A new look at the table: tiles that joined a seat's pile (past its first zone, the
    /// hand) since the last look start sliding at `now`.
    pub fn on_table(&mut self, view: &TableView, now: f64) {
        if let (Some(old), false) = (&self.table, self.instant) {
            for (zone, z) in view.seat_zones().skip(1) {
                for (seat, pile) in z.piles.iter().enumerate() {
                    let before = match old.zones.get(zone).and_then(|o| o.piles.get(seat)) {
                        Some(Seen::Items(items)) => items.len(),
                        _ => continue,
                    };
                    if let Seen::Items(items) = pile {
                        for index in before..items.len() {
                            self.slides.push(Slide {
                                zone,
                                seat,
                                index,
                                start: now,
                            });
                        }
                    }
                }
            }
        }
        self.slides.retain(|s| now - s.start < SLIDE);
        self.table = Some(view.clone());
    }

    /// How far a sliding tile has come (0 at the hand, 1 in place), if it is sliding.
    pub fn slide(&self, zone: usize, seat: usize, index: usize, now: f64) -> Option<f32> {
        self.slides
            .iter()
            .find(|s| (s.zone, s.seat, s.index) == (zone, seat, index))
            .map(|s| ((now - s.start) / SLIDE).clamp(0.0, 1.0) as f32)
            .filter(|t| *t < 1.0)
    }

    pub fn on_event(&mut self, e: &Event, board: &Board, now: f64) {
        match e {
            Event::Move { seat, to, .. } if *seat < self.target.len() => {
                let n = board.spaces.len().max(1);
                let from = self.position(*seat, now).floor() as usize % n;
                // The event names the space: of spaces sharing a name, the one `walk` finds.
                let Some(steps) = walk(board, from, to) else {
                    return;
                };
                let to = (from as i64 + steps).rem_euclid(n as i64) as usize;
                self.target[*seat] = to;
                self.walks[*seat] = (!self.instant && steps != 0).then_some(Walk {
                    from,
                    steps,
                    start: now,
                });
            }
            Event::Dice { values, seat, .. } => {
                let start = if self.instant { now - ROLL } else { now };
                self.dice = Some((values.clone(), start, *seat));
            }
            _ => {}
        }
    }

    /// Puts tokens the events did not place where the world has them.
    pub fn settle(&mut self, world: &World) {
        for (seat, at) in world.board.tokens.iter().enumerate() {
            if self.target.get(seat) != Some(at) {
                self.target[seat] = *at;
                self.walks[seat] = None;
            }
        }
    }

    /// A seat's token as a fractional space index (3.5: halfway from space 3 to space 4).
    pub fn position(&self, seat: usize, now: f64) -> f64 {
        let target = self.target.get(seat).copied().unwrap_or(0) as f64;
        match self.walks.get(seat).and_then(|w| w.as_ref()) {
            Some(w) => {
                let total = (w.steps.abs() as f64 * STEP).min(LONGEST);
                let t = ((now - w.start) / total).clamp(0.0, 1.0);
                if t >= 1.0 {
                    target
                } else {
                    w.from as f64 + t * w.steps as f64
                }
            }
            None => target,
        }
    }

    /// The dice to show: their faces, whether they are still tumbling (then the faces shown
    /// are made up from the clock) and whose roll it is.
    pub fn dice(&self, now: f64) -> Option<Dice> {
        let (values, start, seat) = self.dice.as_ref()?;
        let rolling = now - start < ROLL;
        let tick = ((now - start) * 20.0) as u32;
        let faces = match rolling {
            true => (0..values.len() as u32)
                .map(|i| (tick * 7 + i * 3) % 6 + 1)
                .collect(),
            false => values.clone(),
        };
        Some(Dice {
            faces,
            rolling,
            seat: *seat,
        })
    }

    /// Whether anything still moves (bots wait for it before their next move).
    pub fn busy(&self, now: f64) -> bool {
        let walking = self
            .walks
            .iter()
            .flatten()
            .any(|w| now - w.start < (w.steps.abs() as f64 * STEP).min(LONGEST));
        let rolling = self.dice.as_ref().is_some_and(|(_, s, _)| now - s < ROLL);
        let sliding = self.slides.iter().any(|s| now - s.start < SLIDE);
        walking || rolling || sliding
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::world::World;

    fn board(n: usize) -> Board {
        let space = |i: usize| crate::def::board::Space {
            id: format!("s{i}"),
            name: format!("S{i}"),
            kind: "go".into(),
            group: None,
            jump: None,
            data: Default::default(),
        };
        Board {
            id: "b".into(),
            name: "B".into(),
            path: "b.toml".into(),
            spaces: (0..n).map(space).collect(),
            decks: Vec::new(),
            settings: Default::default(),
            grid: None,
            kind: "track".into(),
            looped: true,
        }
    }

    /// P1's token moved to the space named `to`.
    fn moved(to: &str) -> Event {
        Event::Move {
            seat: 0,
            to: to.into(),
            laps: 0,
        }
    }

    #[test]
    fn a_token_walks_forward_around_the_corner() {
        let b = board(10);
        let mut a = Anim::new(&World::new(2, 0, 10, 1));
        a.on_event(&moved("S8"), &b, 0.0);
        assert_eq!(a.position(0, 0.0), 0.0);
        assert!(a.busy(0.5));
        assert_eq!(a.position(0, 10.0), 8.0);
        a.on_event(&moved("S2"), &b, 10.0);
        let mid = a.position(0, 10.0 + 2.0 * STEP);
        assert!((mid - 10.0).abs() < 1e-6, "passes the start: {mid}");
        assert!(!a.busy(20.0));
    }

    /// On a track that does not loop, a token sent back walks back, not round.
    #[test]
    fn a_token_walks_back_on_a_line() {
        let b = Board {
            looped: false,
            ..board(10)
        };
        let mut a = Anim::new(&World::new(2, 0, 10, 1));
        a.on_event(&moved("S8"), &b, 0.0);
        a.on_event(&moved("S5"), &b, 10.0);
        let mid = a.position(0, 10.0 + STEP);
        assert!((mid - 7.0).abs() < 1e-6, "one step back: {mid}");
        assert_eq!(a.position(0, 20.0), 5.0);
    }

    #[test]
    fn dice_tumble_then_show_the_roll() {
        let b = board(4);
        let mut a = Anim::new(&World::new(2, 0, 4, 1));
        let roll = Event::Dice {
            seat: Some(0),
            spec: "2d6".into(),
            values: vec![3, 5],
            total: 8,
        };
        a.on_event(&roll, &b, 1.0);
        assert!(a.dice(1.1).unwrap().rolling);
        let shown = Dice {
            faces: vec![3, 5],
            rolling: false,
            seat: Some(0),
        };
        assert_eq!(a.dice(2.0), Some(shown));
    }

    fn table(discards: Vec<i64>) -> TableView {
        let zone = |name: &str, piles: Vec<Seen>| crate::app::tableview::ZoneView {
            name: name.into(),
            per_seat: true,
            melds: false,
            piles,
        };
        TableView {
            viewer: Some(0),
            seats: 2,
            zones: vec![
                zone(
                    "hand",
                    vec![Seen::Items(vec![1, 2]), Seen::Count { count: 13 }],
                ),
                zone("discards", vec![Seen::Items(discards), Seen::Items(vec![])]),
            ],
            names: Vec::new(),
            shapes: None,
        }
    }

    #[test]
    fn a_tile_that_joins_a_pile_slides_in_and_lands() {
        let mut a = Anim::new(&World::new(2, 0, 0, 1));
        a.on_table(&table(vec![5]), 0.0);
        assert_eq!(a.slide(1, 0, 0, 0.0), None, "the first look starts nothing");
        a.on_table(&table(vec![5, 7]), 1.0);
        assert_eq!(a.slide(1, 0, 0, 1.1), None, "the old discard stays put");
        let k = a.slide(1, 0, 1, 1.15).expect("the new discard slides");
        assert!((k - 0.5).abs() < 0.01, "{k}");
        assert!(a.busy(1.15));
        assert_eq!(a.slide(1, 0, 1, 1.3), None, "landed");
        assert!(!a.busy(1.3));
    }
}
