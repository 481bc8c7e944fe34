//! The shared helpers of `scripts/` on exact positions: scripts/grid.lua's walks, flanks,
//! flips and counts (on the Reversi fixture in tests/games/reversi, which has no `scripts/`
//! beside its games folder and so gets the built-in copies), where their errors point, and a
//! `scripts/` folder on disk beside the games folder, read first and reloaded when edited.

mod common;
use common::*;
use meeple::def::load_package;
use meeple::engine::Game;
use meeple::reload::Watcher;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The Reversi fixture on a `size`×`size` board (its four stones crossed in the middle).
fn reversi(size: i64) -> Game {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/reversi");
    let pkg =
        Arc::new(load_package(&root).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))));
    start_with(&pkg, "board", 2, 1, &[&format!("size={size}")])
}

/// An empty 8×8 board with `stones` (row, col, seat) on it.
fn board(stones: &[(i64, i64, i64)]) -> Game {
    let mut g = reversi(8);
    let mut code =
        String::from("for i = 1, 64 do ctx.grid:set((i - 1) // 8 + 1, (i - 1) % 8 + 1, nil) end ");
    for (r, c, p) in stones {
        code.push_str(&format!("ctx.grid:set({r}, {c}, {p}) "));
    }
    exec(&mut g, &code);
    g
}

fn grid_eval(g: &Game, expr: &str) -> serde_json::Value {
    eval(
        g,
        &format!("(function() local grid = require('grid') return {expr} end)()"),
    )
}

/// P1 is to play (4, 4): P2's stones flanked up-left, right and down-left; an open line up,
/// a line to the edge on the left, P1's own stone just below.
const AROUND_4_4: &[(i64, i64, i64)] = &[
    (3, 3, 2),
    (2, 2, 1),
    (3, 4, 2),
    (2, 4, 2),
    (4, 5, 2),
    (4, 6, 2),
    (4, 7, 1),
    (4, 3, 2),
    (4, 2, 2),
    (4, 1, 2),
    (5, 3, 2),
    (6, 2, 1),
    (5, 4, 1),
];

#[test]
fn flanked_lists_the_closed_lines_in_every_direction_nearest_first() {
    let g = board(AROUND_4_4);
    assert_eq!(
        grid_eval(&g, "grid.flanked(ctx, 4, 4, 1)"),
        json!([[3, 3], [4, 5], [4, 6], [5, 3]])
    );
    // For P2 the same cell closes nothing: P1's stones next to it are not followed by P2's.
    assert_eq!(grid_eval(&g, "#grid.flanked(ctx, 4, 4, 2)"), json!(0));
    // A corner looks only inward, and an open line flanks nothing.
    assert_eq!(grid_eval(&g, "#grid.flanked(ctx, 1, 4, 1)"), json!(0));
}

#[test]
fn flip_turns_the_flanked_stones_and_count_sees_it() {
    let mut g = board(AROUND_4_4);
    assert_eq!(
        grid_eval(&g, "{ grid.count(ctx, 1), grid.count(ctx, 2) }"),
        json!([4, 9])
    );
    let turned = exec(
        &mut g,
        "local grid = require('grid') return grid.flip(ctx, grid.flanked(ctx, 4, 4, 1), 1)",
    );
    assert_eq!(turned, json!(4));
    assert_eq!(
        grid_eval(&g, "{ grid.count(ctx, 1), grid.count(ctx, 2) }"),
        json!([8, 5])
    );
    // Flipping turns stones over: the board holds as many as before.
    assert_eq!(eval(&g, "ctx.grid:stones()"), json!(13));
    for (r, c) in [(3, 3), (4, 5), (4, 6), (5, 3)] {
        assert_eq!(
            eval(&g, &format!("ctx.grid:get({r}, {c})")),
            json!(1),
            "({r}, {c})"
        );
    }
    assert_eq!(
        eval(&g, "ctx.grid:get(4, 4)"),
        json!(null),
        "flip does not place"
    );
    assert_eq!(
        eval(&g, "ctx.grid:get(4, 3)"),
        json!(2),
        "the line to the edge stays"
    );
}

#[test]
fn walk_stops_at_the_edge_of_the_board() {
    let g = board(AROUND_4_4);
    let walked = |from: &str| {
        grid_eval(
            &g,
            &format!("(function() local out = {{}} for r, c, s in grid.walk(ctx, {from}) do out[#out + 1] = {{ r, c, s or 0 }} end return out end)()"),
        )
    };
    assert_eq!(walked("4, 6, 0, 1"), json!([[4, 7, 1], [4, 8, 0]]));
    assert_eq!(
        walked("4, 4, 0, -1"),
        json!([[4, 3, 2], [4, 2, 2], [4, 1, 2]])
    );
    assert_eq!(grid_eval(&g, "(function() local n = 0 for _ in grid.walk(ctx, 1, 1, -1, -1) do n = n + 1 end return n end)()"), json!(0));
    assert_eq!(walked("8, 1, -1, 1").as_array().unwrap().len(), 7);
}

#[test]
fn cells_inside_and_by_index() {
    let g = reversi(8);
    assert_eq!(
        grid_eval(&g, "{ grid.inside(ctx, 0, 1), grid.inside(ctx, 8, 8), grid.inside(ctx, 9, 1), grid.inside(ctx, 1, -1) }"),
        json!([false, true, false, false])
    );
    assert_eq!(grid_eval(&g, "{ grid.cell(ctx, 10) }"), json!([2, 2]));
    assert_eq!(grid_eval(&g, "{ grid.cell(ctx, 64) }"), json!([8, 8]));
}

#[test]
fn empty_options_list_the_empty_cells_row_by_row() {
    let g = reversi(4);
    let options = grid_eval(&g, "ctx.grid:empty_options()");
    let options = options.as_array().unwrap();
    assert_eq!(options.len(), 12);
    assert_eq!(options[0], json!(["place", 1, 1]));
    assert_eq!(options[5], json!(["place", 2, 4]));
    assert_eq!(options[11], json!(["place", 4, 4]));
    assert_eq!(
        grid_eval(&g, "ctx.grid:empty_options('drop')[1]"),
        json!(["drop", 1, 1])
    );
    assert_eq!(
        raised(&g, "ctx.grid:empty_options(3)"),
        json!("eval:1: empty_options: the verb must be a string")
    );
}

#[test]
fn place_stone_wins_on_a_line_draws_on_a_full_board_else_passes_the_turn() {
    let mut g = start("tictactoe", "board", 2, 1, &[]);
    let played = |g: &mut Game, code: &str| {
        exec(
            g,
            &format!("local grid = require('grid') return {{ {code}, ctx:current() }}"),
        )
    };
    assert_eq!(
        played(&mut g, "grid.place_stone(ctx, 1, 1, 1)"),
        json!([false, 2])
    );
    exec(&mut g, "ctx.grid:set(1, 2, 1)");
    assert_eq!(
        played(&mut g, "grid.place_stone(ctx, 1, 3, 1)"),
        json!([true, 2])
    );
    assert_eq!(
        g.outcome(),
        Some(meeple::core::event::Outcome::Won { winners: vec![0] })
    );

    // X O X / X O O / O X _ : the last cell, played as tic-tac-toe's move, makes no line and
    // fills the board.
    let mut g = start("tictactoe", "board", 2, 1, &[]);
    exec(&mut g, "local b = { {1, 2, 1}, {1, 2, 2}, {2, 1} } for r = 1, 3 do for c = 1, #b[r] do ctx.grid:set(r, c, b[r][c]) end end");
    act(&mut g, "place 3 3");
    assert_eq!(g.outcome(), Some(meeple::core::event::Outcome::Draw));
    assert!(g.pending().is_none());
}

/// placing_turn counts the moves in G.moves from 0, whether or not R.setup sets it.
#[test]
fn placing_turn_counts_moves_without_a_set_up() {
    let v = variant("tictactoe", "R.setup = function(G, ctx) end", "", None);
    let mut g = v.game("board", 2);
    assert_eq!(eval(&g, "G.moves"), json!(null));
    act(&mut g, "place 1 1");
    act(&mut g, "place 2 2");
    assert_eq!(eval(&g, "G.moves"), json!(2));
}

#[test]
fn an_error_inside_a_built_in_script_names_its_line_in_scripts() {
    let g = reversi(4);
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/grid.lua"))
            .unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("return r >= 1 and c >= 1"))
        .unwrap()
        + 1;
    assert_eq!(
        raised(&g, "require('grid').inside(ctx, nil, 1)"),
        json!(format!(
            "scripts/grid.lua:{line}: attempt to compare number with nil"
        ))
    );
    assert_eq!(
        g.eval("return require('nope')").unwrap_err().to_string(),
        "eval:1: error: module 'nope' not found (looked in tests/games/reversi/nope.lua; shared scripts: grid, hands)\n    in eval"
    );
}

#[test]
fn a_scripts_folder_beside_the_games_is_read_first_and_reloads() {
    let (tmp, root) = copy_game("tictactoe", "games/tictactoe");
    let shared = tmp.path().join("scripts/grid.lua");
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/grid.lua");
    let text = std::fs::read_to_string(built_in).unwrap();
    let with = |edition: i64| {
        text.replace(
            "\nreturn grid\n",
            &format!("\ngrid.edition = {edition}\nreturn grid\n"),
        )
    };
    std::fs::create_dir_all(shared.parent().unwrap()).unwrap();
    std::fs::write(&shared, with(1)).unwrap();
    let pkg =
        Arc::new(load_package(&root).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))));
    let mut g = start_with(&pkg, "board", 2, 1, &[]);
    assert_eq!(eval(&g, "require('grid').edition"), json!(1));
    let watcher = Watcher::for_game(&pkg).expect("watching");
    std::fs::write(&shared, with(2)).unwrap();
    let paths = watcher
        .requests
        .recv_timeout(Duration::from_secs(10))
        .expect("a reload request")
        .paths;
    assert!(
        paths.iter().any(|p| p.ends_with("scripts/grid.lua")),
        "{paths:?}"
    );
    let reloaded = g
        .try_reload()
        .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
    assert_ne!(
        reloaded.files_hash, pkg.files_hash,
        "the shared scripts are part of the rules"
    );
    assert_eq!(eval(&g, "require('grid').edition"), json!(2));
}
