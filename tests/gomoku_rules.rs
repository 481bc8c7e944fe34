//! Scenario tests of Gomoku's rules (map "board", 2 seats): each sets up an exact position
//! (stones played with `act`, or placed through `ctx.grid:set` with `G.moves` kept equal to the
//! number of stones), plays the deciding move and asserts the exact result.
//!
//! Rows and columns count from 1 as in the game; seats are 0-based in `Outcome` and
//! `Pending::seat`, 1-based in the grid cells (1 = P1 black, 2 = P2 white) and in the helpers.

mod common;
use common::*;
use meeple::ai::Seat;
use meeple::core::action::Action;
use meeple::core::event::{Event, Outcome};
use meeple::engine::{Game, GameError};

// Set-up and inspection helpers ---------------------------------------------------------------

fn new_game(settings: &[&str]) -> Game {
    start("gomoku", "board", 2, 1, settings)
}

/// Plays `moves` in order for whoever is to move (P1 first on a new game, then alternating).
fn play(g: &mut Game, moves: &[(i64, i64)]) {
    for (r, c) in moves {
        act(g, &format!("place {r} {c}"));
    }
}

/// Puts a stone of 1-based seat `p` on (r, c) without taking a turn; G.moves counts it.
fn stone(g: &mut Game, r: i64, c: i64, p: usize) {
    exec(
        g,
        &format!("ctx.grid:set({r}, {c}, {p}); G.moves = G.moves + 1"),
    );
}

fn stones(g: &mut Game, cells: &[(i64, i64)], p: usize) {
    for (r, c) in cells {
        stone(g, *r, *c, p);
    }
}

/// The cell at 1-based (r, c): 0 empty, else 1-based seat.
fn cell(g: &Game, r: usize, c: usize) -> u8 {
    let w = g.world().unwrap();
    let grid = w.grid.as_ref().expect("a grid map");
    grid.get(r - 1, c - 1)
}

fn stone_count(g: &Game) -> usize {
    g.world()
        .unwrap()
        .grid
        .as_ref()
        .expect("a grid map")
        .stones()
}

/// The 1-based seat that must decide, if any.
fn to_move(g: &Game) -> Option<usize> {
    g.pending().map(|p| p.seat + 1)
}

fn moves(g: &Game) -> i64 {
    eval(g, "G.moves").as_i64().unwrap()
}

fn won_by(seat: usize) -> Option<Outcome> {
    Some(Outcome::Won {
        winners: vec![seat - 1],
    })
}

/// What applying `text` for 0-based `seat` returns.
fn try_apply(g: &mut Game, seat: usize, text: &str) -> Result<(), GameError> {
    g.apply(seat, &Action::parse(text).unwrap())
}

fn rejected(text: &str) -> Result<(), GameError> {
    Err(GameError::Rejected(text.to_string()))
}

/// The events after the first `from`, as text.
fn events_from(g: &Game, from: usize) -> Vec<String> {
    g.events()[from..].iter().map(|e| e.to_string()).collect()
}

/// White stones far from everything, for P2 to play while P1 builds a line.
const FAR: [(i64, i64); 4] = [(15, 1), (15, 3), (13, 1), (13, 3)];

/// P1 plays `line` (the last stone is the deciding one), P2 answers with the FAR stones.
fn p1_builds(g: &mut Game, line: &[(i64, i64)]) {
    for (i, (r, c)) in line.iter().enumerate() {
        assert_eq!(to_move(g), Some(1));
        act(g, &format!("place {r} {c}"));
        if i + 1 < line.len() {
            assert!(!g.is_over(), "over after P1's stone {} of {line:?}", i + 1);
            let (fr, fc) = FAR[i];
            act(g, &format!("place {fr} {fc}"));
        }
    }
}

/// The heuristic AI's choice for whoever is to move, as "place R C".
fn heuristic_choice(g: &mut Game, seed: u64) -> String {
    let seat = g.pending().unwrap().seat;
    let choice = Seat::Heuristic(None)
        .bot(seed, seat)
        .unwrap()
        .choose(g)
        .unwrap();
    g.pending().unwrap().options()[choice.index].to_string()
}

/// The cells the heuristic AI rates best (all tied ones), as "place R C".
fn best_cells(g: &Game) -> Vec<String> {
    let (_, tied) = g.best_options(None).unwrap();
    let options = g.pending().unwrap().options();
    tied.iter().map(|i| options[*i].to_string()).collect()
}

// 1. Five in a row in each direction ----------------------------------------------------------

// Rule: five of one colour in a row horizontally wins; the move is logged and the game ends.
#[test]
fn five_in_a_row_horizontally_wins() {
    let mut g = new_game(&[]);
    p1_builds(&mut g, &[(8, 4), (8, 5), (8, 6), (8, 7), (8, 8)]);
    assert_eq!(g.outcome(), won_by(1));
    assert!(g.is_over());
    assert!(g.pending().is_none());
    assert_eq!(moves(&g), 9);
    assert_eq!(stone_count(&g), 9);
    for c in 4..=8 {
        assert_eq!(cell(&g, 8, c), 1);
    }
    let n = g.events().len();
    assert_eq!(
        events_from(&g, n - 3),
        vec![
            "P1 chose 'place 8 8'",
            "P1 places at (8, 8)",
            "game over: P1 won"
        ]
    );
    assert_eq!(
        g.events()[n - 1],
        Event::GameOver {
            outcome: Outcome::Won { winners: vec![0] }
        }
    );
}

// Rule: five in a row vertically wins.
#[test]
fn five_in_a_column_wins() {
    let mut g = new_game(&[]);
    p1_builds(&mut g, &[(3, 8), (4, 8), (6, 8), (7, 8), (5, 8)]);
    assert_eq!(g.outcome(), won_by(1));
    assert_eq!(moves(&g), 9);
}

// Rule: five on the down-right diagonal wins.
#[test]
fn five_on_the_main_diagonal_wins() {
    let mut g = new_game(&[]);
    p1_builds(&mut g, &[(4, 4), (5, 5), (6, 6), (8, 8), (7, 7)]);
    assert_eq!(g.outcome(), won_by(1));
}

// Rule: five on the down-left diagonal wins.
#[test]
fn five_on_the_anti_diagonal_wins() {
    let mut g = new_game(&[]);
    p1_builds(&mut g, &[(4, 12), (5, 11), (7, 9), (8, 8), (6, 10)]);
    assert_eq!(g.outcome(), won_by(1));
}

// Rule: the second player wins with five too (white, P2).
#[test]
fn white_wins_with_five() {
    let mut g = new_game(&[]);
    // Black scatters; white builds column 2 from row 1.
    play(
        &mut g,
        &[
            (8, 8),
            (1, 2),
            (8, 10),
            (2, 2),
            (10, 8),
            (3, 2),
            (10, 10),
            (4, 2),
            (12, 12),
        ],
    );
    assert!(!g.is_over());
    assert_eq!(to_move(&g), Some(2));
    act(&mut g, "place 5 2");
    assert_eq!(g.outcome(), won_by(2));
    assert_eq!(moves(&g), 10);
}

// Rule: lines along the board's edges and into its corners win like any other.
#[test]
fn five_along_the_edges_and_into_the_corners_wins() {
    let edge_lines: [(&str, [(i64, i64); 5]); 6] = [
        ("row 1", [(1, 11), (1, 12), (1, 13), (1, 14), (1, 15)]),
        (
            "column 15",
            [(11, 15), (12, 15), (13, 15), (14, 15), (15, 15)],
        ),
        (
            "column 1 from row 1",
            [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)],
        ),
        ("row 15", [(15, 7), (15, 8), (15, 9), (15, 10), (15, 11)]),
        (
            "diagonal into (15, 15)",
            [(11, 11), (12, 12), (13, 13), (14, 14), (15, 15)],
        ),
        (
            "anti-diagonal into (1, 15)",
            [(5, 11), (4, 12), (3, 13), (2, 14), (1, 15)],
        ),
    ];
    for (name, line) in edge_lines {
        let mut g = new_game(&[]);
        // White sits in the middle, away from every edge line.
        stones(&mut g, &[(7, 7), (7, 9), (9, 7), (9, 9)], 2);
        stones(&mut g, &line[..4], 1);
        assert_eq!(to_move(&g), Some(1), "{name}");
        let (r, c) = line[4];
        act(&mut g, &format!("place {r} {c}"));
        assert_eq!(g.outcome(), won_by(1), "{name}");
        assert_eq!(moves(&g), 9, "{name}");
    }

    // A diagonal out of the corner (1, 1), completed in its middle.
    let mut g = new_game(&[]);
    stones(&mut g, &[(7, 9), (9, 7), (9, 9), (10, 2)], 2);
    stones(&mut g, &[(1, 1), (2, 2), (4, 4), (5, 5)], 1);
    act(&mut g, "place 3 3");
    assert_eq!(g.outcome(), won_by(1));
}

// Rule: four in a row is not yet a win; stones of both colours do not join up.
#[test]
fn four_is_not_five_and_colours_do_not_mix() {
    let mut g = new_game(&[]);
    stones(&mut g, &[(8, 4), (8, 5), (8, 6), (8, 7)], 1);
    stones(&mut g, &[(8, 8), (1, 1), (1, 3), (1, 5)], 2);
    act(&mut g, "place 8 3"); // black: 8,3..8,7 is five
    assert_eq!(g.outcome(), won_by(1));

    let mut g = new_game(&[]);
    stones(&mut g, &[(8, 4), (8, 5), (8, 6)], 1);
    stones(&mut g, &[(8, 7), (1, 1), (1, 3)], 2);
    act(&mut g, "place 8 3"); // black four (8,3..8,6) capped by white at (8,7)
    assert!(!g.is_over());
    act(&mut g, "place 8 8"); // white: 8,7 and 8,8 only
    assert!(!g.is_over());
    assert_eq!(to_move(&g), Some(1));
    assert_eq!(moves(&g), 8);
}

// 2. Gaps -------------------------------------------------------------------------------------

// Rule: five stones of a colour in a row with a gap (x x . x x . x) is not five in a row; filling
// the gap then makes five and wins.
#[test]
fn a_gap_in_the_line_does_not_win_until_filled() {
    let mut g = new_game(&[]);
    p1_builds(&mut g, &[(8, 4), (8, 5), (8, 7), (8, 8), (8, 10)]);
    assert!(!g.is_over());
    assert_eq!(g.outcome(), None);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(moves(&g), 9);
    act(&mut g, "place 13 5");
    assert_eq!(to_move(&g), Some(1));
    act(&mut g, "place 8 6"); // x x x x x . x: exactly five, (8, 4) to (8, 8)
    assert_eq!(g.outcome(), won_by(1));
    assert_eq!(moves(&g), 11);
}

// 3. Overlines --------------------------------------------------------------------------------

/// Black: (8, 3) (8, 4) (8, 5) . (8, 7) (8, 8); white four stones far away; black to move.
fn six_to_be(settings: &[&str]) -> Game {
    let mut g = new_game(settings);
    stones(&mut g, &[(8, 3), (8, 4), (8, 5), (8, 7), (8, 8)], 1);
    stones(&mut g, &[(1, 1), (1, 3), (1, 5), (1, 7), (3, 1)], 2);
    assert_eq!(to_move(&g), Some(1));
    g
}

// Rule: under the default (freestyle) rule six in a row wins.
#[test]
fn overline_wins_under_freestyle() {
    let mut g = six_to_be(&[]);
    assert_eq!(eval(&g, "ctx.settings.rule"), "freestyle");
    act(&mut g, "place 8 6");
    assert_eq!(g.outcome(), won_by(1));
    assert_eq!(eval(&g, "ctx.grid:longest(8, 6, 1)"), 6);
}

// Rule: under rule=standard six in a row does not win; the game goes on with the other player.
#[test]
fn overline_does_not_win_under_standard() {
    let mut g = six_to_be(&["rule=standard"]);
    act(&mut g, "place 8 6");
    assert_eq!(g.outcome(), None);
    assert!(!g.is_over());
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(cell(&g, 8, 6), 1);
    assert_eq!(moves(&g), 11);
    // Nor does extending it to seven.
    act(&mut g, "place 3 3");
    act(&mut g, "place 8 9");
    assert_eq!(g.outcome(), None);
    assert_eq!(to_move(&g), Some(2));
}

// Rule: under rule=standard exactly five wins.
#[test]
fn exactly_five_wins_under_standard() {
    let mut g = new_game(&["rule=standard"]);
    stones(&mut g, &[(8, 4), (8, 5), (8, 7), (8, 8)], 1);
    stones(&mut g, &[(1, 1), (1, 3), (1, 5), (1, 7)], 2);
    act(&mut g, "place 8 6");
    assert_eq!(g.outcome(), won_by(1));

    // Five capped by a black stone one gap away is still exactly five: x x x x x . x
    let mut g = new_game(&["rule=standard"]);
    stones(&mut g, &[(8, 4), (8, 5), (8, 7), (8, 8), (8, 10)], 1);
    stones(&mut g, &[(1, 1), (1, 3), (1, 5), (1, 7), (3, 1)], 2);
    act(&mut g, "place 8 6");
    assert_eq!(g.outcome(), won_by(1));
}

// Rule: under rule=standard a stone that makes six one way and exactly five another wins.
#[test]
fn overline_and_five_at_once_wins_under_standard() {
    let mut g = six_to_be(&["rule=standard"]);
    stones(&mut g, &[(4, 6), (5, 6), (6, 6), (7, 6)], 1);
    stones(&mut g, &[(3, 3), (3, 5), (3, 7), (5, 1)], 2);
    act(&mut g, "place 8 6"); // six across, five down column 6 (rows 4 to 8)
    assert_eq!(g.outcome(), won_by(1));
}

// 4. Illegal moves ----------------------------------------------------------------------------

// Rule: placing on an occupied point is rejected with the reason and changes nothing.
#[test]
fn occupied_point_is_rejected_and_changes_nothing() {
    let mut g = new_game(&[]);
    play(&mut g, &[(8, 8)]);
    let before = g.snapshot().unwrap();
    let events = g.events().len();
    assert_eq!(
        try_apply(&mut g, 1, "place 8 8"),
        rejected("'place 8 8' is not allowed: (8, 8) is occupied")
    );
    assert_eq!(g.snapshot().unwrap(), before);
    assert_eq!(g.events().len(), events);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(cell(&g, 8, 8), 1);
    assert_eq!(g.pending().unwrap().len(), 224);
}

// Rule: points off the board are rejected with the board's size and change nothing.
#[test]
fn off_board_points_are_rejected_and_change_nothing() {
    let mut g = new_game(&[]);
    let before = g.snapshot().unwrap();
    for (text, reason) in [
        ("place 16 1", "(16, 1) is off the 15×15 board"),
        ("place 1 16", "(1, 16) is off the 15×15 board"),
        ("place 0 8", "(0, 8) is off the 15×15 board"),
        ("place 8 -1", "(8, -1) is off the 15×15 board"),
    ] {
        assert_eq!(
            try_apply(&mut g, 0, text),
            rejected(&format!("'{text}' is not allowed: {reason}"))
        );
        assert_eq!(g.snapshot().unwrap(), before, "{text}");
    }
    assert_eq!(stone_count(&g), 0);
    assert_eq!(to_move(&g), Some(1));
}

// Rule: anything but `place ROW COL` is rejected with the expected form.
#[test]
fn malformed_moves_are_rejected() {
    let mut g = new_game(&[]);
    let before = g.snapshot().unwrap();
    for text in ["place 8", "place", "pass", "place a b", "place 8 8.5"] {
        assert_eq!(
            try_apply(&mut g, 0, text),
            rejected(&format!(
                "'{text}' is not allowed: a move is 'place ROW COL'"
            )),
            "{text}"
        );
    }
    assert_eq!(g.snapshot().unwrap(), before);
}

// Rule: a move by the player whose turn it is not is rejected and changes nothing.
#[test]
fn moving_out_of_turn_is_rejected() {
    let mut g = new_game(&[]);
    let before = g.snapshot().unwrap();
    assert_eq!(
        try_apply(&mut g, 1, "place 8 8"),
        rejected("it is P1's turn, not P2's")
    );
    assert_eq!(g.snapshot().unwrap(), before);
    play(&mut g, &[(8, 8)]);
    assert_eq!(
        try_apply(&mut g, 0, "place 8 9"),
        rejected("it is P2's turn, not P1's")
    );
    assert_eq!(cell(&g, 8, 9), 0);
}

// Rule: once the game is over every move is rejected.
#[test]
fn no_move_after_the_game_is_over() {
    let mut g = new_game(&[]);
    p1_builds(&mut g, &[(8, 4), (8, 5), (8, 6), (8, 7), (8, 8)]);
    assert!(g.is_over());
    let before = g.snapshot().unwrap();
    for seat in [0, 1] {
        assert_eq!(
            try_apply(&mut g, seat, "place 9 9"),
            rejected("the game is over")
        );
    }
    assert_eq!(g.apply_index(0), rejected("the game is over"));
    assert_eq!(g.snapshot().unwrap(), before);
    assert_eq!(g.outcome(), won_by(1));
}

// 5. Draw -------------------------------------------------------------------------------------

// Rule: a full board without five in a row is a draw (a 4×4 board can never hold five).
#[test]
fn full_board_is_a_draw() {
    let mut g = new_game(&["size=4"]);
    assert_eq!(eval(&g, "ctx.grid.rows"), 4);
    assert_eq!(eval(&g, "ctx.grid.cols"), 4);
    assert_eq!(g.pending().unwrap().len(), 16);
    for i in 0..16 {
        assert!(!g.is_over(), "over before move {}", i + 1);
        assert_eq!(to_move(&g), Some(i % 2 + 1));
        assert_eq!(g.pending().unwrap().len(), 16 - i);
        let (r, c) = (i / 4 + 1, i % 4 + 1);
        act(&mut g, &format!("place {r} {c}"));
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert!(g.is_over());
    assert_eq!(moves(&g), 16);
    assert_eq!(stone_count(&g), 16);
    let n = g.events().len();
    assert_eq!(
        events_from(&g, n - 3),
        vec![
            "P2 chose 'place 4 4'",
            "P2 places at (4, 4)",
            "game over: draw"
        ]
    );
}

// Rule: a fifth stone on the last empty point wins rather than draws.
#[test]
fn five_on_the_last_point_wins_not_draws() {
    let mut g = new_game(&["size=5"]);
    // Rows 1-4, columns 1-4 alternate (black where row + column is odd); column 5 is black
    // down to row 4 and row 5 white up to column 4: twelve stones each, black to move.
    let black = [
        (1, 2),
        (1, 4),
        (2, 1),
        (2, 3),
        (3, 2),
        (3, 4),
        (4, 1),
        (4, 3),
        (1, 5),
        (2, 5),
        (3, 5),
        (4, 5),
    ];
    let white = [
        (1, 1),
        (1, 3),
        (2, 2),
        (2, 4),
        (3, 1),
        (3, 3),
        (4, 2),
        (4, 4),
        (5, 1),
        (5, 2),
        (5, 3),
        (5, 4),
    ];
    stones(&mut g, &black, 1);
    stones(&mut g, &white, 2);
    assert_eq!(moves(&g), 24);
    assert_eq!(options(&g), vec!["place 5 5"]);
    act(&mut g, "place 5 5");
    assert_eq!(g.outcome(), won_by(1));
}

// 6. Board size -------------------------------------------------------------------------------

// Rule: the size setting sets the board's side: size=19 gives 19×19 with 361 starting options.
#[test]
fn size_19_gives_a_19_by_19_board() {
    let mut g = new_game(&["size=19"]);
    assert_eq!(eval(&g, "ctx.grid.rows"), 19);
    assert_eq!(eval(&g, "ctx.grid.cols"), 19);
    assert_eq!(g.pending().unwrap().len(), 361);
    let opts = options(&g);
    assert_eq!(opts.first().map(String::as_str), Some("place 1 1"));
    assert_eq!(opts.last().map(String::as_str), Some("place 19 19"));
    {
        let w = g.world().unwrap();
        let grid = w.grid.as_ref().unwrap();
        assert_eq!((grid.rows, grid.cols, grid.cells.len()), (19, 19, 361));
    }
    assert_eq!(
        try_apply(&mut g, 0, "place 20 1"),
        rejected("'place 20 1' is not allowed: (20, 1) is off the 19×19 board")
    );
    // The far corner is playable and a diagonal into it wins.
    stones(&mut g, &[(15, 15), (16, 16), (17, 17), (18, 18)], 1);
    stones(&mut g, &[(1, 1), (1, 3), (1, 5), (1, 7)], 2);
    act(&mut g, "place 19 19");
    assert_eq!(g.outcome(), won_by(1));
}

// Rule: the default board is 15×15 with 225 starting options.
#[test]
fn default_board_is_15_by_15() {
    let g = new_game(&[]);
    assert_eq!(eval(&g, "ctx.grid.rows"), 15);
    assert_eq!(g.pending().unwrap().len(), 225);
    assert_eq!(to_move(&g), Some(1));
}

// 7. Undo and redo ----------------------------------------------------------------------------

// Rule: undo restores the exact state before a move, redo the exact state after it.
#[test]
fn undo_and_redo_restore_exact_states() {
    let mut g = new_game(&[]);
    g.enable_undo();
    let s0 = g.snapshot().unwrap();
    act(&mut g, "place 8 8");
    let s1 = g.snapshot().unwrap();
    act(&mut g, "place 7 7");
    let s2 = g.snapshot().unwrap();
    assert_ne!(s1, s0);
    assert_ne!(s2, s1);

    assert_eq!(g.undo(), Ok(true));
    assert_eq!(g.snapshot().unwrap(), s1);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(cell(&g, 7, 7), 0);
    assert_eq!(g.undo(), Ok(true));
    assert_eq!(g.snapshot().unwrap(), s0);
    assert_eq!(cell(&g, 8, 8), 0);
    assert_eq!(to_move(&g), Some(1));
    assert_eq!(g.pending().unwrap().len(), 225);
    assert_eq!(g.undo(), Ok(false));
    assert_eq!(g.snapshot().unwrap(), s0);

    assert_eq!(g.redo(), Ok(true));
    assert_eq!(g.snapshot().unwrap(), s1);
    assert_eq!(g.redo(), Ok(true));
    assert_eq!(g.snapshot().unwrap(), s2);
    assert_eq!(g.redo(), Ok(false));
    assert_eq!(to_move(&g), Some(1));
    assert_eq!(g.pending().unwrap().len(), 223);

    // A new move after an undo replaces what could be redone.
    assert_eq!(g.undo(), Ok(true));
    act(&mut g, "place 9 9");
    assert_eq!(cell(&g, 9, 9), 2);
    assert_eq!(cell(&g, 7, 7), 0);
    assert_eq!(g.redo(), Ok(false));
}

// Rule: undoing the winning move reopens the game; redoing it ends it again.
#[test]
fn undo_of_the_winning_move_reopens_the_game() {
    let mut g = new_game(&[]);
    g.enable_undo();
    p1_builds(&mut g, &[(8, 4), (8, 5), (8, 6), (8, 7)]);
    act(&mut g, "place 15 5");
    let before = g.snapshot().unwrap();
    act(&mut g, "place 8 8");
    let after = g.snapshot().unwrap();
    assert_eq!(g.outcome(), won_by(1));

    assert_eq!(g.undo(), Ok(true));
    assert_eq!(g.snapshot().unwrap(), before);
    assert_eq!(g.outcome(), None);
    assert!(!g.is_over());
    assert_eq!(to_move(&g), Some(1));
    assert_eq!(moves(&g), 8);

    assert_eq!(g.redo(), Ok(true));
    assert_eq!(g.snapshot().unwrap(), after);
    assert_eq!(g.outcome(), won_by(1));
    assert!(g.is_over());
}

// 8. The heuristic AI -------------------------------------------------------------------------

// Rule (AI): the first move goes to the centre.
#[test]
fn ai_opens_in_the_centre() {
    let mut g = new_game(&[]);
    assert_eq!(best_cells(&g), vec!["place 8 8"]);
    for seed in 0..4 {
        assert_eq!(heuristic_choice(&mut g, seed), "place 8 8");
    }
    let mut g = new_game(&["size=19"]);
    assert_eq!(heuristic_choice(&mut g, 7), "place 10 10");
}

// Rule (AI): with four of its own it completes five, even when the opponent has a four too.
#[test]
fn ai_takes_a_win_in_one() {
    let mut g = new_game(&[]);
    // Black four (8, 4)-(8, 7) capped at (8, 3); white four (3, 4)-(3, 7) open at (3, 8) only.
    stones(&mut g, &[(8, 4), (8, 5), (8, 6), (8, 7), (3, 3)], 1);
    stones(&mut g, &[(8, 3), (3, 4), (3, 5), (3, 6), (3, 7)], 2);
    assert_eq!(to_move(&g), Some(1));
    assert_eq!(best_cells(&g), vec!["place 8 8"]);
    assert_eq!(heuristic_choice(&mut g, 7), "place 8 8");
    let choice = heuristic_choice(&mut g, 7);
    act(&mut g, &choice);
    assert_eq!(g.outcome(), won_by(1));
}

// Rule (AI): it blocks the only point where the opponent's four (one end closed) would become five.
#[test]
fn ai_blocks_a_closed_four() {
    let mut g = new_game(&[]);
    // Black four down column 8, rows 4-7, capped by white at (3, 8): only (8, 8) finishes it.
    stones(&mut g, &[(4, 8), (5, 8), (6, 8), (7, 8), (12, 3)], 1);
    stones(&mut g, &[(3, 8), (10, 12), (11, 12), (12, 12)], 2);
    exec(&mut g, "ctx:next_player()");
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(best_cells(&g), vec!["place 8 8"]);
    assert_eq!(heuristic_choice(&mut g, 7), "place 8 8");
}

// Rule (AI): it blocks an opponent's open three at one of its two ends when it has nothing better.
#[test]
fn ai_blocks_an_open_three_at_an_end() {
    let mut g = new_game(&[]);
    // Black open three (8, 7) (8, 8) (8, 9); white has a lone stone far off.
    play(&mut g, &[(8, 8), (2, 2), (8, 7), (2, 14), (8, 9)]);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(best_cells(&g), vec!["place 8 6", "place 8 10"]);
    let mut seen = Vec::new();
    for seed in 0..16 {
        let text = heuristic_choice(&mut g, seed);
        assert!(
            text == "place 8 6" || text == "place 8 10",
            "seed {seed}: {text}"
        );
        if !seen.contains(&text) {
            seen.push(text);
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        vec!["place 8 10", "place 8 6"],
        "the tie is broken both ways"
    );
}

// Rule (AI): blocking an open three beats extending its own open two.
#[test]
fn ai_blocks_an_open_three_rather_than_build_its_own_two() {
    let mut g = new_game(&[]);
    // Black open three on the diagonal (6, 6) (7, 7) (8, 8); white open two (3, 10) (3, 11).
    stones(&mut g, &[(6, 6), (7, 7), (8, 8)], 1);
    stones(&mut g, &[(3, 10), (3, 11)], 2);
    exec(&mut g, "ctx:next_player()");
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(best_cells(&g), vec!["place 5 5", "place 9 9"]);
    let choice = heuristic_choice(&mut g, 7);
    assert!(
        ["place 5 5", "place 9 9"].contains(&choice.as_str()),
        "{choice}"
    );
}

// Rule (AI): making its own open four beats blocking the opponent's open three.
#[test]
fn ai_prefers_its_own_open_four_to_blocking_an_open_three() {
    let mut g = new_game(&[]);
    stones(&mut g, &[(8, 7), (8, 8), (8, 9)], 1);
    stones(&mut g, &[(3, 5), (3, 6), (3, 7)], 2);
    exec(&mut g, "ctx:next_player()");
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(best_cells(&g), vec!["place 3 4", "place 3 8"]);
}

/// White to move: black's four down column 8 (rows 4-7, capped at (3, 8)) must be blocked at
/// (8, 8); white's own x x x . x x on row 12 becomes six if (12, 5) is filled.
fn white_to_block_or_fill(settings: &[&str]) -> Game {
    let mut g = new_game(settings);
    stones(
        &mut g,
        &[(4, 8), (5, 8), (6, 8), (7, 8), (1, 15), (15, 15), (1, 11)],
        1,
    );
    stones(
        &mut g,
        &[(3, 8), (12, 2), (12, 3), (12, 4), (12, 6), (12, 7)],
        2,
    );
    exec(&mut g, "ctx:next_player()");
    assert_eq!(to_move(&g), Some(2));
    g
}

// Rule (AI): under freestyle it wins with six rather than block; under standard six does not
// win, so it blocks the opponent's four instead of making an overline.
#[test]
fn ai_knows_an_overline_wins_only_under_freestyle() {
    let mut g = white_to_block_or_fill(&[]);
    assert_eq!(best_cells(&g), vec!["place 12 5"]);
    act(&mut g, "place 12 5");
    assert_eq!(g.outcome(), won_by(2));

    let mut g = white_to_block_or_fill(&["rule=standard"]);
    assert_eq!(best_cells(&g), vec!["place 8 8"]);
    assert_eq!(heuristic_choice(&mut g, 7), "place 8 8");
}

// The grid calls' arguments at the edges of the integers, and saves whose grid is broken ------

#[test]
fn grid_calls_reject_extreme_integers_with_their_message() {
    let g = new_game(&[]);
    let caught = |code: &str| g.eval(&format!("return {{ pcall({code}) }}")).unwrap();
    assert_eq!(
        caught("ctx.grid.get, ctx.grid, math.mininteger, 1"),
        serde_json::json!([
            false,
            "cell (-9223372036854775808, 1) is off the 15×15 board"
        ])
    );
    assert_eq!(
        caught("ctx.grid.line, ctx.grid, 1, 1, math.mininteger, 0, 1"),
        serde_json::json!([
            false,
            "direction (-9223372036854775808, 0) is not a step to a neighbour"
        ])
    );
    assert_eq!(
        caught("ctx.grid.set, ctx.grid, 1, math.maxinteger, 1"),
        serde_json::json!([
            false,
            "cell (1, 9223372036854775807) is off the 15×15 board"
        ])
    );
}

#[test]
fn a_save_whose_grid_lost_a_cell_is_rejected() {
    let mut g = new_game(&[]);
    let mut snap = g.snapshot().unwrap();
    snap.world.grid.as_mut().unwrap().cells.pop();
    match g.restore(&snap) {
        Err(GameError::Rejected(m)) => assert_eq!(
            m,
            "the snapshot does not fit: world.grid.cells has 224 cells, not 225"
        ),
        other => panic!("expected a rejection, got {:?}", other.map(|_| ())),
    }
}
