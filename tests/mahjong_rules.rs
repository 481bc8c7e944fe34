//! Scenario tests of Mahjong (4 seats, map "table"): each deals exact hands with `deal` (every
//! tile is moved, never created, so 136 stay on the table), plays the deciding actions and
//! asserts the exact result. Tile codes: 万 0–8, 条 9–17, 饼 18–26, 东南西北 27–30, 白发中
//! 31–33. Seats are 1-based in Lua and in the helpers, 0-based in `Outcome` and `Pending`.

mod common;
use common::*;
use meeple::core::event::{Event, Outcome};
use meeple::engine::Game;

fn new_game(settings: &[&str]) -> Game {
    start("mahjong", "table", 4, 1, settings)
}

fn lua_list(tiles: &[i64]) -> String {
    let items: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    format!("{{{}}}", items.join(", "))
}

/// Gives each seat exactly these tiles (all hands go back to the wall first, then each tile
/// is taken from the wall); `next` are the next draws, first drawn first.
fn deal(g: &mut Game, hands: &[&[i64]], next: &[i64]) {
    let hands: Vec<String> = hands.iter().map(|h| lua_list(h)).collect();
    exec(
        g,
        &format!(
            r#"local wall = ctx.zone.wall
            for p = 1, ctx:seats() do
              for _, t in ipairs(ctx.zone.hand[p]:clear()) do wall:add(t) end
            end
            for p, tiles in ipairs({{{}}}) do
              for _, t in ipairs(tiles) do
                assert(wall:move(t, ctx.zone.hand[p]), "no tile " .. t .. " left for P" .. p)
              end
            end
            local nx = {n}
            for i = #nx, 1, -1 do
              assert(wall:remove(nx[i]), "no tile " .. nx[i] .. " left to draw")
              wall:add(nx[i])
            end"#,
            hands.join(", "),
            n = lua_list(next)
        ),
    );
}

fn hand(g: &Game, p: usize) -> Vec<i64> {
    let w = g.world().unwrap();
    w.zones[1][p - 1].clone()
}

fn count(g: &Game, expr: &str) -> i64 {
    eval(g, expr).as_i64().unwrap()
}

fn score(g: &Game, p: usize) -> i64 {
    counter(g, p, "score")
}

/// 136 tiles, four of each code, wherever they are.
fn assert_conserved(g: &Game, context: &str) {
    let w = g.world().unwrap();
    let mut per_code = [0usize; 34];
    for piles in &w.zones {
        for pile in piles {
            for t in pile {
                per_code[*t as usize] += 1;
            }
        }
    }
    assert!(per_code.iter().all(|n| *n == 4), "{context}: {per_code:?}");
}

fn wins(g: &Game) -> Option<Vec<usize>> {
    match g.outcome() {
        Some(Outcome::Won { winners }) => Some(winners),
        _ => None,
    }
}

// Shapes --------------------------------------------------------------------------------------

#[test]
fn runs_never_cross_suits_and_honours_never_run() {
    let g = new_game(&[]);
    let complete = |tiles: &[i64]| {
        let expr = format!(
            "(function() local c = {{}} for k = 1, 34 do c[k] = 0 end \
             for _, t in ipairs({}) do c[t + 1] = c[t + 1] + 1 end \
             return ctx.melds:complete(c, 1) end)()",
            lua_list(tiles)
        );
        eval(&g, &expr).as_bool().unwrap()
    };
    assert!(!complete(&[7, 8, 9, 4, 4]), "8万 9万 1条 is not a sequence");
    assert!(!complete(&[27, 28, 29, 4, 4]), "东南西 is not a sequence");
    assert!(!complete(&[31, 32, 33, 4, 4]), "白发中 is not a sequence");
    assert!(complete(&[6, 7, 8, 4, 4]));
    assert!(complete(&[24, 25, 26, 4, 4]));
    assert!(complete(&[29, 29, 29, 4, 4]));
}

// Winning hands -------------------------------------------------------------------------------

const FILLER: [&[i64]; 3] = [
    &[9, 10, 12, 13, 15, 16, 18, 19, 21, 22, 24, 25, 28],
    &[9, 10, 12, 13, 15, 16, 18, 19, 21, 22, 24, 25, 28],
    &[11, 11, 14, 14, 17, 17, 20, 20, 23, 23, 26, 26, 29],
];

/// P1 holds `tiles` (14, just drawn) against filler hands; returns the options offered.
fn p1_holds(g: &mut Game, tiles: &[i64]) -> Vec<String> {
    deal(g, &[tiles, FILLER[0], FILLER[1], FILLER[2]], &[]);
    options(g)
}

#[test]
fn a_standard_hand_wins_self_drawn_and_everyone_pays() {
    let mut g = new_game(&[]);
    let win = [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 27, 31, 31];
    assert_eq!(p1_holds(&mut g, &win)[0], "win");
    act(&mut g, "win");
    assert_eq!(wins(&g), Some(vec![0]));
    // base 1 + self-drawn 1 + concealed 1, from each of three players.
    assert_eq!(
        (score(&g, 1), score(&g, 2), score(&g, 3), score(&g, 4)),
        (9, -3, -3, -3)
    );
    assert_eq!(eval(&g, "G.result.hand"), "standard");
    assert_conserved(&g, "after the win");
}

#[test]
fn seven_pairs_and_thirteen_orphans_win_with_their_points() {
    let mut g = new_game(&[]);
    let pairs = [0, 0, 4, 4, 10, 10, 15, 15, 20, 20, 28, 28, 33, 33];
    assert_eq!(p1_holds(&mut g, &pairs)[0], "win");
    act(&mut g, "win");
    assert_eq!(eval(&g, "G.result.hand"), "seven_pairs");
    assert_eq!(score(&g, 1), 3 * (1 + 1 + 1 + 4));

    let mut g = new_game(&[]);
    let orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 33];
    assert_eq!(p1_holds(&mut g, &orphans)[0], "win");
    act(&mut g, "win");
    assert_eq!(eval(&g, "G.result.hand"), "thirteen_orphans");
    assert_eq!(score(&g, 1), 3 * (1 + 1 + 1 + 13));
}

#[test]
fn near_misses_do_not_win() {
    let near = [
        // a standard hand one tile off
        vec![0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 27, 31, 32],
        // four of a kind is not two distinct pairs
        vec![0, 0, 0, 0, 4, 4, 10, 10, 15, 15, 20, 20, 28, 28],
        // thirteen orphans without 中
        vec![0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 32, 1],
    ];
    for tiles in near {
        let mut g = new_game(&[]);
        let offered = p1_holds(&mut g, &tiles);
        assert!(
            !offered.contains(&"win".to_string()),
            "{tiles:?}: {offered:?}"
        );
    }
    let mut g = new_game(&["seven_pairs=false"]);
    let pairs = [0, 0, 4, 4, 10, 10, 15, 15, 20, 20, 28, 28, 33, 33];
    assert!(!p1_holds(&mut g, &pairs).contains(&"win".to_string()));
}

#[test]
fn one_suit_scores_its_fan() {
    let mut g = new_game(&[]);
    let tiles = [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 4, 4];
    p1_holds(&mut g, &tiles);
    act(&mut g, "win");
    assert_eq!(
        eval(&g, "G.result.fans"),
        serde_json::json!(["base", "self_drawn", "concealed", "one_suit"])
    );
    assert_eq!(score(&g, 1), 3 * 9);
}

// Claims ----------------------------------------------------------------------------------------

/// P1 is to discard 4饼 (21); P2 (next) can chow it with 2饼3饼, P3 can pung it.
fn chow_and_pung_position() -> Game {
    let mut g = new_game(&[]);
    deal(
        &mut g,
        &[
            &[21, 29, 29, 29, 30, 30, 30, 31, 31, 31, 32, 32, 32, 33],
            &[19, 20, 1, 4, 7, 10, 13, 16, 23, 26, 27, 28, 33],
            &[21, 21, 2, 5, 8, 11, 14, 17, 18, 24, 27, 28, 33],
            &[0, 1, 3, 4, 6, 9, 12, 15, 22, 25, 27, 28, 33],
        ],
        &[],
    );
    g
}

#[test]
fn pung_beats_chow_and_answers_stay_secret_until_all_are_in() {
    let mut g = chow_and_pung_position();
    g.drain_events();
    act(&mut g, "discard 21");
    assert_eq!(g.state_name(), "claim");
    assert_eq!(
        g.waiting(),
        vec![1, 2, 3],
        "every seat but the discarder is asked"
    );
    assert_eq!(options(&g), vec!["chow 19", "pass"]);
    let asked = g.snapshot().unwrap();
    act(&mut g, "pass");
    let after_pass = g.view(Some(2)).unwrap();
    g.restore(&asked).unwrap();
    act(&mut g, "chow 19");
    assert_eq!(g.waiting(), vec![2, 3]);
    assert_eq!(
        g.view(Some(2)).unwrap(),
        after_pass,
        "P3 sees that P2 answered, never what"
    );
    assert!(
        !g.events()
            .iter()
            .any(|e| matches!(e, Event::Action { seat: 1, .. })),
        "no event tells P2's answer yet"
    );
    assert_eq!(options(&g), vec!["pung 21", "pass"]);
    act(&mut g, "pung 21");
    assert_eq!(
        options(&g),
        vec!["pass"],
        "P4 cannot claim: its only answer is to pass"
    );
    act(&mut g, "pass");
    assert_eq!(g.state_name(), "turn");
    assert_eq!(g.pending().unwrap().seat, 2, "P3 claimed and discards next");
    assert_eq!(
        g.world().unwrap().zones[2][2],
        vec![21, 21, 21],
        "P3's exposed pung"
    );
    assert_eq!(hand(&g, 2).len(), 13, "P2 kept its tiles");
    assert_eq!(hand(&g, 3).len(), 11, "P3 gave two tiles to the meld");
    // Only the claim that was made is told: not who else was asked, nor what they said.
    let events = g.events();
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Action { seat: 2, action } if action.to_string() == "pung 21")
        ),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Action { seat: 1, .. })),
        "{events:?}"
    );
    let notes: Vec<String> = events.iter().map(|e| e.to_string()).collect();
    assert!(
        notes.contains(&"P3 claims P1's 4饼: pung".to_string()),
        "{notes:?}"
    );
    assert_conserved(&g, "after the pung");
}

#[test]
fn a_win_beats_a_pung_and_the_discarder_pays() {
    let mut g = new_game(&[]);
    deal(
        &mut g,
        &[
            &[21, 29, 30, 31, 32, 33, 33, 33, 17, 17, 17, 14, 14, 14],
            &[10, 13, 16, 19, 23, 25, 28, 29, 30, 31, 32, 33, 11],
            &[21, 21, 9, 12, 15, 18, 22, 24, 28, 29, 30, 31, 32],
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27, 21],
        ],
        &[],
    );
    act(&mut g, "discard 21");
    assert_eq!(g.waiting(), vec![1, 2, 3]);
    act(&mut g, "pass");
    act(&mut g, "pung 21");
    assert_eq!(options(&g), vec!["win", "pass"]);
    act(&mut g, "win");
    assert_eq!(wins(&g), Some(vec![3]));
    // base 1 + concealed 1 (万 and 饼: no suit fan), paid by the discarder alone.
    assert_eq!((score(&g, 1), score(&g, 4)), (-2, 2));
    assert_eq!((score(&g, 2), score(&g, 3)), (0, 0));
    assert_eq!(eval(&g, "G.result.how"), "discard");
}

#[test]
fn of_two_wins_the_seat_asked_first_takes_it() {
    let mut g = new_game(&[]);
    deal(
        &mut g,
        &[
            &[21, 29, 29, 29, 30, 30, 30, 31, 31, 31, 32, 32, 32, 33],
            &[9, 10, 11, 12, 13, 14, 15, 16, 17, 28, 28, 28, 21],
            &[0, 9, 18, 19, 20, 22, 23, 24, 25, 26, 33, 33, 33],
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27, 21],
        ],
        &[],
    );
    act(&mut g, "discard 21");
    assert_eq!(g.waiting(), vec![1, 2, 3]);
    act(&mut g, "win");
    act(&mut g, "pass");
    act(&mut g, "win");
    assert_eq!(wins(&g), Some(vec![1]), "P2 sits first after the discarder");
}

#[test]
fn nobody_able_to_claim_means_the_next_seat_draws() {
    let mut g = chow_and_pung_position();
    act(&mut g, "discard 29");
    for _ in 0..3 {
        assert_eq!(options(&g), vec!["pass"], "nobody can claim");
        act(&mut g, "pass");
    }
    assert_eq!(g.state_name(), "turn");
    assert_eq!(g.pending().unwrap().seat, 1, "P2 drew and decides");
    assert_eq!(hand(&g, 2).len(), 14);
}

// Kongs and the end of the wall -----------------------------------------------------------------

#[test]
fn a_concealed_kong_draws_a_replacement_and_keeps_the_turn() {
    let mut g = new_game(&[]);
    deal(
        &mut g,
        &[
            &[5, 5, 5, 5, 29, 30, 31, 32, 33, 9, 12, 15, 18, 21],
            FILLER[0],
            FILLER[1],
            FILLER[2],
        ],
        &[27],
    );
    let wall = count(&g, "ctx.zone.wall:count()");
    assert!(options(&g).contains(&"kong 5".to_string()));
    act(&mut g, "kong 5");
    assert_eq!(g.world().unwrap().zones[2][0], vec![5, 5, 5, 5]);
    assert_eq!(hand(&g, 1).len(), 11);
    assert_eq!(*hand(&g, 1).last().unwrap(), 27, "the replacement tile");
    assert_eq!(count(&g, "ctx.zone.wall:count()"), wall - 1);
    assert_eq!(
        (g.state_name().as_str(), g.pending().unwrap().seat),
        ("turn", 0)
    );
    assert_eq!(eval(&g, "G.melds[1][1].concealed"), true);
    assert_conserved(&g, "after the kong");
}

#[test]
fn an_empty_wall_is_an_exhaustive_draw() {
    let mut g = chow_and_pung_position();
    exec(
        &mut g,
        "local w, d = ctx.zone.wall, ctx.zone.discards[4] while w:count() > 0 do w:deal(d, 1) end",
    );
    act(&mut g, "discard 29");
    for _ in 0..3 {
        act(&mut g, "pass");
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(eval(&g, "G.result.exhausted"), true);
    assert_conserved(&g, "after the draw");
}

// Random games: conservation ------------------------------------------------------------------

#[test]
fn random_games_keep_all_136_tiles() {
    // MEEPLE_MAHJONG_GAMES raises the number of seeded games (default 4).
    let games = games_from_env("MEEPLE_MAHJONG_GAMES", 4);
    for seed in 0..games {
        println!("seed {seed}");
        let mut g = start("mahjong", "table", 4, seed, &[]);
        g.set_record_events(false);
        let mut bots: Vec<_> = (0..4)
            .map(|s| meeple::ai::Seat::Random.bot(seed, s).unwrap())
            .collect();
        let mut n = 0;
        while let Some(p) = g.pending() {
            let seat = p.seat;
            let i = bots[seat].choose(&mut g).unwrap().index;
            g.apply_index(i).unwrap();
            n += 1;
            assert_conserved(&g, &format!("seed {seed}, decision {n}"));
        }
        assert!(g.outcome().is_some());
    }
}

// Live reload -----------------------------------------------------------------------------------

#[test]
fn a_reload_keeps_every_pile_and_refuses_to_drop_a_zone_holding_tiles() {
    let (_tmp, root) = copy_game("mahjong", "mj");
    let pkg = std::sync::Arc::new(meeple::def::load_package(&root).unwrap());
    let config = meeple::engine::GameConfig {
        map: None,
        seats: 4,
        seed: 1,
        settings: Vec::new(),
    };
    let mut g = Game::new(pkg, config).unwrap();
    let piles = g.world().unwrap().zones.clone();
    let edit = |from: &str, to: &str| {
        let path = root.join("game.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit("base = 1", "base = 5");
    g.try_reload().unwrap();
    assert_eq!(g.world().unwrap().zones, piles);
    assert_eq!(eval(&g, "ctx.settings.scores.base"), 5);

    edit("wall = {", "pile = {");
    let errors = g.try_reload().unwrap_err();
    assert_eq!(
        errors.iter().map(|d| d.message.clone()).collect::<Vec<_>>(),
        vec!["zone 'wall' holds 83 items in the live game but game.toml no longer declares it"]
    );
    let discard = options(&g)
        .into_iter()
        .find(|o| o.starts_with("discard"))
        .unwrap();
    act(&mut g, &discard);
    assert!(g.pending().is_some(), "the last good rules play on");
}

// Reading the position back (before a snapshot) takes integer codes only: a pile's live list
// that a rules line wrote into is reported, not converted or saved.
#[test]
fn a_pile_written_into_by_hand_is_reported() {
    for (bad, shown) in [("1.5", "1.5"), ("'5'", "\"5\""), ("{}", "a table")] {
        let g = new_game(&[]);
        g.eval(&format!("ctx.zone.hand[1].list[1] = {bad}"))
            .unwrap();
        let err = g.snapshot().unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "ctx.zone.hand[1] holds {shown} at position 1, not an item code: a pile \
                 changes only through its methods"
            )),
            "{bad}: {err}"
        );
    }
}
