//! Where things go in the window, as pure arithmetic on the window size (no drawing here, so
//! tests compute where a space or a stone must appear). The reference size is 1280×800; every
//! length scales with `Layout::scale`. The board is a square on the left, the HUD on the right.

/// A rectangle in window pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn contains(&self, (px, py): (f32, f32)) -> bool {
        px >= self.x && py >= self.y && px < self.x + self.w && py < self.y + self.h
    }

    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// The rectangle shrunk by `by` on every side.
    pub fn inset(&self, by: f32) -> Rect {
        Rect::new(
            self.x + by,
            self.y + by,
            (self.w - 2.0 * by).max(0.0),
            (self.h - 2.0 * by).max(0.0),
        )
    }

    /// The largest part of this rectangle left of, right of, above or below `cut`.
    pub fn without(&self, cut: Rect) -> Rect {
        let (right, bottom) = (self.x + self.w, self.y + self.h);
        let parts = [
            Rect::new(self.x, self.y, (cut.x - self.x).clamp(0.0, self.w), self.h),
            Rect::new(
                cut.x + cut.w,
                self.y,
                (right - cut.x - cut.w).clamp(0.0, self.w),
                self.h,
            ),
            Rect::new(self.x, self.y, self.w, (cut.y - self.y).clamp(0.0, self.h)),
            Rect::new(
                self.x,
                cut.y + cut.h,
                self.w,
                (bottom - cut.y - cut.h).clamp(0.0, self.h),
            ),
        ];
        (parts.into_iter())
            .max_by(|a, b| (a.w * a.h).total_cmp(&(b.w * b.h)))
            .expect("four parts")
    }
}

pub const REFERENCE: (f32, f32) = (1280.0, 800.0);

/// The window split into the board square and the HUD column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub width: f32,
    pub height: f32,
    /// Lengths are given at 1280×800 and multiplied by this.
    pub scale: f32,
    pub board: Rect,
    pub hud: Rect,
}

impl Layout {
    pub fn new(width: f32, height: f32) -> Layout {
        let scale = (width / REFERENCE.0).min(height / REFERENCE.1).max(0.25);
        let margin = 16.0 * scale;
        let side = (height - 2.0 * margin).min(width * 0.62).max(1.0);
        let board = Rect::new(margin, (height - side) / 2.0, side, side);
        let hud_x = board.x + side + margin;
        let hud = Rect::new(
            hud_x,
            margin,
            (width - hud_x - margin).max(1.0),
            height - 2.0 * margin,
        );
        Layout {
            width,
            height,
            scale,
            board,
            hud,
        }
    }
}

/// The point at `t` (0 at `from`, 1 at `to`) of the arrow drawn for a space's jump. On a loop
/// it runs from the inner edge of space `from` to that of space `to`, bowed toward the middle
/// of `board`, so that a jump along one side stays off its spaces; on a line (not `looped`),
/// from centre to centre, bowed a little.
pub fn jump_point(board: Rect, from: Rect, to: Rect, t: f32, looped: bool) -> (f32, f32) {
    let (mx, my) = board.center();
    let end = |r: Rect| match looped {
        true => (mx.clamp(r.x, r.x + r.w), my.clamp(r.y, r.y + r.h)),
        false => r.center(),
    };
    let (a, b) = (end(from), end(to));
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let pull = if looped { 0.35 } else { 0.15 };
    let bow = (mid.0 + (mx - mid.0) * pull, mid.1 + (my - mid.1) * pull);
    let (u, v, w) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t), t * t);
    (a.0 * u + bow.0 * v + b.0 * w, a.1 * u + bow.1 * v + b.1 * w)
}

/// The spaces of a track on `board`: round its edge for a loop (`track_spaces`), in rows
/// winding up it for a track that does not loop (`line_spaces`).
pub fn board_spaces(board: Rect, n: usize, looped: bool) -> Vec<Rect> {
    match looped {
        true => track_spaces(board, n),
        false => line_spaces(board, n),
    }
}

/// Which side of the board space `index` of `n` lies along and whether it is a corner: a
/// loop's (`track_side`); every space of a line reads as one along the bottom.
pub fn space_side(n: usize, index: usize, looped: bool) -> (usize, bool) {
    match looped {
        true => track_side(n, index),
        false => (0, false),
    }
}

/// The band of `board` above a line track's rows (`spaces`, as `line_spaces` lays them out),
/// where the map's name and the dice go.
pub fn line_title(board: Rect, spaces: &[Rect]) -> Rect {
    let top = spaces.iter().map(|r| r.y).fold(board.y + board.h, f32::min);
    Rect::new(board.x, board.y, board.w, top - board.y)
}

/// A track of `n` spaces that does not loop, as a snakes-and-ladders board lays it out: in
/// rows of square cells under a band for the title, the first row from the bottom-left
/// corner rightwards, the next leftwards above it, and so on, as near a square as it fits.
pub fn line_spaces(board: Rect, n: usize) -> Vec<Rect> {
    let cols = ((n as f32).sqrt().ceil() as usize).max(1);
    let rows = n.div_ceil(cols).max(1);
    let band = board.h * 0.16;
    let cell = (board.w / cols as f32).min((board.h - band) / rows as f32);
    let left = board.x + (board.w - cell * cols as f32) / 2.0;
    let bottom = board.y + board.h;
    (0..n)
        .map(|i| {
            let (row, k) = (i / cols, i % cols);
            let col = if row % 2 == 0 { k } else { cols - 1 - k };
            let x = left + col as f32 * cell;
            Rect::new(x, bottom - (row + 1) as f32 * cell, cell, cell)
        })
        .collect()
}

/// A track of `n` spaces around the edge of the square `board`: space 0 in the bottom-right
/// corner, then leftwards along the bottom, up the left side, rightwards along the top and down
/// the right side. Each side starts with a corner; the other spaces share the sides evenly. On
/// a track of 4 to 7 spaces a side with no space but its corner has the corner stretch along it
/// to the next corner, so the ring stays closed.
pub fn track_spaces(board: Rect, n: usize) -> Vec<Rect> {
    let per_side = side_counts(n);
    let longest = per_side
        .iter()
        .copied()
        .max()
        .unwrap_or(1)
        .saturating_sub(1);
    let s = board.w;
    let corner = (2.0 * s / (longest as f32 + 4.0)).min(s / 4.0);
    let mut out = Vec::with_capacity(n);
    for (side, count) in per_side.iter().enumerate() {
        let edge = count.saturating_sub(1);
        let cell = if edge > 0 {
            (s - 2.0 * corner) / edge as f32
        } else {
            0.0
        };
        if *count == 1 && n >= 4 {
            out.push(stretched_corner(board, side, corner));
            continue;
        }
        for k in 0..*count {
            out.push(side_cell(board, side, k, corner, cell));
        }
    }
    out
}

/// The corner of `side` stretched along that side to the next corner.
fn stretched_corner(b: Rect, side: usize, corner: f32) -> Rect {
    let (s, long) = (b.w, b.w - corner);
    match side {
        0 => Rect::new(b.x + corner, b.y + s - corner, long, corner),
        1 => Rect::new(b.x, b.y + corner, corner, long),
        2 => Rect::new(b.x, b.y, long, corner),
        _ => Rect::new(b.x + s - corner, b.y, corner, long),
    }
}

/// Spaces on each side (corner included), bottom, left, top, right.
fn side_counts(n: usize) -> [usize; 4] {
    if n < 4 {
        let mut c = [0; 4];
        c.iter_mut().take(n).for_each(|x| *x = 1);
        return c;
    }
    let rest = n - 4;
    let mut c = [1 + rest / 4; 4];
    for x in c.iter_mut().take(rest % 4) {
        *x += 1;
    }
    c
}

/// The `k`-th space of `side` (0 = its corner).
fn side_cell(b: Rect, side: usize, k: usize, corner: f32, cell: f32) -> Rect {
    let s = b.w;
    // Distance along the side from its corner to the space's far edge.
    let along = |k: usize| corner + cell * (k as f32 - 1.0);
    match (side, k) {
        (0, 0) => Rect::new(b.x + s - corner, b.y + s - corner, corner, corner),
        (1, 0) => Rect::new(b.x, b.y + s - corner, corner, corner),
        (2, 0) => Rect::new(b.x, b.y, corner, corner),
        (3, 0) => Rect::new(b.x + s - corner, b.y, corner, corner),
        (0, k) => Rect::new(b.x + s - along(k) - cell, b.y + s - corner, cell, corner),
        (1, k) => Rect::new(b.x, b.y + s - along(k) - cell, corner, cell),
        (2, k) => Rect::new(b.x + along(k), b.y, cell, corner),
        (_, k) => Rect::new(b.x + s - corner, b.y + along(k), corner, cell),
    }
}

/// Which side a track space is on (0 bottom, 1 left, 2 top, 3 right) and whether it is a corner.
pub fn track_side(n: usize, index: usize) -> (usize, bool) {
    let mut start = 0;
    for (side, count) in side_counts(n).iter().enumerate() {
        if index < start + count {
            return (side, index == start);
        }
        start += count;
    }
    (3, false)
}

/// A track space's extent from the board's edge inwards.
fn depth(r: Rect, side: usize) -> f32 {
    if side.is_multiple_of(2) {
        r.h
    } else {
        r.w
    }
}

/// The band along a track space's inner edge (group colour, buildings), and the rest.
pub fn band_split(r: Rect, side: usize) -> (Rect, Rect) {
    let depth = depth(r, side) * 0.22;
    match side {
        0 => (
            Rect::new(r.x, r.y, r.w, depth),
            Rect::new(r.x, r.y + depth, r.w, r.h - depth),
        ),
        1 => (
            Rect::new(r.x + r.w - depth, r.y, depth, r.h),
            Rect::new(r.x, r.y, r.w - depth, r.h),
        ),
        2 => (
            Rect::new(r.x, r.y + r.h - depth, r.w, depth),
            Rect::new(r.x, r.y, r.w, r.h - depth),
        ),
        _ => (
            Rect::new(r.x, r.y, depth, r.h),
            Rect::new(r.x + depth, r.y, r.w - depth, r.h),
        ),
    }
}

/// The strip along a track space's outer edge that shows its owner's colour.
pub fn owner_strip(r: Rect, side: usize) -> Rect {
    let depth = depth(r, side) * 0.12;
    match side {
        0 => Rect::new(r.x, r.y + r.h - depth, r.w, depth),
        1 => Rect::new(r.x, r.y, depth, r.h),
        2 => Rect::new(r.x, r.y, r.w, depth),
        _ => Rect::new(r.x + r.w - depth, r.y, depth, r.h),
    }
}

/// Where the buildings of a space stand in its band: one square per level up to 4, one wide
/// hotel from level 5.
pub fn buildings(band: Rect, side: usize, level: i64, scale: f32) -> Vec<Rect> {
    let along_x = side.is_multiple_of(2);
    let (len, thick) = if along_x {
        (band.w, band.h)
    } else {
        (band.h, band.w)
    };
    let size = (thick * 0.6).min(len / 5.0);
    let pad = (thick - size) / 2.0;
    let (count, w) = if level >= 5 {
        (1, size * 2.2)
    } else {
        (level.max(0) as usize, size)
    };
    (0..count)
        .map(|k| {
            let at = pad + k as f32 * (w + 2.0 * scale);
            if along_x {
                Rect::new(band.x + at, band.y + pad, w, size)
            } else {
                Rect::new(band.x + pad, band.y + at, size, w)
            }
        })
        .collect()
}

/// The strip of a track space where its tokens stand: along its band, twice as deep, clear of
/// the name and price (once buildings stand in the band, the part of the strip beside it; on a
/// corner, the part under its name).
fn token_area(r: Rect, (side, corner, built): (usize, bool, bool)) -> Rect {
    let (band, _) = band_split(r, side);
    let (cx, cy) = band.center();
    let thick = band.w.min(band.h) * 2.0;
    // The strip, kept inside the space.
    let clip = |from: f32, lo: f32, len: f32| {
        let start = (from - thick / 2.0).min(lo + len - thick).max(lo);
        (start, thick.min(len))
    };
    let strip = match (corner, side % 2) {
        (true, _) => return Rect::new(r.x, r.y + r.h * 0.55, r.w, r.h * 0.45),
        (false, 0) => {
            let (y, h) = clip(cy, r.y, r.h);
            Rect::new(r.x, y, r.w, h)
        }
        (false, _) => {
            let (x, w) = clip(cx, r.x, r.w);
            Rect::new(x, r.y, w, r.h)
        }
    };
    if built {
        strip.without(band)
    } else {
        strip
    }
}

/// Where a track space's name and price go: clear of its band (its group colour, kept for
/// buildings), of the strip its tokens stand on (so a token never hides a name) and of the
/// owner's strip. A corner with no group has no band.
pub fn label_box(r: Rect, side: usize, corner: bool, grouped: bool) -> Rect {
    let (_, rest) = band_split(r, side);
    let base = if grouped || !corner { rest } else { r };
    (base.without(token_area(r, (side, corner, false)))).without(owner_strip(r, side))
}

/// Where a token stands on a track space, and its radius. The `count` tokens on the space
/// share its `token_area` in rows; `slot` is this one's place among them. Each is as large as
/// its share allows (at most `largest`).
pub fn token_spot(
    r: Rect,
    kind: (usize, bool, bool),
    (slot, count): (usize, usize),
    largest: f32,
) -> (f32, f32, f32) {
    let area = token_area(r, kind).inset(r.w.min(r.h) * 0.03);
    let n = count.max(1);
    // As many columns as keep each token's share near square.
    let cols = ((n as f32 * area.w / area.h.max(1.0)).sqrt().ceil() as usize).clamp(1, n);
    let rows = n.div_ceil(cols);
    let share = (area.w / cols as f32).min(area.h / rows as f32);
    let (col, row) = (slot % cols, slot / cols);
    // The last row, when short, is centred under the others.
    let in_row = if row + 1 == rows {
        n - row * cols
    } else {
        cols
    };
    let (cx, cy) = area.center();
    let x = cx + (col as f32 - (in_row - 1) as f32 / 2.0) * share;
    let y = cy + (row as f32 - (rows - 1) as f32 / 2.0) * share;
    (x, y, (share * 0.45).min(largest))
}

/// A grid of `rows` × `cols` drawn in `board`: pieces either on the line crossings (`points`)
/// or inside the cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridGeom {
    pub rows: usize,
    pub cols: usize,
    pub points: bool,
    /// Top-left of the first point (or cell centre).
    pub origin: (f32, f32),
    /// Distance between neighbouring points (or cell centres).
    pub step: f32,
}

impl GridGeom {
    pub fn new(board: Rect, rows: usize, cols: usize, points: bool) -> GridGeom {
        let n = rows.max(cols).max(1) as f32;
        // Points leave a margin of one step around the lines; cells fill the board less a margin.
        let step = if points {
            board.w / (n + 1.0)
        } else {
            board.w * 0.9 / n
        };
        let span = |k: usize| (k.max(1) - 1) as f32 * step;
        let origin = (
            board.x + (board.w - span(cols)) / 2.0,
            board.y + (board.h - span(rows)) / 2.0,
        );
        GridGeom {
            rows,
            cols,
            points,
            origin,
            step,
        }
    }

    /// Centre of cell (row, col), 0-based.
    pub fn center(&self, row: usize, col: usize) -> (f32, f32) {
        (
            self.origin.0 + col as f32 * self.step,
            self.origin.1 + row as f32 * self.step,
        )
    }

    /// The cell under a window position, if within half a step of its centre.
    pub fn cell_at(&self, (x, y): (f32, f32)) -> Option<(usize, usize)> {
        let col = ((x - self.origin.0) / self.step).round();
        let row = ((y - self.origin.1) / self.step).round();
        if col < 0.0 || row < 0.0 || col as usize >= self.cols || row as usize >= self.rows {
            return None;
        }
        let (cx, cy) = self.center(row as usize, col as usize);
        let half = self.step / 2.0;
        ((x - cx).abs() <= half && (y - cy).abs() <= half).then_some((row as usize, col as usize))
    }

    /// The outer frame of the lines (points) or of the cells.
    pub fn frame(&self) -> Rect {
        let (x0, y0) = self.center(0, 0);
        let (x1, y1) = self.center(self.rows - 1, self.cols - 1);
        if self.points {
            Rect::new(x0, y0, x1 - x0, y1 - y0)
        } else {
            let h = self.step / 2.0;
            Rect::new(x0 - h, y0 - h, x1 - x0 + self.step, y1 - y0 + self.step)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line winds up from the bottom-left corner: rightwards, leftwards above, rightwards
    /// again; its title band is what the rows leave above them.
    #[test]
    fn a_line_winds_up_from_the_bottom_left() {
        let b = Rect::new(0.0, 0.0, 800.0, 800.0);
        let r = line_spaces(b, 12);
        let cell = (800.0_f32 / 4.0).min(800.0 * 0.84 / 3.0);
        assert_eq!(
            (r[0].x, r[0].y + r[0].h),
            (0.0, 800.0),
            "the start, bottom left"
        );
        assert_eq!(r[3].x, 3.0 * cell, "the first row ends on the right");
        assert_eq!(
            (r[4].x, r[4].y),
            (r[3].x, r[3].y - cell),
            "the next starts above it"
        );
        assert_eq!((r[7].x, r[8].x, r[11].x), (0.0, 0.0, 3.0 * cell));
        assert_eq!(
            line_title(b, &r),
            Rect::new(0.0, 0.0, 800.0, 800.0 - 3.0 * cell)
        );
        assert_eq!(board_spaces(b, 12, false), r);
        assert_eq!(board_spaces(b, 12, true), track_spaces(b, 12));
    }

    #[test]
    fn classic_track_has_nine_spaces_between_corners() {
        let l = Layout::new(1280.0, 800.0);
        let spaces = track_spaces(l.board, 40);
        assert_eq!(spaces.len(), 40);
        assert_eq!(track_side(40, 10), (1, true));
        assert_eq!(track_side(40, 11), (1, false));
        // GO in the bottom-right corner, space 10 in the bottom-left, all inside the board.
        assert!(spaces[0].x > spaces[10].x);
        for r in &spaces {
            assert!(r.x >= l.board.x - 0.01 && r.x + r.w <= l.board.x + l.board.w + 0.01);
            assert!(r.y >= l.board.y - 0.01 && r.y + r.h <= l.board.y + l.board.h + 0.01);
        }
        // Neighbours touch: the bottom row is contiguous.
        for i in 1..10 {
            let gap = spaces[i].x + spaces[i].w - spaces[i - 1].x;
            assert!(gap.abs() < 0.01, "space {i}: {gap}");
        }
    }

    #[test]
    fn small_tracks_fill_all_sides() {
        let board = Rect::new(0.0, 0.0, 400.0, 400.0);
        assert_eq!(track_spaces(board, 10).len(), 10);
        assert_eq!(side_counts(10), [3, 3, 2, 2]);
        assert_eq!(track_spaces(board, 3).len(), 3);
        // The ring is closed however few the spaces: every point along it, a little inside
        // the board's edge, lies in exactly one space.
        for n in 4..=12 {
            let spaces = track_spaces(board, n);
            for t in (1..400).step_by(7).map(|t| t as f32) {
                for point in [(t, 5.0), (t, 395.0), (5.0, t), (395.0, t)] {
                    let holding = spaces.iter().filter(|r| r.contains(point)).count();
                    assert_eq!(holding, 1, "{n} spaces, point {point:?}");
                }
            }
        }
    }

    /// Up to eight tokens on any classic space stay inside it, none over another nor over the
    /// space's name; on a space with buildings, none stands on the band where they are.
    #[test]
    fn tokens_fit_their_space_apart() {
        let l = Layout::new(1280.0, 800.0);
        let spaces = track_spaces(l.board, 40);
        for (i, r) in spaces.iter().enumerate() {
            let (side, corner) = track_side(40, i);
            for built in [false, true] {
                for count in 1..=8 {
                    let kind = (side, corner, built);
                    let spots: Vec<_> = (0..count)
                        .map(|slot| token_spot(*r, kind, (slot, count), 15.0))
                        .collect();
                    for (k, &(x, y, radius)) in spots.iter().enumerate() {
                        let at = format!("space {i}, {count} tokens, token {k}, built {built}");
                        assert!(radius >= 4.0, "{at}: radius {radius}");
                        let inside = Rect::new(x - radius, y - radius, 2.0 * radius, 2.0 * radius);
                        assert!(r.contains((inside.x, inside.y)), "{at}");
                        assert!(
                            r.contains((inside.x + inside.w, inside.y + inside.h)),
                            "{at}"
                        );
                        if built && !corner {
                            assert!(!band_split(*r, side).0.contains((x, y)), "{at}");
                        }
                        // No token hides the name, with or without a group band.
                        for grouped in [false, true] {
                            let label = label_box(*r, side, corner, grouped);
                            let overlap_x = (inside.x + inside.w).min(label.x + label.w)
                                - inside.x.max(label.x);
                            let overlap_y = (inside.y + inside.h).min(label.y + label.h)
                                - inside.y.max(label.y);
                            assert!(overlap_x <= 0.5 || overlap_y <= 0.5, "{at}: {label:?}");
                        }
                        for &(ox, oy, _) in &spots[..k] {
                            let apart = ((x - ox).powi(2) + (y - oy).powi(2)).sqrt();
                            assert!(apart >= 2.0 * radius, "{at}: {apart}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn grid_points_round_trip() {
        let l = Layout::new(1280.0, 800.0);
        let g = GridGeom::new(l.board, 15, 15, true);
        let (x, y) = g.center(7, 9);
        assert_eq!(g.cell_at((x + 3.0, y - 3.0)), Some((7, 9)));
        assert_eq!(g.cell_at((l.board.x + 1.0, l.board.y + 1.0)), None);
    }
}
