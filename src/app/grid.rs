//! The grid renderer: a board with its lines (its cells checkered, or under a picture, as the
//! style says), star points and row and column numbers, stones on the crossings (Gomoku) or
//! X/O marks in the cells (tic-tac-toe) with their levels (a king); where a click plays (a
//! ring on a stone that can move); the last move marked and, once the game is won, the
//! winning line through it.

use super::layout::{GridGeom, Rect};
use super::paint::{color, faded, fill, outline};
use super::view::{grid_geom, Frame, Spot};
use crate::core::event::Outcome;
use crate::core::grid::{GridState, DIRECTIONS};
use crate::def::style::Pieces;
use macroquad::prelude::*;

const TARGET: Color = Color::new(0.1, 0.1, 0.1, 0.18);
/// The ring round a piece that can move.
const MOVABLE: Color = Color::new(1.0, 0.8, 0.1, 1.0);
const LAST: Color = Color::new(0.9, 0.1, 0.1, 1.0);

pub fn draw(f: &Frame) {
    let (Some(g), Some(cells)) = (grid_geom(f.layout, f.world, f.style), f.world.grid.as_ref())
    else {
        return;
    };
    let b = f.layout.board;
    fill(b, color(f.style.board));
    if let Some(tex) = f.image {
        // On a grid of cells the picture covers the cells, so a drawn board lines up with
        // them; behind points it fills the whole board.
        let at = if g.points { b } else { g.frame() };
        let params = DrawTextureParams {
            dest_size: Some(vec2(at.w, at.h)),
            ..Default::default()
        };
        draw_texture_ex(tex, at.x, at.y, WHITE, params);
    }
    draw_checkered(f, &g);
    draw_lines(f, &g);
    draw_numbers(f, &g);
    draw_targets(f, &g, cells);
    for r in 0..cells.rows {
        for c in 0..cells.cols {
            let v = cells.get(r, c);
            if v > 0 {
                draw_piece(f, &g, r, c, v as usize - 1);
            }
        }
    }
    draw_movable(f, &g, cells);
    if let Some((r, c)) = f.last {
        draw_last(f, &g, cells, (r, c));
    }
    // Levels last, so the last move's dot leaves a level's number readable.
    for r in 0..cells.rows {
        for c in 0..cells.cols {
            if let Some(seat) = (cells.get(r, c) as usize).checked_sub(1) {
                draw_level(f, &g, (r, c, seat), cells.level(r, c));
            }
        }
    }
}

/// A ring on the rim of each piece a click plays (a piece that can move), bolder under the
/// mouse.
fn draw_movable(f: &Frame, g: &GridGeom, cells: &GridState) {
    let hover = f.mouse.and_then(|m| g.cell_at(m));
    for (r, c) in targets(f).filter(|(r, c)| cells.get(*r, *c) > 0) {
        let (x, y) = g.center(r, c);
        let width = g.step * if Some((r, c)) == hover { 0.09 } else { 0.05 };
        draw_circle_lines(x, y, g.step * STONE - width, width, MOVABLE);
    }
}

/// The last move's mark and, in a game won by a line, the winner's run through it.
fn draw_last(f: &Frame, g: &GridGeom, cells: &GridState, (r, c): (usize, usize)) {
    let Some(seat) = (cells.get(r, c) as usize).checked_sub(1) else {
        return;
    };
    let (x, y) = g.center(r, c);
    // On a stone, a mark that shows on it; a mark leaves its cell's corner free for a dot.
    let mark = match f.style.pieces {
        Pieces::Stones => {
            let mark = last_mark(color(f.style.seat(seat)));
            draw_circle(x, y, g.step * 0.12, mark);
            mark
        }
        Pieces::Marks => {
            let corner = g.step * 0.4;
            draw_circle(x + corner, y - corner, g.step * 0.05, LAST);
            LAST
        }
    };
    match &f.world.outcome {
        Some(Outcome::Won { winners }) if f.style.winning_line && winners.contains(&seat) => {
            draw_winning_line(cells, g, (r, c), f.layout.scale, mark);
        }
        _ => {}
    }
}

/// The playable empty cell under the mouse; every playable empty cell, fainter, when only
/// some of the empty cells can be played (a disc dropped into a column), so that a person
/// sees where.
fn draw_targets(f: &Frame, g: &GridGeom, cells: &GridState) {
    let hover = f.mouse.and_then(|m| g.cell_at(m));
    let empty = cells.cells.iter().filter(|v| **v == 0).count();
    let free: Vec<(usize, usize)> = targets(f).filter(|(r, c)| cells.get(*r, *c) == 0).collect();
    let hint = free.len() < empty;
    for (r, c) in free {
        let (x, y) = g.center(r, c);
        if Some((r, c)) == hover {
            draw_circle(x, y, g.step * 0.3, TARGET);
        } else if hint {
            draw_circle(x, y, g.step * 0.18, faded(TARGET, 0.6));
        }
    }
}

/// A marked stone's level (`ctx.grid:set_level`): a ring inside it, and the number when above
/// 1 (a checkers king wears the ring alone).
fn draw_level(f: &Frame, g: &GridGeom, (r, c, seat): (usize, usize, usize), level: u8) {
    if level == 0 {
        return;
    }
    let (x, y) = g.center(r, c);
    let stone = color(f.style.seat(seat));
    let ink = if light(stone) > 0.5 { BLACK } else { WHITE };
    draw_circle_lines(x, y, g.step * STONE * 0.55, g.step * 0.045, ink);
    if level > 1 {
        let (text, size) = (level.to_string(), g.step * 0.32);
        let w = f.p.width(&text, size);
        f.p.text(&text, x - w / 2.0, y - size / 2.0, size, ink);
    }
}

/// The last move's mark and winning line on a stone: red, or white on a stone too red for red.
fn last_mark(stone: Color) -> Color {
    let near = (stone.r - LAST.r).abs() + (stone.g - LAST.g).abs() + (stone.b - LAST.b).abs();
    if near < 0.6 {
        WHITE
    } else {
        LAST
    }
}

fn targets<'a>(f: &'a Frame) -> impl Iterator<Item = (usize, usize)> + 'a {
    f.targets.iter().filter_map(|s| match s {
        Spot::Cell(r, c) => Some((*r, *c)),
        Spot::Space(_) | Spot::Tile { .. } | Spot::Pile(_) => None,
    })
}

fn draw_lines(f: &Frame, g: &GridGeom) {
    let ink = color(f.style.line);
    let width = (1.5 * f.layout.scale).max(1.0);
    let frame = g.frame();
    if g.points {
        for k in 0..g.rows {
            let (x0, y) = g.center(k, 0);
            let (x1, _) = g.center(k, g.cols - 1);
            draw_line(x0, y, x1, y, width, ink);
        }
        for k in 0..g.cols {
            let (x, y0) = g.center(0, k);
            let (_, y1) = g.center(g.rows - 1, k);
            draw_line(x, y0, x, y1, width, ink);
        }
        outline(frame.inset(-1.0), width * 1.6, ink);
        if f.style.star_points {
            for (r, c) in star_points(g.rows, g.cols) {
                let (x, y) = g.center(r, c);
                draw_circle(x, y, g.step * 0.1, ink);
            }
        }
    } else {
        for k in 1..g.rows {
            let y = frame.y + k as f32 * g.step;
            draw_line(frame.x, y, frame.x + frame.w, y, width * 2.0, ink);
        }
        for k in 1..g.cols {
            let x = frame.x + k as f32 * g.step;
            draw_line(x, frame.y, x, frame.y + frame.h, width * 2.0, ink);
        }
        outline(frame, width * 2.0, ink);
    }
}

/// Every other cell in the style's `checkered` colour, the bottom-left one among them.
fn draw_checkered(f: &Frame, g: &GridGeom) {
    let (Some(dark), false) = (f.style.checkered, g.points) else {
        return;
    };
    let frame = g.frame();
    let from_bottom_left = |r: usize, c: usize| (g.rows - 1 - r + c).is_multiple_of(2);
    for r in 0..g.rows {
        for c in (0..g.cols).filter(|c| from_bottom_left(r, *c)) {
            let (x, y) = (frame.x + c as f32 * g.step, frame.y + r as f32 * g.step);
            fill(Rect::new(x, y, g.step, g.step), color(dark));
        }
    }
}

/// Row numbers left of the grid and column numbers above it, as `play` prints them and moves
/// name them; none when the margin is too narrow to read them.
fn draw_numbers(f: &Frame, g: &GridGeom) {
    let (frame, board) = (g.frame(), f.layout.board);
    let margin = (frame.x - board.x).min(frame.y - board.y);
    let size = (g.step * 0.32).min(margin * 0.45);
    if size < 9.0 {
        return;
    }
    // The style's text colour, or white where that would not stand out from the board.
    let (board, text) = (color(f.style.board), color(f.style.text));
    let ink = match (light(text) - light(board)).abs() >= (light(WHITE) - light(board)).abs() {
        true => text,
        false => WHITE,
    };
    // Stones on the edge points reach past the lines: the numbers stand clear of them.
    let gap = match g.points {
        true => (g.step * STONE + size * 0.6).max(margin / 2.0),
        false => margin / 2.0,
    };
    for c in 0..g.cols {
        let (x, _) = g.center(0, c);
        let n = (c + 1).to_string();
        let w = f.p.width(&n, size);
        f.p.text(&n, x - w / 2.0, frame.y - gap - size / 2.0, size, ink);
    }
    for r in 0..g.rows {
        let (_, y) = g.center(r, 0);
        let n = (r + 1).to_string();
        let w = f.p.width(&n, size);
        f.p.text(&n, frame.x - gap - w / 2.0, y - size / 2.0, size, ink);
    }
}

/// How light a colour looks, 0 (black) to 1 (white).
fn light(c: Color) -> f32 {
    0.3 * c.r + 0.59 * c.g + 0.11 * c.b
}

/// The traditional star points: 3 (or 2 on small boards) lines in from each edge, and the
/// centre; none on boards smaller than 7.
pub fn star_points(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    if rows < 7 || cols < 7 {
        return Vec::new();
    }
    let inset = |n: usize| if n >= 13 { 3 } else { 2 };
    let (ri, ci) = (inset(rows), inset(cols));
    let mut out = vec![
        (ri, ci),
        (ri, cols - 1 - ci),
        (rows - 1 - ri, ci),
        (rows - 1 - ri, cols - 1 - ci),
    ];
    if rows % 2 == 1 && cols % 2 == 1 {
        out.push((rows / 2, cols / 2));
    }
    out
}

/// A stone's radius, in steps of the grid.
const STONE: f32 = 0.46;

fn draw_piece(f: &Frame, g: &GridGeom, r: usize, c: usize, seat: usize) {
    let (x, y) = g.center(r, c);
    let c = color(f.style.seat(seat));
    match f.style.pieces {
        Pieces::Stones => {
            let radius = g.step * STONE;
            draw_circle(
                x + radius * 0.08,
                y + radius * 0.1,
                radius,
                faded(BLACK, 0.35),
            );
            draw_circle(x, y, radius, c);
            draw_circle_lines(x, y, radius, 1.0, faded(BLACK, 0.6));
        }
        Pieces::Marks => {
            let h = g.step * 0.3;
            let w = (g.step * 0.08).max(2.0);
            if seat == 0 {
                draw_line(x - h, y - h, x + h, y + h, w, c);
                draw_line(x - h, y + h, x + h, y - h, w, c);
            } else {
                draw_circle_lines(x, y, h, w, c);
            }
        }
    }
}

/// The longest run of the last mover's pieces through the last move.
fn draw_winning_line(
    cells: &GridState,
    g: &GridGeom,
    (r, c): (usize, usize),
    scale: f32,
    mark: Color,
) {
    let who = cells.get(r, c);
    let run = |(dr, dc): (i64, i64)| {
        let walk = |sign: i64| {
            let mut k = 0;
            while cells.contains(
                r as i64 + sign * dr * (k + 1),
                c as i64 + sign * dc * (k + 1),
            ) && cells.get(
                (r as i64 + sign * dr * (k + 1)) as usize,
                (c as i64 + sign * dc * (k + 1)) as usize,
            ) == who
            {
                k += 1;
            }
            k
        };
        (walk(-1), walk(1), (dr, dc))
    };
    let Some((back, fwd, (dr, dc))) = DIRECTIONS.iter().map(|d| run(*d)).max_by_key(|x| x.0 + x.1)
    else {
        return;
    };
    let at = |k: i64| g.center((r as i64 + dr * k) as usize, (c as i64 + dc * k) as usize);
    let (a, b) = (at(-back), at(fwd));
    draw_line(a.0, a.1, b.0, b.1, 6.0 * scale, faded(mark, 0.85));
}
