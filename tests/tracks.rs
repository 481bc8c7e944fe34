//! Track maps beyond a loop of plain spaces, through the Chutes fixture
//! (`tests/games/chutes`): a space's `jump` (a ladder, a chute) read in Lua as the index of
//! the space it leads to and shown in the terminal; a track that does not loop (`loop =
//! false`), where a move stops at the end and says by how much it overshot; and a long track
//! listing only the spaces with something on them.

mod common;
use common::*;
use meeple::engine::Game;
use std::path::{Path, PathBuf};

fn chutes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/chutes")
}

/// The terminal's picture of a game of `game` at the start (two people seated).
fn first_picture(game: &Path) -> String {
    let text = play_typed(game, "human,human", 1, "quit\n");
    let start = text.find("── ").expect("a picture");
    let end = text[start..].find("\n>P1").expect("the seats") + start;
    text[start..end].to_string()
}

#[test]
fn a_jump_is_the_index_of_the_space_it_leads_to() {
    let pkg = load_at(&chutes());
    let g = start_with(&pkg, "line", 2, 1, &[]);
    assert_eq!(
        eval(&g, "ctx.board.spaces[4].jump"),
        9,
        "square 3 climbs to 8"
    );
    assert_eq!(
        eval(&g, "ctx.board.spaces[11].jump"),
        5,
        "square 10 slides to 4"
    );
    assert_eq!(
        eval(&g, "ctx.board.spaces[2].jump"),
        serde_json::Value::Null
    );
    assert_eq!(eval(&g, "ctx.board.by_id.s3.jump"), 9);
}

/// The terminal shows each jump beside its space's name, and no owner or level column while
/// nothing is owned or built.
#[test]
fn the_terminal_shows_where_a_jump_leads() {
    let picture = first_picture(&chutes());
    let lines: Vec<&str> = picture.lines().skip(1).collect();
    assert_eq!(lines[0], "           tokens");
    assert_eq!(lines[1], "  1 Start  P1 P2");
    assert_eq!(lines[4], "  4 3 → 8");
    assert_eq!(lines[11], " 11 10 → 4");
    assert_eq!(lines.len(), 13, "{picture}");
}

/// A track of more than 40 spaces lists only those with something on them.
#[test]
fn a_long_track_lists_only_the_spaces_with_something_on_them() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("chutes");
    copy_dir(&chutes(), &game);
    let map = game.join("maps/line.toml");
    let mut text = std::fs::read_to_string(&map).unwrap();
    for i in 12..50 {
        text.push_str(&format!(
            "\n[[spaces]]\nid = \"x{i}\"\nname = \"{i}\"\nkind = \"plain\"\n"
        ));
    }
    std::fs::write(&map, text).unwrap();
    let picture = first_picture(&game);
    let lines: Vec<&str> = picture.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "          tokens",
            "  1 Start P1 P2",
            "    (49 other spaces, nothing on them)"
        ]
    );
}

/// On a line (`loop = false`) a move stops at the last space, or the first, and its third
/// value is the steps that went past; on a loop it goes round and counts the laps.
#[test]
fn a_move_on_a_line_stops_at_its_end_and_says_the_steps_over() {
    let pkg = load_at(&chutes());
    let mut g = start_with(&pkg, "line", 2, 1, &[]);
    let moved = |g: &mut Game, from: i64, steps: i64| {
        exec(
            g,
            &format!("ctx.board:place(1, {from}) return {{ ctx.board:move(1, {steps}) }}"),
        )
    };
    assert_eq!(moved(&mut g, 10, 5), serde_json::json!([12, 0, 3]));
    assert_eq!(moved(&mut g, 2, -4), serde_json::json!([1, 0, 3]));
    assert_eq!(moved(&mut g, 5, 4), serde_json::json!([9, 0, 0]));
    assert_eq!(
        moved(&mut g, 12, 3),
        serde_json::json!([12, 0, 3]),
        "at the end, it stays"
    );
    // advance_to goes forward only, and never round.
    let advanced = exec(
        &mut g,
        "ctx.board:place(1, 3) return { ctx.board:advance_to(1, 9) }",
    );
    assert_eq!(advanced, serde_json::json!([9, 0]));
    assert_eq!(
        raised(&g, "ctx.board:advance_to(1, 2)"),
        "eval:1: advance_to: space 2 is not ahead of P1 (on space 9) on a track that \
         does not loop; use place"
    );
    let mut loop_ = start("monopoly", "demo", 2, 1, &[]);
    assert_eq!(moved(&mut loop_, 1, 12), serde_json::json!([3, 1, 0]));
}

/// `loop` belongs to track maps: on a grid it is an error at the key.
#[test]
fn loop_on_a_grid_map_is_an_error() {
    let (_tmp, game) = copy_game("tictactoe", "ttt");
    let map = game.join("maps/board.toml");
    let text = std::fs::read_to_string(&map).unwrap();
    std::fs::write(&map, format!("{text}loop = false\n")).unwrap();
    let line = text.lines().count() + 1;
    let err = match meeple::def::load_package(&game) {
        Ok(_) => panic!("loaded"),
        Err(d) => meeple::diag::render(&d),
    };
    assert!(
        err.contains(&format!(
            "maps/board.toml:{line}:8: error: loop is for track maps: whether the last space leads back to the first"
        )),
        "{err}"
    );
}
