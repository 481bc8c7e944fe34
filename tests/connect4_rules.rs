//! Connect Four: discs fall to the lowest empty cell, a full column and a column off the rack
//! are refused with a reason, four in a row wins; `R.spot` places each drop on the cell its
//! disc lands on, which is where the window plays it, and `check` reads that hook strictly.

mod common;
use common::{act, options, start, variant};
use meeple::core::action::{Action, Arg};

#[test]
fn discs_fall_to_the_lowest_empty_cell() {
    let mut g = start("connect4", "rack", 2, 1, &[]);
    act(&mut g, "drop 4");
    act(&mut g, "drop 4");
    let grid = g.world().unwrap().grid.clone().expect("a grid");
    assert_eq!((grid.get(5, 3), grid.get(4, 3), grid.get(3, 3)), (1, 2, 0));
    assert_eq!(
        grid.filled,
        Some((4, 3)),
        "the last disc is the last cell filled"
    );
}

#[test]
fn a_full_column_and_one_off_the_rack_are_refused_with_the_reason() {
    let mut g = start("connect4", "rack", 2, 1, &[]);
    for _ in 0..6 {
        act(&mut g, "drop 1");
    }
    assert_eq!(
        options(&g),
        ["drop 2", "drop 3", "drop 4", "drop 5", "drop 6", "drop 7"]
    );
    let refused = |g: &mut meeple::engine::Game, text: &str| {
        let seat = g.pending().expect("a decision").seat;
        let action = Action::parse(text).expect("an action");
        g.apply(seat, &action).unwrap_err().to_string()
    };
    assert_eq!(
        refused(&mut g, "drop 1"),
        "rejected: 'drop 1' is not allowed: column 1 is full"
    );
    assert_eq!(
        refused(&mut g, "drop 8"),
        "rejected: 'drop 8' is not allowed: column 8 is off the rack (1 to 7)"
    );
    assert_eq!(
        refused(&mut g, "place 1 1"),
        "rejected: 'place 1 1' is not allowed: a move is 'drop COLUMN'"
    );
}

#[test]
fn four_in_a_column_wins() {
    let mut g = start("connect4", "rack", 2, 1, &[]);
    for text in [
        "drop 1", "drop 2", "drop 1", "drop 2", "drop 1", "drop 2", "drop 1",
    ] {
        act(&mut g, text);
    }
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("P1 won".into()));
}

/// The window plays a drop on the cell where its disc would land: `R.spot` gives the row and
/// column, which change as the column fills.
#[test]
fn each_drop_is_placed_on_the_cell_its_disc_lands_on() {
    let mut g = start("connect4", "rack", 2, 1, &[]);
    let place = |g: &mut meeple::engine::Game, i: usize| g.shown(Some(0)).spots[i].clone();
    assert_eq!(place(&mut g, 3), [Arg::Int(6), Arg::Int(4)]);
    act(&mut g, "drop 4");
    assert_eq!(place(&mut g, 3), [Arg::Int(5), Arg::Int(4)]);
    assert_eq!(place(&mut g, 0), [Arg::Int(6), Arg::Int(1)]);
    assert!(g.places_options());
    // A game without the hook places an option by its own arguments.
    let mut t = start("tictactoe", "board", 2, 1, &[]);
    assert!(!t.places_options());
    assert_eq!(place(&mut t, 4), [Arg::Int(2), Arg::Int(2)]);
}

/// A place that is not a cell of the grid is an error at the hook (at its `return`, when that
/// writes the place out), under `check` and where the window asks (which then shows the option as a button only); nil places it nowhere.
#[test]
fn a_spot_that_is_not_a_cell_of_the_grid_is_an_error() {
    // At the `return` that writes the place out (line 3), else at the hook (line 2).
    let wrong = [
        ("return 2.5, option[2]", 3, "R.spot returned a number (2.5), expected a row and column (a grid), a space id (a track) or a zone (a table)"),
        ("return 99, option[2]", 3, "R.spot returned (99, 1), off the 6×7 grid (rows 1 to 6, columns 1 to 7)"),
        ("return option[2]", 2, "R.spot returned (1), expected a row and a column of the grid"),
        ("return 'x'", 3, "R.spot returned ('x'), expected a row and a column of the grid"),
        ("return 6, option[2], 1", 3, "R.spot returned (6, 1, 1), expected a row and a column of the grid"),
    ];
    for (body, line, message) in wrong {
        let rules = format!("R.spot = function(G, ctx, option)\n  {body}\nend");
        let v = variant("connect4", &rules, "", None);
        let mut g = v.game("rack", 2);
        let err = g.check_shown().unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "/games/connect4/rules.lua:{line}: error: {message}\n"
            )),
            "{body}: {err}"
        );
        assert!(
            err.contains("in hook 'R.spot' (state 'turn', player 1, turn 1)"),
            "{err}"
        );
        let shown = g.shown(Some(0));
        let once = err.lines().map(str::trim).collect::<Vec<_>>().join(" · ");
        assert_eq!(
            shown.spot_error,
            Some(once),
            "the window is told once, and the options keep their own arguments"
        );
        assert_eq!(shown.spots[0], [Arg::Int(1)]);
    }
    let v = variant("connect4", "R.spot = function() return nil end", "", None);
    assert_eq!(v.game("rack", 2).shown(Some(0)).spots[0], Vec::<Arg>::new());
}
