//! Scenario tests of the property game's rules: each sets up an exact position (forced dice,
//! positions and cash set through Lua) and asserts the exact result.

mod common;
use common::*;

#[test]
fn salary_is_paid_once_when_passing_the_start() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    exec(&mut g, "ctx.board:place(1, 8)");
    g.force_dice(&[1, 3]);
    act(&mut g, "roll");
    assert_eq!(position(&g, 1), 2);
    assert_eq!(cash(&g, 1), 1500 + 200);
}
