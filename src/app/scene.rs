//! What the window shows of one position, read from the game once per position rather than
//! once per frame (reading the world back from the VM and calling the rules' `label` and
//! `status` hooks are the expensive parts of a frame): the world, the options with the board
//! spots each names, the buttons and their labels, each player's status lines, the last move,
//! whether a person is to move, where a click plays and which tiles are picked so far.

use super::tableview::TableView;
use super::view::{spot_of, within, BoardKind, Spot};
use crate::core::world::World;
use crate::engine::Game;

/// Board options up to this many also get buttons; more (a grid's points) are only clicked.
pub const FEW: usize = 6;

pub struct Scene {
    pub world: World,
    /// Every pending option with the spots it names: none (a button), one (a click plays it)
    /// or several tiles, picked together before its button plays it.
    pub options: Vec<(usize, Vec<Spot>)>,
    /// The spots picked so far, with their positions in their piles (see `Table::picked`).
    pub picked: Vec<(Spot, usize)>,
    /// Some option is played by picking several tiles.
    pub together: bool,
    /// Options offered as buttons: index and label.
    pub buttons: Vec<(usize, String)>,
    /// Options only reachable by clicking the board (those that take the picked spots).
    pub board_only: usize,
    /// The rules' status lines per seat.
    pub status: Vec<Vec<String>>,
    /// The grid cell of the last placement.
    pub last: Option<(usize, usize)>,
    /// "P1 to play (human) · state turn", or the outcome.
    pub state: String,
    /// A table of zones as the viewer sees it.
    pub table: Option<TableView>,
    /// Whether a person at the window is to move.
    pub human: bool,
    /// Spots where a click plays something now (none unless a person is to move).
    pub targets: Vec<Spot>,
    /// The first failure of the rules' `R.spot` (its options are shown as buttons instead).
    pub spot_error: Option<String>,
    /// The first failure of `R.label` or `R.status` at this position.
    pub problem: Option<String>,
}

impl Scene {
    /// Reads the scene; `picked` are the spots picked so far (the options that take them
    /// become buttons when few), `seats` the seat kinds as shown, `viewer` the seat whose view
    /// a table of zones shows.
    pub fn read(
        game: &mut Game,
        picked: &[(Spot, usize)],
        seats: &[String],
        human: bool,
        viewer: Option<usize>,
    ) -> Scene {
        let shown = game.shown(viewer);
        let world = game.shown_world().clone();
        let board = game.board().ok();
        let kind = board.map(BoardKind::of);
        let table = (kind == Some(BoardKind::Table)).then(|| TableView::read(game, &world, viewer));
        let options: Vec<(usize, Vec<Spot>)> = match (game.pending(), board, kind) {
            (Some(p), Some(board), Some(kind)) => (0..p.len())
                .map(|i| {
                    let spots = match &table {
                        Some(t) => t.spots_of(&shown.spots[i]),
                        None => spot_of(kind, board, &world, &shown.spots[i])
                            .into_iter()
                            .collect(),
                    };
                    (i, spots)
                })
                .collect(),
            (Some(p), _, _) => (0..p.len()).map(|i| (i, Vec::new())).collect(),
            _ => Vec::new(),
        };
        // A person's option placed on items they do not hold is a button; say why.
        let unheld = match (human, game.pending()) {
            (true, Some(p)) => (p.options().iter().enumerate())
                .find_map(|(i, action)| game.unheld(&world, p.seat, action, &shown.spots[i])),
            _ => None,
        };
        // The options still open to a click: all, or those that take the picked spots.
        let spots: Vec<Spot> = picked.iter().map(|p| p.0).collect();
        let fits = |s: &[Spot]| !s.is_empty() && within(&spots, s);
        let open = options.iter().filter(|(_, s)| fits(s)).count();
        let few = open <= FEW;
        let buttons = options
            .iter()
            .filter(|(_, s)| {
                let exact = spots.len() == s.len() && fits(s);
                human && (s.is_empty() || (fits(s) && (few || exact)))
            })
            .map(|(i, _)| (*i, shown.labels[*i].clone()))
            .collect();
        let state = match (game.outcome(), game.pending()) {
            (Some(o), _) => format!("game over: {o}"),
            (None, Some(p)) => format!(
                "P{} to play ({}) · state {}",
                p.seat + 1,
                seats.get(p.seat).map(|s| s.as_str()).unwrap_or("?"),
                game.state_name()
            ),
            (None, None) => game.state_name(),
        };
        let targets = match human {
            true => (options.iter().filter(|(_, s)| fits(s)))
                .flat_map(|(_, s)| s.iter().copied())
                .collect(),
            false => Vec::new(),
        };
        Scene {
            last: last_cell(&world),
            board_only: if few { 0 } else { open },
            together: options.iter().any(|(_, s)| s.len() > 1),
            picked: picked.to_vec(),
            world,
            options,
            buttons,
            status: shown.status,
            problem: shown.problem,
            state,
            table,
            human,
            targets,
            spot_error: shown.spot_error.or(unheld),
        }
    }
}

/// The grid cell of the last placement: the cell filled last (kept through undo and in save
/// files), while it still holds a piece.
fn last_cell(world: &World) -> Option<(usize, usize)> {
    let grid = world.grid.as_ref()?;
    grid.filled.filter(|(r, c)| grid.get(*r, *c) != 0)
}
