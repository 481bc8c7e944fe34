//! The table renderer: each seat's zones along its side of the table (the viewer at the
//! bottom), tiles face up with their names where the view shows items and face down where it
//! shows only a count (a top-only pile: its top face up on the stack); shared zones (the
//! wall) in the middle, else the map's name and the dice; a tile that just joined a pile
//! slides in from its owner's hand.
//! Everything drawn comes from the viewer's `TableView`, never from the full world.

use super::layout::{Layout, Rect};
use super::paint::{color, faded, fill, outline, Align};
use super::seating::{placed, shared_tiles, Placed, Side, TableGeom};
use super::tableview::TableView;
use super::view::{Frame, Spot};
use crate::core::zone::Seen;
use macroquad::prelude::*;

/// Tile face and back colours, and the highlight of a playable tile.
pub const FACE: Color = Color::new(0.965, 0.945, 0.89, 1.0);
pub const BACK: Color = Color::new(0.2, 0.45, 0.62, 1.0);
const PLAYABLE: Color = Color::new(1.0, 0.85, 0.25, 0.45);
const PICKED: Color = Color::new(0.95, 0.55, 0.1, 1.0);
/// The width of a shared pile's tiles at scale 1.
const STACK_W: f32 = 34.0;
const INK: Color = Color::new(0.1, 0.1, 0.1, 1.0);

/// Text colour that reads on `ground`: dark on a light table, white on a dark one.
fn on(ground: Color) -> Color {
    if 0.3 * ground.r + 0.59 * ground.g + 0.11 * ground.b > 0.5 {
        INK
    } else {
        WHITE
    }
}

pub fn draw(f: &Frame) {
    let Some(t) = f.table else { return };
    let b = f.layout.board;
    fill(b, color(f.style.board));
    let geom = TableGeom::new(b, t.seats, t.viewer.unwrap_or(0));
    let bands = t.seat_zones().count();
    draw_seats(f, &geom);
    let (tiles, shared) = placed(b, &geom, bands, t);
    let hover = f
        .mouse
        .and_then(|m| tiles.iter().find(|p| p.rect.contains(m)));
    for p in &tiles {
        let playable = f.targets.contains(&spot(p));
        let rect = match f.anim.slide(p.zone, p.seat, p.index, f.now) {
            Some(k) => slid(geom.band(p.seat, 0, bands), p.rect, k),
            None => p.rect,
        };
        let picked = f.picked.contains(&(spot(p), p.index));
        let rect = if picked {
            raised(rect, f.layout.scale)
        } else {
            rect
        };
        draw_tile(f, t, rect, p.face, playable && Some(p) == hover, playable);
    }
    captions(f, t, &geom, &tiles);
    // A table with no shared pile (a dice game) has its middle free for the name and dice;
    // beside shared piles, the dice stand at the middle's right end.
    if shared.is_empty() {
        super::track::title_and_dice(f, geom.center);
    } else if let Some(dice) = f.anim.dice(f.now) {
        let c = geom.center;
        let area = Rect::new(c.x + c.w * 0.7, c.y, c.w * 0.3, c.h * 0.9);
        let size = (area.w / (dice.faces.len() as f32 * 1.35)).min(40.0 * f.layout.scale);
        super::track::draw_dice(f, &dice, area, size);
    }
    for s in &shared {
        draw_shared(f, t, s.band, &t.zones[s.zone].name, &s.pile);
        if f.targets.contains(&Spot::Pile(s.zone)) {
            let over = f.mouse.is_some_and(|m| s.band.contains(m));
            outline(
                s.band.inset(4.0),
                3.0,
                faded(PLAYABLE, if over { 2.2 } else { 1.6 }),
            );
        }
    }
}

/// Each seat's non-empty piles named with their counts (`hand × 13`), as shared piles are,
/// after their last tile: right of a row, under a column when there is room.
fn captions(f: &Frame, t: &TableView, geom: &TableGeom, tiles: &[Placed]) {
    let s = f.layout.scale;
    let ink = faded(on(color(f.style.board)), 0.75);
    let board = f.layout.board;
    for (zone, z) in t.seat_zones() {
        for (seat, (side, _)) in geom.areas.iter().enumerate() {
            let rects: Vec<Rect> = (tiles.iter())
                .filter(|p| p.zone == zone && p.seat == seat)
                .map(|p| p.rect)
                .collect();
            let row = matches!(side, Side::Bottom | Side::Top);
            let along = |r: &Rect| if row { r.x } else { r.y };
            let Some(last) = rects.iter().max_by(|a, b| along(a).total_cmp(&along(b))) else {
                continue;
            };
            let text = format!("{} × {}", z.name, rects.len());
            let (at, align) = match row {
                true => {
                    let x = last.x + last.w + 6.0 * s;
                    let w = (board.x + board.w - x).max(0.0);
                    (Rect::new(x, last.y, w, last.h), Align::Left)
                }
                false => {
                    let y = last.y + last.h + 2.0 * s;
                    let r = Rect::new(last.x - 20.0 * s, y, last.w + 40.0 * s, 14.0 * s);
                    (r, Align::Center)
                }
            };
            if at.w >= 40.0 * s && at.y + at.h <= board.y + board.h {
                f.p.text_in(&text, at, 12.0 * s, align, ink);
            }
        }
    }
}

/// A tile `k` of the way from the middle of `from` (its owner's hand) to `to`, eased.
fn slid(from: Rect, to: Rect, k: f32) -> Rect {
    let e = 1.0 - (1.0 - k) * (1.0 - k);
    let (fx, fy) = from.center();
    let (x0, y0) = (fx - to.w / 2.0, fy - to.h / 2.0);
    Rect::new(x0 + (to.x - x0) * e, y0 + (to.y - y0) * e, to.w, to.h)
}

/// A picked tile: lifted out of its row, with a ring.
fn raised(r: Rect, scale: f32) -> Rect {
    let up = lifted(r);
    outline(up.inset(-3.0 * scale), 3.0 * scale, PICKED);
    up
}

/// Where a picked tile stands: above its place in the row.
fn lifted(r: Rect) -> Rect {
    Rect::new(r.x, r.y - r.h * 0.3, r.w, r.h)
}

fn spot(p: &Placed) -> Spot {
    Spot::Tile {
        zone: p.zone,
        seat: p.seat,
        code: p.face.unwrap_or(-1),
    }
}

/// Each seat's area, outlined while it is that seat's turn, and its number and colour on the
/// free middle of the table, next to its area.
fn draw_seats(f: &Frame, geom: &TableGeom) {
    let s = f.layout.scale;
    let c0 = geom.center;
    for (seat, (side, area)) in geom.areas.iter().enumerate() {
        let c = color(f.style.seat(seat));
        if f.world.outcome.is_none() && f.world.current == seat {
            outline(area.inset(2.0 * s), 3.0 * s, c);
        }
        let (w, h) = (30.0 * s, 18.0 * s);
        let (x, y) = match side {
            Side::Bottom => (c0.x + (c0.w - w) / 2.0, c0.y + c0.h - h),
            Side::Top => (c0.x + (c0.w - w) / 2.0, c0.y),
            Side::Left => (c0.x, c0.y + (c0.h - h) / 2.0),
            Side::Right => (c0.x + c0.w - w, c0.y + (c0.h - h) / 2.0),
        };
        let chip = Rect::new(x, y, w, h);
        fill(chip, c);
        f.p.text_in(
            &format!("P{}", seat + 1),
            chip,
            13.0 * s,
            Align::Center,
            WHITE,
        );
    }
}

/// A tile: face up with its name (highlighted when playable, brighter under the mouse), or
/// face down.
fn draw_tile(f: &Frame, t: &TableView, r: Rect, face: Option<i64>, hover: bool, playable: bool) {
    let line = faded(BLACK, 0.55);
    match face {
        Some(code) => {
            fill(r, FACE);
            if playable {
                fill(r, faded(PLAYABLE, if hover { 1.6 } else { 0.6 }));
            }
            outline(r, 1.0, line);
            f.p.text_in(
                &t.name(code),
                r.inset(r.w * 0.06),
                r.w * 0.5,
                Align::Center,
                f.style.item_color(code).map_or(INK, color),
            );
        }
        None => {
            fill(r, BACK);
            outline(r, 1.0, line);
        }
    }
}

/// A shared zone: its name and count beside its tiles face up ("pile × 4"), or a face-down
/// tile with the count ("wall × 83").
fn draw_shared(f: &Frame, t: &TableView, band: Rect, name: &str, pile: &Seen) {
    match pile {
        Seen::Items(items) => {
            let s = f.layout.scale;
            let (label, rects) = shared_tiles(band, items.len(), STACK_W * s);
            let ink = on(color(f.style.board));
            let text = format!("{name} × {}", items.len());
            f.p.text_in(&text, label, 18.0 * s, Align::Left, ink);
            for (r, code) in rects.into_iter().zip(items) {
                draw_tile(f, t, r, Some(*code), false, false);
            }
        }
        Seen::Count { count } => stack(f, t, band, None, *count, &format!("{name} × {count}")),
        Seen::Top { top, count } => stack(f, t, band, *top, *count, &format!("{name} × {count}")),
        Seen::Nothing {} => {}
    }
}

/// A pile seen as a stack: its top tile (face up when `top` names it), or the outline of its
/// place when it holds `count` 0, and a label beside.
fn stack(f: &Frame, t: &TableView, band: Rect, top: Option<i64>, count: usize, label: &str) {
    let s = f.layout.scale;
    let size = 18.0 * s;
    let (cx, cy) = band.center();
    let w = STACK_W * s;
    let tile = Rect::new(cx - w * 2.2, cy - w * 0.67, w, w * 1.35);
    match count {
        0 => outline(tile, 2.0 * s, faded(BLACK, 0.35)),
        _ => draw_tile(f, t, tile, top, false, false),
    }
    let at = Rect::new(cx - w * 1.0, cy - size, w * 6.0, size * 2.0);
    let ink = on(color(f.style.board));
    f.p.text_in(label, at, size, Align::Left, ink);
}

/// The viewer's face-up tile (and its position in its pile), or the shared pile, under a
/// window position; a `picked` tile is where it stands lifted.
pub fn tile_at(
    layout: &Layout,
    t: &TableView,
    picked: &[(Spot, usize)],
    pos: (f32, f32),
) -> Option<(Spot, usize)> {
    let viewer = t.viewer?;
    let geom = TableGeom::new(layout.board, t.seats, viewer);
    let (tiles, shared) = placed(layout.board, &geom, t.seat_zones().count(), t);
    let stands = |p: &Placed| match picked.contains(&(spot(p), p.index)) {
        true => lifted(p.rect),
        false => p.rect,
    };
    let mine = tiles
        .iter()
        .filter(|p| p.seat == viewer && p.face.is_some());
    // Lifted tiles first: one stands over the row above its own.
    let (up, down): (Vec<&Placed>, Vec<&Placed>) =
        mine.partition(|p| picked.contains(&(spot(p), p.index)));
    let tile = (up.into_iter().chain(down))
        .find(|p| stands(p).contains(pos))
        .map(|p| (spot(p), p.index));
    tile.or_else(|| {
        (shared.iter())
            .find(|s| s.band.contains(pos))
            .map(|s| (Spot::Pile(s.zone), 0))
    })
}
