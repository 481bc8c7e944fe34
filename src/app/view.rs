//! The board renderer for a map, chosen by the map's kind (a track of spaces, a grid, a table
//! of zones), and what can be clicked on it: the pending options that name a space, a cell or
//! a tile in the viewer's hand become click targets, the rest become buttons.

use super::anim::Anim;
use super::layout::{board_spaces, GridGeom, Layout, Rect};
use super::paint::Painter;
use super::tableview::TableView;
use super::{grid, track, zones};
use crate::core::action::{Action, Arg};
use crate::core::world::World;
use crate::def::board::Board;
use crate::def::style::{GridPlace, Style};
use macroquad::texture::Texture2D;

/// How a map is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// Spaces around a square (property games).
    Track,
    /// Rows × columns of cells or points (Gomoku, tic-tac-toe).
    Grid,
    /// Zones of tiles or cards around a table (Mahjong).
    Table,
}

impl BoardKind {
    pub fn of(board: &Board) -> BoardKind {
        match (&board.grid, board.kind.as_str()) {
            (Some(_), _) => BoardKind::Grid,
            (None, "table") => BoardKind::Table,
            (None, _) => BoardKind::Track,
        }
    }
}

/// A clickable place on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    Space(usize),
    /// 0-based row and column.
    Cell(usize, usize),
    /// Item `code` in `seat`'s pile of zone `zone` (any copy of it).
    Tile {
        zone: usize,
        seat: usize,
        code: i64,
    },
    /// The pile of shared zone `zone`, as a whole.
    Pile(usize),
}

/// Whether every spot of `some` is among `all`, a spot named twice needing two there (two
/// copies of a tile).
pub fn within(some: &[Spot], all: &[Spot]) -> bool {
    crate::core::zone::missing(all, some).is_empty()
}

/// Everything a renderer reads to draw one frame.
pub struct Frame<'a> {
    pub p: &'a Painter,
    pub layout: &'a Layout,
    pub style: &'a Style,
    pub board: &'a Board,
    pub world: &'a World,
    pub anim: &'a Anim,
    pub now: f64,
    /// Spots where a click does something now.
    pub targets: &'a [Spot],
    /// Tiles picked toward an option played with several, with their positions in their piles.
    pub picked: &'a [(Spot, usize)],
    /// Spaces to highlight briefly (changed by a reload).
    pub changed: &'a [usize],
    /// The last placed cell (grid), to mark.
    pub last: Option<(usize, usize)>,
    pub image: Option<&'a Texture2D>,
    /// The mouse, when a person is at the window (not in scripted screenshots).
    pub mouse: Option<(f32, f32)>,
    /// A table of zones as the viewer sees it.
    pub table: Option<&'a TableView>,
}

pub fn draw(kind: BoardKind, f: &Frame) {
    match kind {
        BoardKind::Track => track::draw(f),
        BoardKind::Grid => grid::draw(f),
        BoardKind::Table => zones::draw(f),
    }
}

/// The grid's geometry under a style.
pub fn grid_geom(layout: &Layout, world: &World, style: &Style) -> Option<GridGeom> {
    let g = world.grid.as_ref()?;
    Some(GridGeom::new(
        layout.board,
        g.rows,
        g.cols,
        style.grid == GridPlace::Points,
    ))
}

/// The spot under a window position, and its position in its pile (a tile's; else 0); on a
/// table, with the tiles picked so far (they stand lifted).
pub fn spot_at(
    kind: BoardKind,
    layout: &Layout,
    board: &Board,
    world: &World,
    style: &Style,
    table: Option<(&TableView, &[(Spot, usize)])>,
    pos: (f32, f32),
) -> Option<(Spot, usize)> {
    let spot = match kind {
        BoardKind::Track => board_spaces(layout.board, board.spaces.len(), board.looped)
            .iter()
            .position(|r: &Rect| r.contains(pos))
            .map(Spot::Space),
        BoardKind::Grid => grid_geom(layout, world, style)?
            .cell_at(pos)
            .map(|(r, c)| Spot::Cell(r, c)),
        BoardKind::Table => {
            let (table, picked) = table?;
            return zones::tile_at(layout, table, picked, pos);
        }
    };
    spot.map(|s| (s, 0))
}

/// The spot an option's arguments (or the place `R.spot` gives it) name, if any: a space id
/// among them (track), the first two integers as a 1-based row and column (grid); on a table,
/// see `TableView::spot_of`.
pub fn spot_of(kind: BoardKind, board: &Board, world: &World, args: &[Arg]) -> Option<Spot> {
    match kind {
        BoardKind::Table => None,
        BoardKind::Track => args.iter().find_map(|a| match a {
            Arg::Str(id) => board.space_index(id).map(Spot::Space),
            _ => None,
        }),
        BoardKind::Grid => {
            let g = world.grid.as_ref()?;
            let ints: Vec<i64> = args
                .iter()
                .filter_map(|a| match a {
                    Arg::Int(i) => Some(*i),
                    _ => None,
                })
                .collect();
            match ints[..] {
                [r, c, ..] if g.contains(r - 1, c - 1) => {
                    Some(Spot::Cell(r as usize - 1, c as usize - 1))
                }
                _ => None,
            }
        }
    }
}

/// The action a click on an empty spot would mean, to ask the rules why it is not allowed:
/// the verb the spot options use, with the spot as arguments.
pub fn action_for(spot: Spot, board: &Board, verb: &str) -> Action {
    match spot {
        Spot::Cell(r, c) => Action::new(verb)
            .with(Arg::Int(r as i64 + 1))
            .with(Arg::Int(c as i64 + 1)),
        Spot::Tile { code, .. } => Action::new(verb).with(Arg::Int(code)),
        Spot::Pile(_) => Action::new(verb),
        Spot::Space(i) => Action::new(verb).with(Arg::Str(
            board
                .spaces
                .get(i)
                .map(|s| s.id.clone())
                .unwrap_or_default(),
        )),
    }
}
