//! Scenario tests of the property game's rules: each sets up an exact position (forced dice,
//! positions and cash set through Lua) and asserts the exact result.
//!
//! Demo map (1-based): 1 go, 2 beijing (north, ¥200, rent 20), 3 chance, 4 shanghai (north,
//! ¥200, rent 20), 5 tax (¥100), 6 guangzhou (south, ¥240, rent 25), 7 jail, 8 shenzhen (south,
//! ¥240, rent 25), 9 parking, 10 hangzhou (east, alone in its group, ¥280, rent 35). The salary
//! is ¥200; the demo map auctions nothing and releases from jail without the fine.
//! Demo chance deck (0-based): 0 advance_go, 1 advance_hangzhou, 2 go_back_3, 3 go_to_jail,
//! 4 get_out_of_jail, 5 bonus, 6 speeding_fine, 7 birthday.

mod common;
use common::*;
use meeple::ai::Seat;
use meeple::core::action::Action;
use meeple::core::event::{Event, Outcome};
use meeple::engine::Game;

const ADVANCE_GO: u16 = 0;
const ADVANCE_HANGZHOU: u16 = 1;
const GO_BACK_3: u16 = 2;
const GET_OUT_OF_JAIL: u16 = 4;

// Set-up and inspection helpers ---------------------------------------------------------------

/// Gives 1-based `seat` these spaces, recording the purchase order as a purchase would.
fn own(g: &mut Game, seat: usize, ids: &[&str]) {
    for id in ids {
        exec(
            g,
            &format!("R.acquire(G, ctx, ctx.board.by_id['{id}'].index, {seat})"),
        );
    }
}

fn set_level(g: &mut Game, id: &str, level: i64) {
    exec(g, &format!("ctx.board:set_level('{id}', {level})"));
}

fn set_cash(g: &mut Game, seat: usize, amount: i64) {
    exec(g, &format!("ctx.counter:set({seat}, 'cash', {amount})"));
}

/// Puts a 1-based seat's token on a 1-based space without passing or settling anything.
fn place(g: &mut Game, seat: usize, space: usize) {
    exec(g, &format!("ctx.board:place({seat}, {space})"));
}

fn jail(g: &mut Game, seat: usize) {
    exec(
        g,
        &format!("G.players[{seat}].in_jail = true; ctx.board:place({seat}, 'jail')"),
    );
}

fn roll(g: &mut Game, a: u32, b: u32) {
    g.force_dice(&[a, b]);
    act(g, "roll");
}

/// The 1-based seat that must decide, if any.
fn to_move(g: &Game) -> Option<usize> {
    g.pending().map(|p| p.seat + 1)
}

/// 1-based owner of a space.
fn owner(g: &Game, id: &str) -> Option<usize> {
    eval(g, &format!("ctx.board:owner('{id}')"))
        .as_u64()
        .map(|s| s as usize)
}

fn level(g: &Game, id: &str) -> i64 {
    eval(g, &format!("ctx.board:level('{id}')"))
        .as_i64()
        .unwrap()
}

fn in_jail(g: &Game, seat: usize) -> bool {
    eval(g, &format!("G.players[{seat}].in_jail"))
        .as_bool()
        .unwrap()
}

/// The rules' log lines so far, in order.
fn notes(g: &Game) -> Vec<String> {
    g.events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Note { text } => Some(text),
            _ => None,
        })
        .collect()
}

fn salary_notes(g: &Game) -> Vec<String> {
    notes(g)
        .into_iter()
        .filter(|n| n.contains("salary"))
        .collect()
}

/// Puts card `card` of board deck `deck` on top of its draw pile (taking it from wherever it is).
fn put_on_top(g: &mut Game, deck: usize, card: u16) {
    let mut snap = g.snapshot().unwrap();
    let d = &mut snap.world.decks[deck];
    assert!(
        d.held.iter().all(|(c, _)| *c != card),
        "card {card} is held"
    );
    d.pile.retain(|c| *c != card);
    d.discard.retain(|c| *c != card);
    d.pile.push(card);
    g.restore(&snap).unwrap();
}

/// A harmless turn for `seat` on the demo map: from the tax space (placed, not landed) a 4
/// reaches free parking.
fn idle_turn(g: &mut Game, seat: usize) {
    assert_eq!(to_move(g), Some(seat));
    let before = cash(g, seat);
    place(g, seat, 5);
    roll(g, 1, 3);
    assert_eq!(position(g, seat), 9);
    assert_eq!(cash(g, seat), before);
    assert_ne!(to_move(g), Some(seat));
}

// 1. Salary --------------------------------------------------------------------------------

// Rule: passing the start pays the salary once.
#[test]
fn salary_is_paid_once_when_passing_the_start() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    exec(&mut g, "ctx.board:place(1, 8)");
    g.force_dice(&[1, 3]);
    act(&mut g, "roll");
    assert_eq!(position(&g, 1), 2);
    assert_eq!(cash(&g, 1), 1500 + 200);
    assert_eq!(salary_notes(&g), vec!["P1 collects ¥200 salary"]);
}

// Rule: landing exactly on the start by dice pays the salary once (not once for reaching it and
// again for standing on it).
#[test]
fn salary_is_paid_once_when_landing_exactly_on_the_start() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    place(&mut g, 1, 8);
    roll(&mut g, 1, 2); // 8 + 3 = 11 → space 1
    assert_eq!(position(&g, 1), 1);
    assert_eq!(cash(&g, 1), 1700);
    assert_eq!(salary_notes(&g), vec!["P1 collects ¥200 salary"]);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(options(&g), vec!["roll"]);
}

// Rule: an advance_to-go card pays the salary once; a card move that does not reach the start
// pays nothing.
#[test]
fn salary_is_paid_once_when_a_card_advances_to_the_start() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    put_on_top(&mut g, 0, ADVANCE_GO);
    roll(&mut g, 1, 1); // go → chance (doubles: P1 rolls again)
    assert_eq!(position(&g, 1), 1);
    assert_eq!(cash(&g, 1), 1700);
    assert_eq!(salary_notes(&g), vec!["P1 collects ¥200 salary"]);
    assert_eq!(to_move(&g), Some(1));

    // advance_to hangzhou from the chance space does not pass the start: no salary.
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    put_on_top(&mut g, 0, ADVANCE_HANGZHOU);
    roll(&mut g, 1, 1);
    assert_eq!(position(&g, 1), 10);
    assert_eq!(cash(&g, 1), 1500);
    assert!(salary_notes(&g).is_empty());
}

// Rule: salary is per lap: passing the start by dice and then being sent round to it again by a
// card is two laps, paid once each.
#[test]
fn salary_is_paid_once_per_lap_when_dice_and_card_both_reach_the_start() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    put_on_top(&mut g, 0, ADVANCE_GO);
    place(&mut g, 1, 10);
    roll(&mut g, 1, 2); // 10 → 3 (chance) passing the start, then the card → 1
    assert_eq!(position(&g, 1), 1);
    assert_eq!(cash(&g, 1), 1500 + 200 + 200);
    assert_eq!(
        salary_notes(&g),
        vec!["P1 collects ¥200 salary", "P1 collects ¥200 salary"]
    );
}

// 2. Jail ----------------------------------------------------------------------------------

/// P1, jailed, rolls no doubles for two turns, stays put, then rolls a third time.
fn third_jail_turn(settings: &[&str]) -> Game {
    let mut g = start("monopoly", "demo", 2, 1, settings);
    jail(&mut g, 1);
    assert_eq!(options(&g), vec!["roll", "pay_fine"]);
    for _ in 0..2 {
        roll(&mut g, 1, 2);
        assert_eq!(position(&g, 1), 7);
        assert!(in_jail(&g, 1));
        assert_eq!(cash(&g, 1), 1500);
        idle_turn(&mut g, 2);
    }
    roll(&mut g, 1, 2); // third turn: released, moves 7 → 10
    assert!(!in_jail(&g, 1));
    assert_eq!(position(&g, 1), 10);
    assert_eq!(options(&g), vec!["buy hangzhou", "pass"]);
    assert_eq!(to_move(&g), Some(1));
    g
}

// Rule: a jailed player without doubles stays put on turns 1 and 2 and is released on turn 3
// (jail_turns), moving by that roll.
#[test]
fn jailed_player_stays_two_turns_then_is_released_on_the_third() {
    let g = third_jail_turn(&[]);
    assert_eq!(cash(&g, 1), 1500);
    assert_eq!(
        notes(&g).last().map(String::as_str),
        Some("P1 has served the sentence")
    );
}

// Rule (release_fine, on for the classic map): released on turn 3, the player pays the fine.
#[test]
fn release_fine_charges_the_fine_on_the_third_turn() {
    let g = third_jail_turn(&["release_fine=true"]);
    assert_eq!(cash(&g, 1), 1450);
    assert_eq!(
        notes(&g).last().map(String::as_str),
        Some("P1 has served the sentence and pays ¥50")
    );
}

// Rule: doubles release a jailed player at once and move them by the roll (no extra roll).
#[test]
fn jailed_player_rolling_doubles_leaves_and_moves() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    jail(&mut g, 1);
    roll(&mut g, 1, 1); // 7 → 9
    assert!(!in_jail(&g, 1));
    assert_eq!(position(&g, 1), 9);
    assert_eq!(cash(&g, 1), 1500);
    assert_eq!(to_move(&g), Some(2));
}

// Rule: pay_fine releases a jailed player for jail_fine; they then roll and move normally.
#[test]
fn jailed_player_paying_the_fine_leaves_and_rolls() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    jail(&mut g, 1);
    act(&mut g, "pay_fine");
    assert!(!in_jail(&g, 1));
    assert_eq!(cash(&g, 1), 1450);
    assert_eq!(to_move(&g), Some(1));
    assert_eq!(options(&g), vec!["roll"]);
    roll(&mut g, 1, 2);
    assert_eq!(position(&g, 1), 10);
    assert_eq!(options(&g), vec!["buy hangzhou", "pass"]);
}

// Rule: a held get-out-of-jail card (drawn from the chance deck) releases a jailed player for
// free and goes back to the deck.
#[test]
fn jailed_player_using_a_card_leaves_and_returns_the_card() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    put_on_top(&mut g, 0, GET_OUT_OF_JAIL);
    roll(&mut g, 1, 1); // go → chance: P1 keeps the card, rolls again (doubles)
    assert_eq!(g.world().unwrap().decks[0].held, vec![(GET_OUT_OF_JAIL, 0)]);
    assert_eq!(to_move(&g), Some(1));
    roll(&mut g, 1, 2); // 3 → 6 guangzhou
    act(&mut g, "pass");
    let said = g.events().last().map(|e| e.to_string());
    assert_eq!(said.as_deref(), Some("P1 does not buy 广州骑楼"));
    idle_turn(&mut g, 2);

    jail(&mut g, 1);
    assert_eq!(options(&g), vec!["roll", "pay_fine", "use_card"]);
    act(&mut g, "use_card");
    assert!(!in_jail(&g, 1));
    assert_eq!(cash(&g, 1), 1500);
    assert!(g.world().unwrap().decks[0].held.is_empty());
    assert!(g.world().unwrap().decks[0]
        .discard
        .contains(&GET_OUT_OF_JAIL));
    assert_eq!(options(&g), vec!["roll"]);
    roll(&mut g, 1, 2);
    assert_eq!(position(&g, 1), 10);
}

// 3. Card moves settle the space like dice moves ------------------------------------------

// Rule: advance_to an unowned property offers to buy it, as a dice landing would.
#[test]
fn card_move_to_unowned_property_offers_to_buy() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    put_on_top(&mut g, 0, ADVANCE_HANGZHOU);
    place(&mut g, 1, 10);
    roll(&mut g, 1, 2); // 10 → 3 (passing the start), card → 10
    assert_eq!(position(&g, 1), 10);
    assert_eq!(cash(&g, 1), 1700);
    assert_eq!(options(&g), vec!["buy hangzhou", "pass"]);
    act(&mut g, "buy hangzhou");
    assert_eq!(cash(&g, 1), 1700 - 280);
    assert_eq!(owner(&g, "hangzhou"), Some(1));
    assert_eq!(to_move(&g), Some(2));
}

// Rule: advance_to a property owned by another player charges the same rent as a dice landing.
#[test]
fn card_move_to_owned_property_charges_rent_like_a_dice_move() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    own(&mut g, 2, &["hangzhou"]);
    put_on_top(&mut g, 0, ADVANCE_HANGZHOU);
    place(&mut g, 1, 9);
    roll(&mut g, 1, 3); // 9 → 3 (passing the start), card → 10
    assert_eq!(position(&g, 1), 10);
    assert_eq!(cash(&g, 1), 1500 + 200 - 35);
    assert_eq!(cash(&g, 2), 1535);
    assert_eq!(to_move(&g), Some(2));

    idle_turn(&mut g, 2);
    place(&mut g, 1, 7);
    roll(&mut g, 1, 2); // the same space by dice
    assert_eq!(position(&g, 1), 10);
    assert_eq!(cash(&g, 1), 1665 - 35);
    assert_eq!(cash(&g, 2), 1570);
}

// Rule: a go_back card settles the space it lands on too (rent), and moving back pays no salary.
#[test]
fn go_back_card_settles_the_space_it_lands_on() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    own(&mut g, 2, &["hangzhou"]);
    put_on_top(&mut g, 0, GO_BACK_3);
    place(&mut g, 1, 9);
    roll(&mut g, 1, 3); // 9 → 3 (passing the start), back 3 → 10
    assert_eq!(position(&g, 1), 10);
    assert_eq!(cash(&g, 1), 1500 + 200 - 35);
    assert_eq!(cash(&g, 2), 1535);
    assert_eq!(salary_notes(&g).len(), 1);
}

// 4. Rent ----------------------------------------------------------------------------------

/// P2 holds what `setup` gives; P1 then comes from free parking to beijing (passing the start).
fn p1_lands_on_beijing(settings: &[&str], setup: impl FnOnce(&mut Game)) -> Game {
    let settings: Vec<&str> = ["salary=200"].iter().chain(settings).copied().collect();
    let mut g = start("monopoly", "demo", 2, 1, &settings);
    setup(&mut g);
    place(&mut g, 1, 9);
    roll(&mut g, 1, 2); // 9 → 2
    assert_eq!(position(&g, 1), 2);
    g
}

// Rule: the base rent is the first entry of the space's rent array.
#[test]
fn rent_base() {
    let g = p1_lands_on_beijing(&[], |g| own(g, 2, &["beijing"]));
    assert_eq!(cash(&g, 1), 1700 - 20);
    assert_eq!(cash(&g, 2), 1520);
    assert_eq!(to_move(&g), Some(2));
}

// Rule: an unbuilt property whose owner holds the whole group charges monopoly_multiplier × rent.
#[test]
fn rent_doubled_for_a_whole_group_without_houses() {
    let g = p1_lands_on_beijing(&[], |g| own(g, 2, &["beijing", "shanghai"]));
    assert_eq!(cash(&g, 1), 1700 - 40);
    assert_eq!(cash(&g, 2), 1540);

    let g = p1_lands_on_beijing(&["monopoly_multiplier=3"], |g| {
        own(g, 2, &["beijing", "shanghai"])
    });
    assert_eq!(cash(&g, 1), 1700 - 60);
}

// Rule: a whole group has two or more spaces: the owner of a one-space group (hangzhou) gets
// the plain rent and cannot build.
#[test]
fn a_one_space_group_is_never_whole() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    own(&mut g, 2, &["hangzhou"]);
    place(&mut g, 1, 7);
    roll(&mut g, 1, 2); // 7 → 10
    assert_eq!(cash(&g, 1), 1500 - 35);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(options(&g), vec!["roll", "mortgages"]);
    assert_eq!(
        eval(&g, "R.holds_whole(ctx, 2, ctx.board.by_id.hangzhou)"),
        false
    );
}

// Rule: with houses the rent is rent[level + 1] (not multiplied).
#[test]
fn rent_grows_with_houses() {
    for (houses, rent) in [(1, 150), (3, 1100), (4, 1500)] {
        let g = p1_lands_on_beijing(&[], |g| {
            own(g, 2, &["beijing", "shanghai"]);
            set_level(g, "beijing", houses);
            set_level(g, "shanghai", houses);
        });
        assert_eq!(cash(&g, 1), 1700 - rent, "{houses} houses");
        assert_eq!(cash(&g, 2), 1500 + rent, "{houses} houses");
    }
}

// Rule: rent stops growing at max_level, and building is no longer offered there.
#[test]
fn rent_and_building_are_capped_at_max_level() {
    let mut g = p1_lands_on_beijing(&["max_level=2"], |g| {
        own(g, 2, &["beijing", "shanghai"]);
        set_level(g, "beijing", 4);
        set_level(g, "shanghai", 1);
    });
    assert_eq!(cash(&g, 1), 1700 - 450); // rent at level 2, not 1500 (level 4)
    assert_eq!(cash(&g, 2), 1950);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(options(&g), vec!["roll", "buildings"]);
    act(&mut g, "buildings");
    assert_eq!(options(&g), vec!["build shanghai", "back"]);
    act(&mut g, "build shanghai");
    assert_eq!(level(&g, "shanghai"), 2);
    assert_eq!(cash(&g, 2), 1850);
    // Nothing is left to build: the menu closes by itself.
    assert_eq!(options(&g), vec!["roll"]);
}

// 5. Cannot pay ----------------------------------------------------------------------------

// Rule: a player short of cash mortgages first (last bought first, a space of a group without
// buildings), and stops as soon as the debt can be paid; buildings stay.
#[test]
fn cannot_pay_mortgages_before_selling() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    own(&mut g, 1, &["beijing", "shanghai", "guangzhou"]);
    set_level(&mut g, "beijing", 2);
    set_level(&mut g, "shanghai", 1);
    own(&mut g, 2, &["hangzhou"]); // rent 35
    set_cash(&mut g, 1, 0);
    place(&mut g, 1, 7);
    roll(&mut g, 1, 2); // 7 → 10
                        // 0 → 120 (guangzhou mortgaged: the north group has buildings) → pays 35.
    assert_eq!(cash(&g, 1), 85);
    assert_eq!(cash(&g, 2), 1535);
    assert_eq!(eval(&g, "G.mortgaged.guangzhou"), true);
    assert_eq!((level(&g, "beijing"), level(&g, "shanghai")), (2, 1));
    assert_eq!(
        notes(&g),
        vec![
            "P1 pays ¥35 rent to P2 for 杭州西湖",
            "P1 mortgages 广州骑楼 for ¥120",
        ]
    );
}

// Rule: with nothing left to mortgage the player sells buildings (the highest first, last
// bought first on ties) at half the house cost; a group left without buildings is then
// mortgaged too.
#[test]
fn cannot_pay_sells_buildings_then_mortgages_the_bare_group() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    own(&mut g, 1, &["beijing", "shanghai"]);
    set_level(&mut g, "beijing", 2);
    set_level(&mut g, "shanghai", 1);
    own(&mut g, 2, &["hangzhou"]);
    set_level(&mut g, "hangzhou", 1); // rent 250
    set_cash(&mut g, 1, 0);
    place(&mut g, 1, 7);
    roll(&mut g, 1, 2);
    // 0 → 50 (beijing 2→1) → 100 (tie at 1: shanghai, bought last) → 150 (beijing 1→0)
    // → 250 (shanghai mortgaged) → pays 250.
    assert_eq!(cash(&g, 1), 0);
    assert_eq!(cash(&g, 2), 1750);
    assert_eq!((level(&g, "beijing"), level(&g, "shanghai")), (0, 0));
    assert_eq!(owner(&g, "shanghai"), Some(1));
    assert_eq!(eval(&g, "G.mortgaged.shanghai"), true);
    assert_eq!(eval(&g, "G.mortgaged.beijing"), serde_json::Value::Null);
    assert_eq!(
        notes(&g),
        vec![
            "P1 pays ¥250 rent to P2 for 杭州西湖",
            "P1 sells a building on 北京胡同",
            "P1 sells a building on 上海弄堂",
            "P1 sells a building on 北京胡同",
            "P1 mortgages 上海弄堂 for ¥100",
        ]
    );
    assert!(g.world().unwrap().in_play[0]);
}

// Rule: still short after mortgaging and selling everything → bankrupt at once: properties
// freed, out of turn order, the creditor gets what they had, never asked to act again.
#[test]
fn cannot_pay_after_selling_everything_is_bankruptcy() {
    let mut g = start("monopoly", "demo", 3, 7, &[]);
    own(&mut g, 1, &["beijing", "shanghai"]);
    set_level(&mut g, "beijing", 2);
    set_level(&mut g, "shanghai", 1);
    put_on_top(&mut g, 0, GET_OUT_OF_JAIL);
    exec(
        &mut g,
        "ctx.deck:keep('chance', ctx.deck:draw('chance'), 1)",
    );
    own(&mut g, 2, &["hangzhou"]);
    set_level(&mut g, "hangzhou", 3); // rent 1100
    set_cash(&mut g, 1, 100);
    place(&mut g, 1, 7);
    let before = g.snapshot().unwrap();
    roll(&mut g, 1, 2);
    // 100 → 250 (three buildings) → 350 (shanghai mortgaged) → 450 (beijing) < 1100.
    assert_eq!(cash(&g, 1), 0);
    assert_eq!(eval(&g, "ctx:active_count()"), serde_json::json!(2));
    assert_eq!(cash(&g, 2), 1500 + 450);
    assert_eq!(eval(&g, "next(G.mortgaged)"), serde_json::Value::Null);
    assert_eq!(cash(&g, 3), 1500);
    assert_eq!(g.world().unwrap().in_play, vec![false, true, true]);
    assert!(g
        .world()
        .unwrap()
        .board
        .owners
        .iter()
        .all(|o| *o != Some(0)));
    assert_eq!(level(&g, "beijing"), 0);
    assert_eq!(level(&g, "shanghai"), 0);
    assert!(
        g.world().unwrap().decks[0].held.is_empty(),
        "the held card goes back to the deck"
    );
    assert!(g.events().contains(&Event::Eliminated { seat: 0 }));
    assert_eq!(
        notes(&g).last().map(String::as_str),
        Some("P1 is bankrupt (rent)")
    );
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(g.outcome(), None);

    for _ in 0..60 {
        let Some(p) = g.pending() else { break };
        assert_ne!(p.seat, 0, "a bankrupt player is never asked to act");
        let choice = if options(&g).contains(&"pass".to_string()) {
            "pass"
        } else {
            "roll"
        };
        act(&mut g, choice);
    }
    assert!(g.world().unwrap().turn >= 10);
    assert_eq!(cash(&g, 1), 0);
    g.restore(&before).unwrap();
    assert_eq!(eval(&g, "ctx:active_count()"), serde_json::json!(3));
}

// Rule: a debt to the bank (tax) that cannot be paid also bankrupts; nobody receives the money.
#[test]
fn cannot_pay_the_bank_is_bankruptcy_too() {
    let mut g = start("monopoly", "demo", 3, 1, &[]);
    set_cash(&mut g, 1, 60);
    place(&mut g, 1, 2);
    roll(&mut g, 1, 2); // 2 → 5 tax $100
    assert_eq!(cash(&g, 1), 0);
    assert_eq!(cash(&g, 2), 1500);
    assert_eq!(cash(&g, 3), 1500);
    assert_eq!(g.world().unwrap().in_play, vec![false, true, true]);
    assert_eq!(to_move(&g), Some(2));
}

// 6. End of the game -----------------------------------------------------------------------

// Rule: the game ends when one player remains; that player wins.
#[test]
fn last_player_standing_wins() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    own(&mut g, 2, &["hangzhou"]); // rent 35
    set_cash(&mut g, 1, 10);
    place(&mut g, 1, 7);
    roll(&mut g, 1, 2);
    assert_eq!(cash(&g, 2), 1510);
    assert_eq!(g.world().unwrap().in_play, vec![false, true]);
    assert_eq!(g.outcome(), Some(Outcome::Won { winners: vec![1] }));
    assert!(g.pending().is_none());
    assert!(g.is_over());
}

// The runtime lists each group's spaces, in board order, for the rules' group checks.
#[test]
fn board_groups_list_each_groups_spaces_in_board_order() {
    let g = start("monopoly", "classic", 2, 1, &[]);
    let indices = "local out = {} \
        for name, list in pairs(ctx.board.groups) do \
          local at = {} \
          for _, sp in ipairs(list) do at[#at + 1] = sp.index end \
          out[name] = table.concat(at, ',') \
        end \
        return out";
    assert_eq!(
        g.eval(indices).unwrap(),
        serde_json::json!({
            "brown": "2,4", "light_blue": "7,9,10", "pink": "12,14,15", "orange": "17,19,20",
            "red": "22,24,25", "yellow": "27,28,30", "green": "32,33,35", "dark_blue": "38,40",
            "railroad": "6,16,26,36", "utility": "13,29"
        })
    );
    assert_eq!(
        eval(&g, "ctx.board.groups.brown[2] == ctx.board.by_id.baltic"),
        true
    );
    assert_eq!(
        eval(&g, "ctx.board.groups.nowhere"),
        serde_json::Value::Null
    );
    assert_eq!(
        eval(&g, "table.concat(ctx.board.group_names, ',')"),
        "brown,railroad,light_blue,pink,utility,orange,red,yellow,green,dark_blue"
    );
}

// The runtime moves a counter's amount from one seat to another in one call (a payment).
#[test]
fn counter_transfer_moves_an_amount_between_seats() {
    let mut g = start("monopoly", "demo", 3, 1, &[]);
    let moved = exec(&mut g, "return {ctx.counter:transfer(1, 3, 'cash', 200)}");
    assert_eq!(moved, serde_json::json!([1300, 1700]));
    let back = exec(&mut g, "return {ctx.counter:transfer(3, 1, 'cash', 2.0)}");
    assert_eq!(back, serde_json::json!([1698, 1302]));
    assert_eq!(eval(&g, "math.type(ctx.counters.cash[1])"), "integer");
    let fails = |code: &str| g.eval(code).unwrap_err().to_string();
    for (code, message) in [
        (
            "'cash', 2.5",
            "a counter transfer must be an integer, got 2.5",
        ),
        (
            "'cash', '7'",
            "a counter transfer must be an integer, got the string \"7\"",
        ),
        (
            "'gold', 5",
            "unknown counter 'gold' (game.toml declares: cash)",
        ),
    ] {
        let err = fails(&format!("ctx.counter:transfer(1, 2, {code})"));
        assert!(err.contains(&format!("eval:1: error: {message}")), "{err}");
    }
    let err = fails("ctx.counter:add(1, 'cash', '7')");
    assert!(
        err.contains("eval:1: error: a counter change must be an integer, got the string \"7\""),
        "{err}"
    );
    let err = fails("ctx.counter:transfer(1, 9, 'cash', 5)");
    assert!(
        err.contains("eval:1: error: seat 9 out of range (1..3)"),
        "{err}"
    );
}

// While a game records no events its log lines are dropped and ctx.logging is false (a call
// with a dot is still an error); recording again, they are kept (and a bad format is an error
// again).
#[test]
fn log_lines_follow_the_recording_switch() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    g.set_record_events(false);
    assert_eq!(eval(&g, "ctx.logging"), serde_json::json!(false));
    exec(&mut g, "ctx:log('quiet %d', 1)");
    let err = g.eval("ctx.log('quiet %d', 1)").unwrap_err().to_string();
    assert!(
        err.contains("'log' is a method: call it with a colon"),
        "{err}"
    );
    g.set_record_events(true);
    assert_eq!(eval(&g, "ctx.logging"), serde_json::json!(true));
    exec(&mut g, "ctx:log('loud %d', 2)");
    assert_eq!(notes(&g), ["loud 2"]);
    let err = g.eval("ctx:log('%d', 'x')").unwrap_err().to_string();
    assert!(err.contains("ctx:log(\"%d\"): bad argument #2"), "{err}");
    // A line reads the same in every run: no value whose text is its address, and a text.
    let err = g.eval("ctx:log('%s', {})").unwrap_err().to_string();
    assert!(
        err.contains(
            "ctx:log: argument 2 is a table, whose text is its address and differs from run \
             to run: give its fields"
        ),
        "{err}"
    );
    let err = g.eval("ctx:log(nil)").unwrap_err().to_string();
    assert!(
        err.contains("ctx:log: expected a text (a string), got nil"),
        "{err}"
    );
    exec(
        &mut g,
        "ctx:log('%s', setmetatable({}, {__tostring = function() return 'T' end}))",
    );
    assert_eq!(notes(&g), ["loud 2", "T"]);
}

// ctx:tell logs a line for one seat, as ctx:log formats it; its arguments are counted after
// the seat, and a seat that is none is an error. Only that seat is shown it.
#[test]
fn a_told_line_is_one_seats() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    g.set_record_events(true);
    g.drain_events();
    exec(&mut g, "ctx:tell(2, 'you hold %d cards', 3)");
    let told = g.drain_events();
    assert_eq!(
        told,
        [Event::Told {
            seat: 1,
            text: "you hold 3 cards".into()
        }]
    );
    assert_eq!(told[0].to_string(), "(P2 only) you hold 3 cards");
    let seen: Vec<bool> = [None, Some(0), Some(1)]
        .map(|v| told[0].seen_by(v))
        .to_vec();
    assert_eq!(seen, [false, false, true]);
    let err = g.eval("ctx:tell(1, '%s', {})").unwrap_err().to_string();
    assert!(
        err.contains("ctx:tell: argument 3 is a table, whose text is its address"),
        "{err}"
    );
    let err = g.eval("ctx:tell(3, 'x')").unwrap_err().to_string();
    assert!(
        err.contains("eval:1: error: seat 3 out of range (1..2)"),
        "{err}"
    );
    // Not recording, it does nothing.
    g.set_record_events(false);
    exec(&mut g, "ctx:tell(1, 'quiet')");
    assert!(g.drain_events().is_empty());
}

// Rule: at the round cap the game stops unfinished, with no winner.
#[test]
fn round_cap_stops_the_game_unfinished() {
    let mut g = start("monopoly", "demo", 2, 1, &["round_cap=2"]);
    // Round 1: both go 1 → 4 (shanghai, not bought); round 2: both 4 → 7 (jail, visiting).
    for (seat, to) in [(1, 4), (2, 4), (1, 7), (2, 7)] {
        assert_eq!(g.outcome(), None);
        assert_eq!(to_move(&g), Some(seat));
        roll(&mut g, 1, 2);
        assert_eq!(position(&g, seat), to);
        if options(&g).contains(&"pass".to_string()) {
            act(&mut g, "pass");
        }
    }
    assert_eq!(g.outcome(), Some(Outcome::Capped { round: 2 }));
    assert!(g.pending().is_none());
    assert_eq!(g.world().unwrap().in_play, vec![true, true]);
}

// 7. Cards -----------------------------------------------------------------------------------

fn draw_ids(g: &mut Game, deck: &str, n: usize) -> Vec<String> {
    let code = format!(
        "local ids = {{}} for i = 1, {n} do ids[i] = ctx.deck:draw('{deck}').id end return ids"
    );
    let v = exec(g, &code);
    let mut ids: Vec<String> = serde_json::from_value(v).unwrap();
    ids.sort();
    ids
}

fn card_ids(g: &Game, deck: &str) -> Vec<String> {
    let v = eval(g, &format!("(function() local t = {{}} for i, c in ipairs(ctx.decks.{deck}.cards) do t[i] = c.id end return t end)()"));
    let mut ids: Vec<String> = serde_json::from_value(v).unwrap();
    ids.sort();
    ids
}

// Rule: cards are drawn without replacement: N draws from a fresh N-card deck give every card
// once; only then is the discard reshuffled.
#[test]
fn cards_are_drawn_without_replacement() {
    let mut g = start("monopoly", "demo", 2, 3, &[]);
    let all = card_ids(&g, "chance");
    assert_eq!(all.len(), 8);
    assert_eq!(draw_ids(&mut g, "chance", 8), all);
    assert!(g.world().unwrap().decks[0].pile.is_empty());
    assert_eq!(g.world().unwrap().decks[0].discard.len(), 8);
    assert!(!g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Shuffle { .. })));
    draw_ids(&mut g, "chance", 1);
    assert!(g.events().contains(&Event::Shuffle {
        deck: "机会卡".into()
    }));
    // The log names the deck and reads the card's text, as the players do.
    let texts: Vec<String> = serde_json::from_value(eval(
        &g,
        "(function() local t = {} \
        for _, c in ipairs(ctx.decks.chance.cards) do t[#t + 1] = c.text end return t end)()",
    ))
    .unwrap();
    let drawn = g.events().iter().rev().find_map(|e| match e {
        Event::Draw { deck, card, .. } => Some((deck.clone(), card.clone())),
        _ => None,
    });
    let (deck, card) = drawn.expect("a draw was logged");
    assert_eq!(deck, "机会卡");
    assert!(texts.contains(&card), "{card}");

    let mut g = start("monopoly", "classic", 4, 3, &[]);
    for (deck, n) in [("chance", 16), ("community", 16)] {
        let all = card_ids(&g, deck);
        assert_eq!(all.len(), n);
        assert_eq!(draw_ids(&mut g, deck, n), all, "{deck}");
    }
}

/// A draw is credited to the seat whose turn it is: the one that acted, then, once the turn
/// passes, the next one.
#[test]
fn a_draw_is_credited_to_the_seat_whose_turn_it_is() {
    let mut g = start("monopoly", "demo", 2, 3, &["auction=false"]);
    let last_drawer = |g: &Game| {
        g.events().iter().rev().find_map(|e| match e {
            Event::Draw { seat, .. } => Some(*seat),
            _ => None,
        })
    };
    roll(&mut g, 1, 2);
    exec(&mut g, "ctx.deck:draw('chance')");
    assert_eq!(last_drawer(&g), Some(Some(0)));
    exec(&mut g, "ctx:next_player() ctx.deck:draw('chance')");
    assert_eq!(last_drawer(&g), Some(Some(1)));
    // A token placed where it stands has not moved.
    let moves = |g: &Game| {
        (g.events().iter())
            .filter(|e| matches!(e, Event::Move { .. }))
            .count()
    };
    let before = moves(&g);
    exec(
        &mut g,
        "ctx.board:place(2, ctx.board:position(2)) ctx.board:move(2, 0)",
    );
    assert_eq!(moves(&g), before);
}

// 8. Doubles ---------------------------------------------------------------------------------

// Rule (classic): the third doubles in one turn sends the player to jail without moving.
#[test]
fn three_doubles_send_to_jail_without_moving() {
    let mut g = start("monopoly", "classic", 2, 1, &["auction=false"]);
    roll(&mut g, 3, 3); // go → 7 oriental
    assert_eq!(position(&g, 1), 7);
    act(&mut g, "pass");
    assert_eq!(to_move(&g), Some(1));
    roll(&mut g, 4, 4); // 7 → 15 virginia
    assert_eq!(position(&g, 1), 15);
    act(&mut g, "pass");
    assert_eq!(to_move(&g), Some(1));
    g.drain_events();
    roll(&mut g, 5, 5); // third doubles: jail (space 11), not 25
    assert_eq!(position(&g, 1), 11);
    let moves: Vec<Event> = g
        .events()
        .into_iter()
        .filter(|e| matches!(e, Event::Move { .. }))
        .collect();
    assert_eq!(
        moves,
        vec![Event::Move {
            seat: 0,
            to: "Jail / Just Visiting".into(),
            laps: 0
        }]
    );
    assert!(in_jail(&g, 1));
    assert_eq!(cash(&g, 1), 1500);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(eval(&g, "G.players[1].doubles"), serde_json::json!(0));
    // The log says why the roll of 10 went to jail.
    assert_eq!(
        notes(&g),
        ["P1 rolls doubles 3 times in a row", "P1 goes to jail"]
    );
}

// Rule (classic): two doubles then a non-double is an ordinary turn; the count starts again next turn.
#[test]
fn two_doubles_then_a_plain_roll_do_not_jail() {
    let mut g = start("monopoly", "classic", 2, 1, &["auction=false"]);
    roll(&mut g, 3, 3); // → 7
    act(&mut g, "pass");
    roll(&mut g, 4, 4); // → 15
    act(&mut g, "pass");
    roll(&mut g, 2, 3); // → 20 new york
    assert_eq!(position(&g, 1), 20);
    assert!(!in_jail(&g, 1));
    act(&mut g, "pass");
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(eval(&g, "G.players[1].doubles"), serde_json::json!(0));
}

// 9. Building and mortgages (classic) ------------------------------------------------------------

// Rule: building needs the whole group, and goes evenly: only on a property with the fewest
// houses. It is done in a menu opened from the turn, one house at a time.
#[test]
fn building_needs_the_whole_group_and_goes_evenly() {
    let mut g = start("monopoly", "classic", 2, 1, &[]);
    own(&mut g, 1, &["oriental", "vermont"]);
    assert_eq!(options(&g), vec!["roll", "mortgages"]);

    own(&mut g, 1, &["connecticut"]);
    assert_eq!(options(&g), vec!["roll", "buildings", "mortgages"]);
    act(&mut g, "buildings");
    assert_eq!(
        options(&g),
        vec![
            "build oriental",
            "build vermont",
            "build connecticut",
            "back"
        ]
    );
    act(&mut g, "build vermont");
    assert_eq!(cash(&g, 1), 1450);
    assert_eq!(level(&g, "vermont"), 1);
    assert_eq!(
        options(&g),
        vec!["build oriental", "build connecticut", "back"]
    );
    let again = Action::parse("build vermont").unwrap();
    assert!(
        g.apply(0, &again).is_err(),
        "vermont already has more houses than oriental"
    );
    assert_eq!(cash(&g, 1), 1450);

    act(&mut g, "build oriental");
    assert_eq!(options(&g), vec!["build connecticut", "back"]);
    act(&mut g, "build connecticut");
    assert_eq!(cash(&g, 1), 1350);
    assert_eq!(
        options(&g),
        vec![
            "build oriental",
            "build vermont",
            "build connecticut",
            "back"
        ]
    );
    assert_eq!(
        (
            level(&g, "oriental"),
            level(&g, "vermont"),
            level(&g, "connecticut")
        ),
        (1, 1, 1)
    );
    act(&mut g, "back");
    // A group with buildings cannot be mortgaged.
    assert_eq!(options(&g), vec!["roll", "buildings"]);
}

// Rule: a mortgage pays half the price; a mortgaged property charges no rent; lifting it costs
// half the price plus 10%.
#[test]
fn mortgage_pays_half_charges_no_rent_and_costs_ten_percent_to_lift() {
    let mut g = start("monopoly", "classic", 2, 1, &["auction=false"]);
    own(&mut g, 1, &["oriental"]);
    assert_eq!(options(&g), vec!["roll", "mortgages"]);
    act(&mut g, "mortgages");
    assert_eq!(options(&g), vec!["mortgage oriental", "back"]);
    act(&mut g, "mortgage oriental");
    assert_eq!(cash(&g, 1), 1550);
    assert_eq!(options(&g), vec!["unmortgage oriental", "back"]);
    act(&mut g, "back");
    roll(&mut g, 1, 2); // go → 4 baltic
    act(&mut g, "pass");

    roll(&mut g, 2, 4); // P2: go → 7 oriental, mortgaged: no rent
    assert_eq!(position(&g, 2), 7);
    assert_eq!(cash(&g, 2), 1500);
    assert_eq!(cash(&g, 1), 1550);

    assert_eq!(to_move(&g), Some(1));
    act(&mut g, "mortgages");
    g.drain_events();
    act(&mut g, "unmortgage oriental");
    assert_eq!(cash(&g, 1), 1550 - 55);
    assert_eq!(
        notes(&g),
        ["P1 lifts the mortgage on Oriental Avenue for $55"]
    );
    assert_eq!(options(&g), vec!["mortgage oriental", "back"]);
    act(&mut g, "back");
    roll(&mut g, 2, 3); // 4 → 9 vermont
    act(&mut g, "pass");

    place(&mut g, 2, 1);
    roll(&mut g, 2, 4); // P2 again on oriental: base rent 6
    assert_eq!(cash(&g, 2), 1494);
    assert_eq!(cash(&g, 1), 1501);
}

// Rule: the mortgage menu stays open while something is left to mortgage or lift; "back"
// returns to the turn.
#[test]
fn mortgage_menu_stays_open_until_back() {
    let mut g = start("monopoly", "classic", 2, 1, &[]);
    own(&mut g, 1, &["oriental", "vermont"]);
    act(&mut g, "mortgages");
    assert_eq!(
        options(&g),
        vec!["mortgage oriental", "mortgage vermont", "back"]
    );
    act(&mut g, "mortgage vermont");
    assert_eq!(cash(&g, 1), 1550);
    assert_eq!(
        options(&g),
        vec!["mortgage oriental", "unmortgage vermont", "back"]
    );
    act(&mut g, "back");
    assert_eq!(options(&g), vec!["roll", "mortgages"]);
    assert_eq!(to_move(&g), Some(1));
}

// 10. Auctions (classic) -------------------------------------------------------------------------

/// A 4-player classic game where P1 lands on oriental ($100) and declines it.
fn oriental_declined(cash_of: [i64; 4]) -> Game {
    let mut g = start("monopoly", "classic", 4, 1, &[]);
    for (seat, amount) in cash_of.iter().enumerate() {
        set_cash(&mut g, seat + 1, *amount);
    }
    roll(&mut g, 2, 4); // go → 7 oriental
    act(&mut g, "pass");
    g
}

// Rule (auction, on for the classic map): a declined purchase is auctioned; each other player
// bids once, unseen, in steps of auction_step percent of the price up to what they can pay;
// the highest bid buys it.
#[test]
fn a_declined_purchase_goes_to_the_highest_bid() {
    let mut g = oriental_declined([1500, 1500, 60, 1500]);
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(
        options(&g),
        vec!["bid 25", "bid 50", "bid 75", "bid 100", "pass"]
    );
    act(&mut g, "bid 50");
    assert_eq!(to_move(&g), Some(3));
    assert_eq!(options(&g), vec!["bid 25", "bid 50", "pass"]);
    act(&mut g, "bid 25");
    act(&mut g, "bid 75");
    assert_eq!(owner(&g, "oriental"), Some(4));
    assert_eq!(cash(&g, 4), 1500 - 75);
    assert_eq!(cash(&g, 2), 1500);
    assert_eq!(
        notes(&g).last().map(String::as_str),
        Some("P4 buys Oriental Avenue at auction for $75")
    );
    assert_eq!(to_move(&g), Some(2));
    assert_eq!(options(&g), vec!["roll"]);
}

// Rule: equal bids go to the bidder asked first (the player after the one who declined); a
// player who cannot pay the lowest bid only passes; nobody bidding leaves the space unowned.
#[test]
fn auction_ties_go_to_the_first_asked_and_no_bid_leaves_it_unowned() {
    let mut g = oriental_declined([1500, 1500, 10, 1500]);
    act(&mut g, "bid 50");
    assert_eq!(options(&g), vec!["pass"]);
    act(&mut g, "pass");
    act(&mut g, "bid 50");
    assert_eq!(owner(&g, "oriental"), Some(2));
    assert_eq!(cash(&g, 2), 1450);
    assert_eq!(cash(&g, 4), 1500);

    let mut g = oriental_declined([1500, 1500, 1500, 1500]);
    for _ in 0..3 {
        act(&mut g, "pass");
    }
    assert_eq!(owner(&g, "oriental"), None);
    assert_eq!(
        notes(&g).last().map(String::as_str),
        Some("nobody bids for Oriental Avenue")
    );
    assert_eq!(to_move(&g), Some(2));
}

// Through seeded random games on both maps (auctions, building, mortgages, raising cash and
// bankruptcy included), after every decision: buildings stand only on whole groups of two or
// more spaces held by one player, evenly (levels within one), with no mortgaged space; every
// mortgaged space is owned; nobody's cash is negative. MEEPLE_MONOPOLY_GAMES raises the count.
#[test]
fn holdings_stay_lawful_through_random_games() {
    let games = games_from_env("MEEPLE_MONOPOLY_GAMES", 6);
    let lawful = "for _, name in ipairs(ctx.board.group_names) do \
          local list, low, high, owner, mortgaged = ctx.board.groups[name], 99, 0, nil, false \
          for _, sp in ipairs(list) do \
            local level = ctx.board.levels[sp.index] \
            low, high = math.min(low, level), math.max(high, level) \
            if G.mortgaged[sp.id] then mortgaged = true end \
            if G.mortgaged[sp.id] and not ctx.board.owners[sp.index] then return sp.id .. ' mortgaged, unowned' end \
            if level > 0 then owner = owner or ctx.board.owners[sp.index] end \
          end \
          if high > 0 then \
            if #list < 2 then return name .. ': built on a one-space group' end \
            if mortgaged then return name .. ': built with a mortgage' end \
            if high - low > 1 then return name .. ': uneven' end \
            for _, sp in ipairs(list) do \
              if ctx.board.owners[sp.index] ~= owner then return name .. ': built, not whole' end \
            end \
          end \
        end \
        for p = 1, ctx:seats() do \
          if ctx.counters.cash[p] < 0 then return 'P' .. p .. ' owes' end \
        end \
        return 'lawful'";
    let (mut bankruptcies, mut built, mut mortgaged) = (0, 0, 0);
    for map in ["demo", "classic"] {
        for seed in 1..=games {
            eprintln!("map {map}, seed {seed}");
            let mut g = start("monopoly", map, 3, seed, &["round_cap=60"]);
            let mut bots: Vec<_> = (0..3).map(|s| Seat::Random.bot(seed, s)).collect();
            while let Some(p) = g.pending() {
                let choice = bots[p.seat].as_mut().unwrap().choose(&mut g).unwrap();
                g.apply_index(choice.index).unwrap();
                assert_eq!(g.eval(lawful).unwrap(), "lawful");
                mortgaged += (eval(&g, "next(G.mortgaged) ~= nil") == true) as u32;
            }
            bankruptcies += eval(&g, "G.bankruptcies").as_u64().unwrap();
            built += eval(&g, "G.houses_built").as_u64().unwrap();
        }
    }
    assert!(
        bankruptcies > 0 && built > 0 && mortgaged > 0,
        "{bankruptcies} bankruptcies, {built} buildings, {mortgaged} positions with a mortgage"
    );
}

// 11. Settings ---------------------------------------------------------------------------------

// Rule: --set salary=300 pays 300 when passing the start.
#[test]
fn salary_setting_override_pays_300() {
    let mut g = start("monopoly", "demo", 2, 1, &["salary=300"]);
    place(&mut g, 1, 8);
    roll(&mut g, 1, 3);
    assert_eq!(position(&g, 1), 2);
    assert_eq!(cash(&g, 1), 1800);
    assert_eq!(salary_notes(&g), vec!["P1 collects ¥300 salary"]);
}

// 12. Map settings -------------------------------------------------------------------------------

// Rule: a map's [settings] replace the game's for that board; --set still wins over both.
#[test]
fn map_settings_override_game_settings() {
    let auction =
        |map: &str, set: &[&str]| eval(&start("monopoly", map, 2, 1, set), "ctx.settings.auction");
    assert_eq!(auction("demo", &[]), false);
    assert_eq!(auction("classic", &[]), true);
    assert_eq!(auction("classic", &["auction=false"]), false);
}

// 13. The board's owned spaces ---------------------------------------------------------------------

// ctx.board:owned_by lists a player's spaces in board order, whatever the order of purchase;
// the list is the caller's to change; it follows sales, bankruptcy and a restored snapshot.
#[test]
fn owned_by_lists_spaces_in_board_order_and_follows_every_change() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    let owned = |g: &Game, p: usize| eval(g, &format!("ctx.board:owned_by({p})"));
    own(&mut g, 1, &["hangzhou", "beijing", "shenzhen"]);
    own(&mut g, 2, &["shanghai"]);
    assert_eq!(owned(&g, 1), serde_json::json!([2, 8, 10]));
    let snap = g.snapshot().unwrap();

    exec(
        &mut g,
        "local l = ctx.board:owned_by(1); l[1] = 99; table.remove(l)",
    );
    assert_eq!(owned(&g, 1), serde_json::json!([2, 8, 10]));
    exec(&mut g, "ctx.board:set_owner('shenzhen', 2)");
    exec(&mut g, "ctx.board:set_owner('beijing', nil)");
    assert_eq!(owned(&g, 1), serde_json::json!([10]));
    assert_eq!(owned(&g, 2), serde_json::json!([4, 8]));
    // A float index names the same space, and the list holds its integer.
    exec(&mut g, "ctx.board:set_owner(6.0, 2)");
    assert_eq!(owned(&g, 2), serde_json::json!([4, 6, 8]));

    g.restore(&snap).unwrap();
    assert_eq!(owned(&g, 1), serde_json::json!([2, 8, 10]));
    assert_eq!(owned(&g, 2), serde_json::json!([4]));
}

// ctx.board:group_owned counts a seat's spaces in a space's group and group_levels gives the
// group's lowest and highest level; a space without a group is a group of its own. Both take a
// space's index or id and refuse anything else at the calling line.
#[test]
fn group_owned_and_group_levels_read_a_whole_group() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    own(&mut g, 1, &["shanghai", "hangzhou"]);
    own(&mut g, 2, &["guangzhou"]);
    set_level(&mut g, "shanghai", 2);
    let read = |g: &Game| {
        eval(
            g,
            "(function()
                local lo, hi = ctx.board:group_levels('beijing')
                local alone_lo, alone_hi = ctx.board:group_levels(3)
                return { ctx.board:group_owned('beijing', 1), ctx.board:group_owned(4, 2),
                         ctx.board:group_owned(8.0, 2), ctx.board:group_owned('hangzhou', 1),
                         ctx.board:group_owned(3, 1), lo, hi, alone_lo, alone_hi }
            end)()",
        )
    };
    assert_eq!(read(&g), serde_json::json!([1, 0, 1, 1, 0, 0, 2, 0, 0]));
    own(&mut g, 1, &["beijing"]);
    set_level(&mut g, "beijing", 1);
    assert_eq!(read(&g), serde_json::json!([2, 0, 1, 1, 0, 1, 2, 0, 0]));

    let refused = |call: &str| {
        let said = g.eval(&format!("return {call}")).unwrap_err().to_string();
        said.lines().next().unwrap().to_string()
    };
    assert_eq!(
        refused("ctx.board:group_owned(11, 1)"),
        "eval:1: error: space 11 out of range (1..10)"
    );
    assert_eq!(
        refused("ctx.board:group_owned('xian', 1)"),
        "eval:1: error: no space 'xian' on this board"
    );
    assert_eq!(
        refused("ctx.board:group_levels(2.5)"),
        "eval:1: error: expected a space index or id, got float"
    );
    assert_eq!(
        refused("ctx.board:group_levels()"),
        "eval:1: error: expected a space index or id, got nil"
    );
    assert_eq!(
        refused("ctx.board:group_owned(2, 3)"),
        "eval:1: error: seat 3 out of range (1..2)"
    );
    // The board's tables are the map file's: rules cannot write into them.
    assert_eq!(
        refused("(function() ctx.board.by_id.beijing.index = 1 << 40 end)()"),
        "eval:1: error: space 'beijing' is read-only: it holds what the game's files say; keep \
         what changes in G"
    );
}

// Rule: a card that makes every other player pay (or be paid) moves the money seat by seat,
// and the log names each payment.
#[test]
fn a_card_paid_by_each_player_logs_each_payment() {
    let mut g = start("monopoly", "classic", 3, 1, &[]);
    g.drain_events();
    exec(
        &mut g,
        "R.effects.collect_from_each(G, ctx, 2, { amount = 10 })",
    );
    assert_eq!((cash(&g, 1), cash(&g, 2), cash(&g, 3)), (1490, 1520, 1490));
    assert_eq!(notes(&g), ["P1 pays $10 to P2", "P3 pays $10 to P2"]);
    g.drain_events();
    exec(
        &mut g,
        "R.effects.pay_each_player(G, ctx, 2, { amount = 50 })",
    );
    assert_eq!((cash(&g, 1), cash(&g, 2), cash(&g, 3)), (1540, 1420, 1540));
    assert_eq!(notes(&g), ["P2 pays $50 to P1", "P2 pays $50 to P3"]);
}
