//! The track renderer: spaces around a square with their names, prices, group colours, owner
//! strips and buildings; the spaces' jumps as arrows; the tokens (walking when they move); the
//! dice and the map's title in the middle. Colours come from the game's style, but for the
//! buildings' and the jumps' green and red.

use super::anim::Dice;
use super::layout::{
    band_split, board_spaces, buildings, jump_point, label_box, line_title, owner_strip,
    space_side, token_spot, Rect,
};
use super::paint::{color, faded, fill, outline, Align};
use super::view::{Frame, Spot};
use crate::def::board::Space;
use macroquad::prelude::*;

const SPACE_FILL: Color = Color::new(0.98, 0.97, 0.93, 1.0);
const HOUSE: Color = Color::new(0.13, 0.55, 0.22, 1.0);
const HOTEL: Color = Color::new(0.80, 0.10, 0.10, 1.0);
const TARGET: Color = Color::new(1.0, 0.75, 0.0, 1.0);

pub fn draw(f: &Frame) {
    let b = f.layout.board;
    let rects = board_spaces(b, f.board.spaces.len(), f.board.looped);
    // The spaces cover a loop's ring, so only its middle needs the board's colour; a line's
    // rows leave the band above them.
    let depth = match f.board.looped {
        true => rects.first().map(|r| r.w.min(r.h)).unwrap_or(0.0),
        false => 0.0,
    };
    fill(b.inset(depth), color(f.style.board));
    let n = rects.len();
    for (i, (space, r)) in f.board.spaces.iter().zip(&rects).enumerate() {
        draw_space(f, i, space, *r, space_side(n, i, f.board.looped));
    }
    for (i, r) in rects.iter().enumerate() {
        if f.targets.contains(&Spot::Space(i)) {
            let pulse = 0.6 + 0.4 * (f.now * 4.0).sin().abs() as f32;
            outline(r.inset(1.0), 3.0 * f.layout.scale, faded(TARGET, pulse));
        }
        if f.changed.contains(&i) {
            outline(
                r.inset(3.0),
                4.0 * f.layout.scale,
                Color::new(1.0, 0.9, 0.1, 1.0),
            );
        }
    }
    outline(b, 2.0, color(f.style.line));
    draw_middle(f, &rects);
    f.p.flush();
    draw_jumps(f, &rects);
    draw_tokens(f, &rects);
    f.p.flush();
}

fn draw_space(f: &Frame, i: usize, space: &Space, r: Rect, (side, corner): (usize, bool)) {
    let kind_fill = f.style.kinds.get(&space.kind).map(|c| color(*c));
    fill(r, kind_fill.unwrap_or(SPACE_FILL));
    let group = space.group.as_ref().and_then(|g| f.style.groups.get(g));
    let (band, _) = band_split(r, side);
    if let Some(g) = group {
        fill(band, color(*g));
    }
    let corner = r.w == r.h && corner;
    let text_box = label_box(r, side, corner, group.is_some());
    // The owner's colour, and its number: a colour alone can be a group's.
    if let Some(owner) = f.world.board.owners.get(i).copied().flatten() {
        let strip = owner_strip(r, side);
        fill(strip, color(f.style.seat(owner)));
        let size = strip.w.min(strip.h);
        if size >= 8.0 * f.layout.scale {
            let seat = (owner + 1).to_string();
            f.p.text_in(&seat, strip, size, Align::Center, WHITE);
        }
    }
    let level = f.world.board.levels.get(i).copied().unwrap_or(0);
    if level > 0 {
        draw_buildings(band, side, level, f.layout.scale);
    }
    outline(r, 1.0, color(f.style.line));
    // Sized by the space, not by what the band and the tokens leave of it.
    let s = f.layout.scale;
    let size = (r.w.min(r.h) * 0.16).clamp(11.0 * s, 22.0 * s) * f.style.text_scale;
    draw_label(f, space, text_box.inset(3.0 * s), size);
}

/// The size a price shrinks to at most when its space's name is long, in pixels (as
/// `text_in`'s smallest sizes are: what a reader needs does not scale with the window).
const READABLE_PRICE: f32 = 11.0;

/// The name, and the price under it when the space has one, at most `size` large.
fn draw_label(f: &Frame, space: &Space, r: Rect, size: f32) {
    let ink = color(f.style.text);
    match space
        .data
        .get(&f.style.price_key)
        .and_then(|v| v.as_integer())
    {
        Some(price) => {
            let name = Rect::new(r.x, r.y, r.w, r.h * 0.66);
            let used = f.p.text_in(&space.name, name, size, Align::Center, ink);
            let price_box = Rect::new(r.x, r.y + r.h * 0.66, r.w, r.h * 0.34);
            let text = format!("{}{price}", f.style.currency);
            // The price as large as the name, but readable whatever the name's length.
            let price_size = used.max(size.min(READABLE_PRICE));
            f.p.text_in(&text, price_box, price_size, Align::Center, faded(ink, 0.8));
        }
        None => {
            f.p.text_in(&space.name, r, size * 1.1, Align::Center, ink);
        }
    }
}

/// Each space's `jump` as an arrow across the middle (`jump_point`): green forward (a
/// ladder), red back (a snake).
fn draw_jumps(f: &Frame, rects: &[Rect]) {
    let (s, b) = (f.layout.scale, f.layout.board);
    for (i, space) in f.board.spaces.iter().enumerate() {
        let (Some(to), Some(from_rect)) = (space.jump, rects.get(i)) else {
            continue;
        };
        let Some(to_rect) = rects.get(to) else {
            continue;
        };
        let at = |t: f32| Vec2::from(jump_point(b, *from_rect, *to_rect, t, f.board.looped));
        let ink = match to > i {
            true => Color { a: 0.75, ..HOUSE },
            false => Color { a: 0.75, ..HOTEL },
        };
        let (head, end) = (14.0 * s, at(1.0));
        let dir = (end - at(0.9)).normalize_or_zero();
        let base = end - dir * head;
        let steps = 16;
        for k in 0..steps {
            let (p, q) = (
                at(k as f32 / steps as f32),
                at((k + 1) as f32 / steps as f32),
            );
            let q = if k + 1 == steps { base } else { q };
            draw_line(p.x, p.y, q.x, q.y, 4.0 * s, ink);
        }
        let start = at(0.0);
        draw_circle(start.x, start.y, 4.0 * s, ink);
        let side = vec2(-dir.y, dir.x) * head * 0.5;
        draw_triangle(end, base + side, base - side, ink);
    }
}

/// Houses as small green squares along the band; a full level as one red hotel. Each stands
/// on a white edge, so that it shows on a band of its own colour (a hotel on a red street).
fn draw_buildings(band: Rect, side: usize, level: i64, scale: f32) {
    let c = if level >= 5 { HOTEL } else { HOUSE };
    for r in buildings(band, side, level, scale) {
        fill(r.inset(-1.5 * scale), WHITE);
        fill(r, c);
        outline(r, 1.0, BLACK);
    }
}

/// The map's name and the game's title in the middle, the dice under them.
fn draw_middle(f: &Frame, rects: &[Rect]) {
    let b = f.layout.board;
    let inner = match (f.board.looped, rects.first(), rects.get(rects.len() / 2)) {
        (false, _, _) => line_title(b, rects),
        (true, Some(go), Some(_)) => b.inset(go.w.max(go.h) * 1.05),
        _ => b,
    };
    if let Some(tex) = f.image {
        let side = inner.w.min(inner.h) * 0.5;
        let params = DrawTextureParams {
            dest_size: Some(vec2(side, side)),
            ..Default::default()
        };
        draw_texture_ex(
            tex,
            inner.x + (inner.w - side) / 2.0,
            inner.y,
            WHITE,
            params,
        );
    }
    title_and_dice(f, inner);
}

/// The map's name in `inner` (the free middle of a board or a table), and the last roll's
/// dice under it.
pub(super) fn title_and_dice(f: &Frame, inner: Rect) {
    let ink = color(f.style.text);
    let s = f.layout.scale;
    let title = Rect::new(inner.x, inner.y + inner.h * 0.18, inner.w, inner.h * 0.2);
    f.p.text_in(&f.board.name, title, 34.0 * s, Align::Center, ink);
    if let Some(dice) = f.anim.dice(f.now) {
        let size = (inner.w * 0.14).min(inner.h * 0.3).min(70.0 * s);
        draw_dice(f, &dice, inner, size);
    }
}

/// The last roll's dice, `size` pixels each, in a row a little below the middle of `inner`,
/// with whose roll it was under them once they stop.
pub(super) fn draw_dice(f: &Frame, dice: &Dice, inner: Rect, size: f32) {
    let (faces, s) = (&dice.faces, f.layout.scale);
    let gap = size * 0.35;
    let total = faces.len() as f32 * (size + gap) - gap;
    let (cx, cy) = inner.center();
    if let (false, Some(seat)) = (dice.rolling, dice.seat) {
        let text = 15.0 * s;
        let under = Rect::new(cx - total, cy + size * 1.3, total * 2.0, text * 1.4);
        let ink = faded(color(f.style.text), 0.8);
        f.p.text_in(
            &format!("P{} rolled", seat + 1),
            under,
            text,
            Align::Center,
            ink,
        );
    }
    for (k, face) in faces.iter().enumerate() {
        let wobble = if dice.rolling {
            (k as f32 + 1.0) * 4.0 * s
        } else {
            0.0
        };
        let r = Rect::new(
            cx - total / 2.0 + k as f32 * (size + gap),
            cy + size * 0.2 - wobble,
            size,
            size,
        );
        fill(r, WHITE);
        outline(r, 2.0, BLACK);
        for (px, py) in pips(*face) {
            draw_circle(r.x + px * r.w, r.y + py * r.h, size * 0.09, BLACK);
        }
    }
}

/// Pip positions of a die face, as fractions of its side.
fn pips(face: u32) -> Vec<(f32, f32)> {
    let (l, m, h) = (0.25, 0.5, 0.75);
    match face {
        1 => vec![(m, m)],
        2 => vec![(l, l), (h, h)],
        3 => vec![(l, l), (m, m), (h, h)],
        4 => vec![(l, l), (h, l), (l, h), (h, h)],
        5 => vec![(l, l), (h, l), (m, m), (l, h), (h, h)],
        _ => vec![(l, l), (h, l), (l, m), (h, m), (l, h), (h, h)],
    }
}

fn draw_tokens(f: &Frame, rects: &[Rect]) {
    let n = rects.len();
    if n == 0 {
        return;
    }
    // Each token in play, where it is along the track and the space it stands on.
    let tokens: Vec<(usize, f64, usize)> = (0..f.world.seats)
        .filter(|s| f.world.in_play[*s])
        .map(|s| (s, f.anim.position(s, f.now)))
        .map(|(s, pos)| (s, pos, pos.floor() as usize % n))
        .collect();
    for &(seat, pos, here) in &tokens {
        // A token's place among those on space i, itself counted there.
        let spot = |i: usize| {
            let others: Vec<usize> = (tokens.iter())
                .filter(|(s, _, on)| *s != seat && *on == i)
                .map(|(s, _, _)| *s)
                .collect();
            let slot = others.iter().filter(|s| **s < seat).count();
            let (side, corner) = space_side(n, i, f.board.looped);
            let built = f.world.board.levels.get(i).is_some_and(|l| *l > 0);
            let largest = 15.0 * f.layout.scale;
            let kind = (side, corner, built);
            token_spot(rects[i], kind, (slot, others.len() + 1), largest)
        };
        let (a, b) = (spot(here), spot((here + 1) % n));
        let t = pos.fract() as f32;
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        let radius = a.2 + (b.2 - a.2) * t;
        let c = color(f.style.seat(seat));
        draw_circle(x, y, radius + 1.5, BLACK);
        draw_circle(x, y, radius, c);
        let label = format!("{}", seat + 1);
        let size = radius * 1.3;
        let w = f.p.width(&label, size);
        f.p.text(&label, x - w / 2.0, y - size * 0.55, size, WHITE);
    }
}
