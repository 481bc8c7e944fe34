//! The board renderer for a map, chosen by the map's kind (a track of spaces, a grid; a table
//! of zones has no renderer yet and joins here as one more kind), and what can be clicked on
//! it: the pending options that name a space or a cell become click targets, the rest buttons.

use super::anim::Anim;
use super::layout::{track_spaces, GridGeom, Layout, Rect};
use super::paint::Painter;
use super::{grid, track};
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
}

impl BoardKind {
    /// The renderer for a map's kind; `None` for a kind the window cannot draw yet.
    pub fn of(board: &Board) -> Option<BoardKind> {
        match board.kind.as_str() {
            "track" => Some(BoardKind::Track),
            "grid" => Some(BoardKind::Grid),
            _ => None,
        }
    }
}

/// A clickable place on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    Space(usize),
    /// 0-based row and column.
    Cell(usize, usize),
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
    /// Spaces to highlight briefly (changed by a reload).
    pub changed: &'a [usize],
    /// The last placed cell (grid), to mark.
    pub last: Option<(usize, usize)>,
    pub image: Option<&'a Texture2D>,
    /// The mouse, when a person is at the window (not in scripted screenshots).
    pub mouse: Option<(f32, f32)>,
}

pub fn draw(kind: BoardKind, f: &Frame) {
    match kind {
        BoardKind::Track => track::draw(f),
        BoardKind::Grid => grid::draw(f),
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

/// The spot under a window position.
pub fn spot_at(
    kind: BoardKind,
    layout: &Layout,
    board: &Board,
    world: &World,
    style: &Style,
    pos: (f32, f32),
) -> Option<Spot> {
    match kind {
        BoardKind::Track => track_spaces(layout.board, board.spaces.len())
            .iter()
            .position(|r: &Rect| r.contains(pos))
            .map(Spot::Space),
        BoardKind::Grid => grid_geom(layout, world, style)?
            .cell_at(pos)
            .map(|(r, c)| Spot::Cell(r, c)),
    }
}

/// The spot an option names, if any: a space id among its arguments (track) or its first two
/// integer arguments as a 1-based row and column (grid).
pub fn spot_of(kind: BoardKind, board: &Board, world: &World, option: &Action) -> Option<Spot> {
    match kind {
        BoardKind::Track => option.args.iter().find_map(|a| match a {
            Arg::Str(id) => board.space_index(id).map(Spot::Space),
            _ => None,
        }),
        BoardKind::Grid => {
            let g = world.grid.as_ref()?;
            let ints: Vec<i64> = option
                .args
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
        Spot::Space(i) => Action::new(verb).with(Arg::Str(
            board
                .spaces
                .get(i)
                .map(|s| s.id.clone())
                .unwrap_or_default(),
        )),
    }
}
