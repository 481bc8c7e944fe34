//! Where a table of zones puts things, as pure arithmetic (tests compute where a tile must
//! appear): each seat gets an area along one side of the board square, the viewing seat at
//! the bottom and the others around the table in turn order; an area is split into one band
//! per per-seat zone, outermost first; tiles are laid in lines along a band, wrapping.

use super::layout::Rect;
use super::tableview::{TableView, ZoneView};
use crate::core::laid;
use crate::core::zone::Seen;

/// Which edge of the table a seat sits at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Bottom,
    Right,
    Top,
    Left,
}

impl Side {
    fn across(self) -> bool {
        matches!(self, Side::Bottom | Side::Top)
    }
}

/// Space between two melds of a pile, as a share of a tile's width.
const MELD_GAP: f32 = 0.45;

/// A tile is this many times as tall as it is wide.
pub const TILE_ASPECT: f32 = 1.35;
/// Space between tiles, as a share of a tile's width.
const GAP: f32 = 0.06;

/// The sides seats sit at, by turn order from the bottom seat.
pub fn sides(seats: usize) -> Vec<Side> {
    match seats {
        0 | 1 => vec![Side::Bottom],
        2 => vec![Side::Bottom, Side::Top],
        3 => vec![Side::Bottom, Side::Right, Side::Left],
        _ => vec![Side::Bottom, Side::Right, Side::Top, Side::Left],
    }
}

/// The table: one area per seat (indexed by seat) and the centre for shared zones.
#[derive(Clone, Debug, PartialEq)]
pub struct TableGeom {
    pub areas: Vec<(Side, Rect)>,
    pub center: Rect,
}

impl TableGeom {
    /// `bottom` is the seat shown at the bottom (the viewer); the rest follow in turn order.
    pub fn new(board: Rect, seats: usize, bottom: usize) -> TableGeom {
        let s = board.w;
        let (near, far, side) = (0.3 * s, 0.22 * s, 0.3 * s);
        let order = sides(seats);
        let has = |x: Side| order.contains(&x);
        let top_h = if has(Side::Top) { far } else { 0.0 };
        let mid = Rect::new(board.x, board.y + top_h, s, s - near - top_h);
        let rect = |x: Side| match x {
            Side::Bottom => Rect::new(board.x, board.y + s - near, s, near),
            Side::Top => Rect::new(board.x, board.y, s, far),
            Side::Left => Rect::new(board.x, mid.y, side, mid.h),
            Side::Right => Rect::new(board.x + s - side, mid.y, side, mid.h),
        };
        // Seats past the fourth share the last side.
        let areas = (0..seats)
            .map(|seat| {
                let offset = (seat + seats - bottom % seats) % seats;
                let x = order[offset.min(order.len() - 1)];
                (x, rect(x))
            })
            .collect();
        let left = if has(Side::Left) { side } else { 0.0 };
        let right = if has(Side::Right) { side } else { 0.0 };
        let center = Rect::new(mid.x + left, mid.y, s - left - right, mid.h);
        TableGeom {
            areas,
            center: center.inset(0.02 * s),
        }
    }

    /// Band `k` of `bands` in `seat`'s area, counted from the table's edge inwards.
    pub fn band(&self, seat: usize, k: usize, bands: usize) -> Rect {
        let (side, a) = self.areas[seat];
        let n = bands.max(1) as f32;
        let pad = 0.04 * a.w.min(a.h);
        match side {
            Side::Bottom => {
                let h = a.h / n;
                Rect::new(a.x, a.y + a.h - h * (k as f32 + 1.0), a.w, h).inset(pad)
            }
            Side::Top => {
                let h = a.h / n;
                Rect::new(a.x, a.y + h * k as f32, a.w, h).inset(pad)
            }
            Side::Left => {
                let w = a.w / n;
                Rect::new(a.x + w * k as f32, a.y, w, a.h).inset(pad)
            }
            Side::Right => {
                let w = a.w / n;
                Rect::new(a.x + a.w - w * (k as f32 + 1.0), a.y, w, a.h).inset(pad)
            }
        }
    }
}

/// How tiles line up in `band` at `side`: whether lines run across (bottom, top), the band's
/// length along a line and its thickness, and what a tile takes of each in tile widths (along
/// a line its width across or its height at the sides, plus the gap).
fn axes(band: Rect, side: Side) -> (bool, f32, f32, f32, f32) {
    match side.across() {
        true => (true, band.w, band.h, 1.0 + GAP, TILE_ASPECT),
        false => (false, band.h, band.w, TILE_ASPECT + GAP, 1.0),
    }
}

/// Rectangles of `n` upright tiles in `band`, as large as fit: in lines along the band
/// (left to right at the bottom and top, top to bottom at the sides), wrapping onto up to
/// four lines. Tiles are never wider than `max_w`.
pub fn tiles(band: Rect, side: Side, n: usize, max_w: f32) -> Vec<Rect> {
    if n == 0 {
        return Vec::new();
    }
    let (across, long, thick, along_k, thick_k) = axes(band, side);
    let (w, lines) = (1..=4)
        .map(|lines| {
            let per = n.div_ceil(lines) as f32;
            let w = (long / (per * along_k)).min(thick / (lines as f32 * thick_k * (1.0 + GAP)));
            (w.min(max_w), lines)
        })
        .fold(
            (0.0, 1),
            |best, c| if c.0 > best.0 + 0.01 { c } else { best },
        );
    let per = n.div_ceil(lines);
    let h = w * TILE_ASPECT;
    let (step_along, step_line) = if across {
        (w * (1.0 + GAP), h * (1.0 + GAP))
    } else {
        (h + w * GAP, w * (1.0 + GAP))
    };
    (0..n)
        .map(|i| {
            let (line, k) = ((i / per) as f32, (i % per) as f32);
            if across {
                Rect::new(band.x + k * step_along, band.y + line * step_line, w, h)
            } else {
                Rect::new(
                    line_x(band, side, line * step_line, w),
                    band.y + k * step_along,
                    w,
                    h,
                )
            }
        })
        .collect()
}

/// Where a line of tiles `w` wide stands across a side band, `at` from the table's edge: the
/// left seat's lines start at the band's left, the right seat's at its right.
fn line_x(band: Rect, side: Side, at: f32, w: f32) -> f32 {
    match side {
        Side::Right => band.x + band.w - w - at,
        _ => band.x + at,
    }
}

/// Rectangles of upright tiles in `band` for a pile shown in groups (`groups[i]` tiles each,
/// in order), with a gap between groups: in lines along the band as `tiles` lays them, a group
/// kept on one line where it fits, the tiles as large as fit in up to four lines.
pub fn grouped_tiles(band: Rect, side: Side, groups: &[usize], max_w: f32) -> Vec<Rect> {
    let n: usize = groups.iter().sum();
    if groups.len() < 2 || band.w <= 0.0 || band.h <= 0.0 {
        return tiles(band, side, n, max_w);
    }
    let (across, long, thick, along_k, thick_k) = axes(band, side);
    // The largest width whose greedy laying takes no more lines than the thickness holds.
    let units = n as f32 * along_k + (groups.len() - 1) as f32 * MELD_GAP;
    let mut best: Option<(f32, Vec<(usize, f32)>)> = None;
    for lines in 1..=4 {
        let fit_thick = thick / (lines as f32 * thick_k * (1.0 + GAP));
        let mut w = (long * lines as f32 / units).min(fit_thick).min(max_w);
        // Each try shrinks the tiles by 5%; fifty tries leave a tenth of the width.
        let fitted = (0..50).find_map(|_| {
            let slots = lay_groups(groups, long, w, along_k, lines);
            if slots.is_none() {
                w *= 0.95;
            }
            slots
        });
        let Some(slots) = fitted else { continue };
        if best.as_ref().is_none_or(|b| w > b.0 + 0.01) {
            best = Some((w, slots));
        }
    }
    let Some((w, slots)) = best else {
        return tiles(band, side, n, max_w);
    };
    let h = w * TILE_ASPECT;
    let step_line = if across {
        h * (1.0 + GAP)
    } else {
        w * (1.0 + GAP)
    };
    (slots.into_iter())
        .map(|(line, a)| {
            let l = line as f32 * step_line;
            match across {
                true => Rect::new(band.x + a, band.y + l, w, h),
                false => Rect::new(line_x(band, side, l, w), band.y + a, w, h),
            }
        })
        .collect()
}

/// Each tile's line and its offset along it when groups are laid greedily along lines `long`
/// long with tiles `w` wide, a group starting a new line when it does not fit the rest of one
/// (and breaking only when longer than a line); `None` when that takes more than `lines` lines.
fn lay_groups(
    groups: &[usize],
    long: f32,
    w: f32,
    along_k: f32,
    lines: usize,
) -> Option<Vec<(usize, f32)>> {
    let (tile, gap) = (along_k * w, MELD_GAP * w);
    let (mut line, mut at, mut out) = (0, 0.0, Vec::new());
    for &size in groups {
        let start = if at > 0.0 { at + gap } else { 0.0 };
        if at > 0.0 && start + size as f32 * tile > long + 0.01 {
            line += 1;
            at = 0.0;
        } else {
            at = start;
        }
        for _ in 0..size {
            if at > 0.0 && at + tile > long + 0.01 {
                line += 1;
                at = 0.0;
            }
            out.push((line, at));
            at += tile;
        }
    }
    (line < lines).then_some(out)
}

/// One tile on the table: where it lies, and its code when face up.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub zone: usize,
    /// The owning seat (for a shared zone, 0).
    pub seat: usize,
    pub index: usize,
    pub rect: Rect,
    pub face: Option<i64>,
}

/// The melds of a face-up pile in a zone laid out as melds, when it splits into them.
fn melds_of(t: &TableView, z: &ZoneView, pile: &Seen) -> Option<Vec<Vec<usize>>> {
    match (z.melds, &t.shapes, pile) {
        (true, Some(shapes), Seen::Items(items)) => laid::split(shapes, items),
        _ => None,
    }
}

/// A shared zone in the table's centre: its band, and what lies there.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub zone: usize,
    pub band: Rect,
    pub pile: Seen,
}

/// Every tile of the per-seat zones as the view shows them (face up, or face down for a pile
/// seen only by its count), and the bands of the shared zones in the centre; `geom` is the
/// view's seating on `board`, `bands` its count of per-seat zones.
pub fn placed(
    board: Rect,
    geom: &TableGeom,
    bands: usize,
    t: &TableView,
) -> (Vec<Placed>, Vec<Shared>) {
    let mut out = Vec::new();
    for (k, (zone, z)) in t.seat_zones().enumerate() {
        for (seat, pile) in z.piles.iter().enumerate().take(geom.areas.len()) {
            let (side, _) = geom.areas[seat];
            let faces: Vec<Option<i64>> = match pile {
                Seen::Items(items) => items.iter().map(|c| Some(*c)).collect(),
                Seen::Count { count } => vec![None; *count],
                Seen::Top { top, count } => {
                    let mut faces = vec![None; count.saturating_sub(1)];
                    faces.extend(top.map(Some));
                    faces
                }
                Seen::Nothing {} => Vec::new(),
            };
            let max_w = board.w / if side == Side::Bottom { 15.0 } else { 24.0 };
            let band = geom.band(seat, k, bands);
            // The pile's indices in the order shown, and the sizes of its groups.
            let (order, groups) = match melds_of(t, z, pile) {
                Some(melds) => (melds.concat(), melds.iter().map(Vec::len).collect()),
                None => ((0..faces.len()).collect(), vec![faces.len()]),
            };
            let rects = grouped_tiles(band, side, &groups, max_w);
            for (index, rect) in order.into_iter().zip(rects) {
                out.push(Placed {
                    zone,
                    seat,
                    index,
                    rect,
                    face: faces[index],
                });
            }
        }
    }
    let shared: Vec<(usize, &ZoneView)> = t
        .zones
        .iter()
        .enumerate()
        .filter(|(_, z)| !z.per_seat)
        .collect();
    let c = geom.center;
    let h = c.h / shared.len().max(1) as f32;
    let centre = shared
        .iter()
        .enumerate()
        .map(|(k, (zone, z))| Shared {
            zone: *zone,
            band: Rect::new(c.x, c.y + h * k as f32, c.w, h),
            pile: z.piles.first().cloned().unwrap_or(Seen::Nothing {}),
        })
        .collect();
    (out, centre)
}

/// Where a face-up shared pile of `n` items is drawn in its `band`: its name on a line at
/// the top, and its items below, each `tile_w` wide at most (smaller and on more lines when
/// many), centred across the band clear of the seats' chips at its ends.
pub fn shared_tiles(band: Rect, n: usize, tile_w: f32) -> (Rect, Vec<Rect>) {
    let pad = band.h * 0.06;
    let line = tile_w * 0.6;
    let side = tile_w * 1.2;
    let rest = Rect::new(
        band.x + side,
        band.y + line + 2.0 * pad,
        band.w - 2.0 * side,
        band.h - line - 3.0 * pad,
    );
    let mut rects = tiles(rest, Side::Bottom, n, tile_w);
    let right = rects.iter().map(|r| r.x + r.w).fold(rest.x, f32::max);
    let shift = (rest.x + rest.w - right) / 2.0;
    rects.iter_mut().for_each(|r| r.x += shift);
    let left = rects.first().map_or(rest.x, |r| r.x);
    let name = Rect::new(left, band.y + pad, rest.w, line);
    (name, rects)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Rect {
        Rect::new(16.0, 16.0, 768.0, 768.0)
    }

    #[test]
    fn the_viewer_sits_at_the_bottom_and_the_others_follow_in_turn_order() {
        let t = TableGeom::new(board(), 4, 2);
        let sides: Vec<Side> = t.areas.iter().map(|a| a.0).collect();
        assert_eq!(
            sides,
            vec![Side::Top, Side::Left, Side::Bottom, Side::Right]
        );
        let t = TableGeom::new(board(), 2, 0);
        assert_eq!(t.areas[1].0, Side::Top);
    }

    #[test]
    fn fourteen_tiles_fit_one_line_of_the_bottom_hand() {
        let t = TableGeom::new(board(), 4, 0);
        let band = t.band(0, 0, 3);
        let r = tiles(band, Side::Bottom, 14, 60.0);
        assert_eq!(r.len(), 14);
        assert!(r.iter().all(|t| t.y == r[0].y), "one line");
        assert!(r[13].x + r[13].w <= band.x + band.w + 0.01);
        assert!(r[0].h <= band.h + 0.01);
        assert!(r[0].w > 40.0, "large enough to read: {}", r[0].w);
    }

    #[test]
    fn many_tiles_wrap_and_stay_inside_their_band() {
        let t = TableGeom::new(board(), 4, 0);
        for (seat, side) in [(1, Side::Right), (3, Side::Left)] {
            let band = t.band(seat, 2, 3);
            let r = tiles(band, side, 24, 60.0);
            inside(&r, band);
        }
    }

    #[test]
    fn a_side_seats_tiles_are_nearly_as_large_as_the_top_seats() {
        let t = TableGeom::new(board(), 4, 0);
        let width = |seat: usize, side: Side| tiles(t.band(seat, 2, 3), side, 20, 60.0)[0].w;
        let (top, right, left) = (
            width(2, Side::Top),
            width(1, Side::Right),
            width(3, Side::Left),
        );
        assert!(
            right == left && right >= 0.8 * top,
            "top {top}, right {right}, left {left}"
        );
        assert!(
            t.center.w > 0.35 * board().w,
            "room for the wall: {:?}",
            t.center
        );
    }

    /// The side seats mirror each other: each one's first line of tiles lies along its own
    /// edge of the table, the next lines inward, in a band of one zone or of several.
    #[test]
    fn a_side_seats_lines_start_at_the_table_edge() {
        let t = TableGeom::new(board(), 4, 0);
        for bands in [1, 3] {
            let (right, left) = (t.band(1, 0, bands), t.band(3, 0, bands));
            let r = tiles(right, Side::Right, 24, 60.0);
            let l = tiles(left, Side::Left, 24, 60.0);
            inside(&r, right);
            inside(&l, left);
            let near = |a: f32, b: f32| (a - b).abs() < 0.01;
            assert!(
                near(r[0].x + r[0].w, right.x + right.w),
                "{bands} bands: {r:?}"
            );
            assert!(near(l[0].x, left.x), "{bands} bands: {l:?}");
            // 24 tiles take two lines or more: the second lies inward of the first.
            let second = |tiles: &[Rect]| tiles.iter().map(|t| t.x).find(|x| *x != tiles[0].x);
            assert!(second(&r).is_some_and(|x| x < r[0].x), "inward: {r:?}");
            assert!(second(&l).is_some_and(|x| x > l[0].x), "inward: {l:?}");
            let melds = grouped_tiles(right, Side::Right, &[4, 3], 40.0);
            assert!(
                near(melds[0].x + melds[0].w, right.x + right.w),
                "{bands} bands"
            );
        }
    }

    fn inside(tiles: &[Rect], band: Rect) {
        for tile in tiles {
            assert!(tile.x >= band.x - 0.01 && tile.x + tile.w <= band.x + band.w + 0.01);
            assert!(tile.y >= band.y - 0.01 && tile.y + tile.h <= band.y + band.h + 0.01);
        }
    }

    #[test]
    fn melds_lie_apart_along_their_line_and_a_meld_never_breaks_across_lines() {
        let t = TableGeom::new(board(), 4, 0);
        // A kong and a pung down a side seat's band: one column, a gap between them.
        let band = t.band(3, 1, 3);
        let r = grouped_tiles(band, Side::Left, &[4, 3], 40.0);
        assert_eq!(r.len(), 7);
        inside(&r, band);
        let step = r[1].y - r[0].y;
        assert!(r.iter().all(|x| x.x == r[0].x), "one column: {r:?}");
        assert!(
            (r[3].y - r[2].y - step).abs() < 0.01,
            "no gap inside the kong"
        );
        let gap = r[4].y - r[3].y - step;
        assert!(
            (gap - MELD_GAP * r[0].w).abs() < 0.01,
            "a gap of {gap} between melds"
        );
        // Four melds along the bottom band, tiles as large as can be: every meld whole on a
        // line, and the same in a band too short for one line, which wraps.
        let short = Rect::new(0.0, 0.0, 200.0, 120.0);
        for band in [t.band(0, 1, 3), short] {
            let groups = [3, 4, 3, 3];
            let r = grouped_tiles(band, Side::Bottom, &groups, 60.0);
            inside(&r, band);
            let mut first = 0;
            for size in groups {
                let meld = &r[first..first + size];
                assert!(
                    meld.iter().all(|x| x.y == meld[0].y),
                    "a meld on one line: {meld:?}"
                );
                first += size;
            }
            if band == short {
                assert!(r.iter().any(|x| x.y != r[0].y), "the short band wraps");
            }
        }
    }
}
