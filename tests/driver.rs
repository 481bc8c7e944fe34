//! The one flow driver plays the same game whoever answers its decisions: bots choosing in
//! Rust one decision at a time (as `play` and `check` run them) or the driver's own policies
//! (as `sim` runs them, `play_out`). For every game in `games/`, seeded games with heuristic
//! or random seats end with the same snapshot (`G`, world, decisions, tallies, outcome,
//! stopping point) and the same bot generators either way; a rules error reads the same and
//! leaves the same position. MEEPLE_DRIVER_GAMES sets the seeds per map (default 3).

mod common;
use common::*;
use meeple::ai::{play_decisions, play_out, Bot, Seat, MAX_DECISIONS};
use meeple::core::event::Outcome;
use meeple::core::rng::GameRng;
use meeple::def::Package;
use meeple::engine::{Game, GameConfig, GameError, Policy, Snapshot};
use std::sync::Arc;

/// Seeds per map: MEEPLE_DRIVER_GAMES, default 3.
fn seeds() -> u64 {
    games_from_env("MEEPLE_DRIVER_GAMES", 3)
}

/// The round cap the property game plays under here (its full games take 300 rounds).
const CAP: &str = "round_cap=25";

fn new_game(pkg: &Arc<Package>, map: &str, seats: usize, seed: u64) -> Game {
    let settings: &[&str] = match pkg.settings.contains_key("round_cap") {
        true => &[CAP],
        false => &[],
    };
    let mut g = start_with(pkg, map, seats, seed, settings);
    g.set_record_events(false);
    g
}

/// Heuristic bots for every seat (`styles[i]` for seat i when given), as `Seat::bot` makes them.
fn bots(seats: usize, seed: u64, styles: &[Option<&str>]) -> Vec<Option<Box<dyn Bot>>> {
    (0..seats)
        .map(|s| {
            let style = styles.get(s).copied().flatten().map(String::from);
            Seat::Heuristic(style).bot(seed, s)
        })
        .collect()
}

/// Bots of `kinds` (seat i plays `kinds[i % kinds.len()]`), as `Seat::bot` makes them.
fn mixed(seats: usize, seed: u64, kinds: &[Seat]) -> Vec<Option<Box<dyn Bot>>> {
    (0..seats)
        .map(|s| kinds[s % kinds.len()].bot(seed, s))
        .collect()
}

/// The step path: the bots choose and the game applies, one decision at a time.
fn step_out(game: &mut Game, bots: &mut [Option<Box<dyn Bot>>]) -> Result<(), GameError> {
    play_decisions(game, bots, usize::MAX).map(|_| ())
}

/// The driver's policies for every seat, which must all have one.
fn auto_out(game: &mut Game, bots: &mut [Option<Box<dyn Bot>>]) -> Result<(), GameError> {
    auto_within(game, bots, u64::MAX)
}

/// The driver's policies up to `limit` decisions since the game's start.
fn auto_within(
    game: &mut Game,
    bots: &mut [Option<Box<dyn Bot>>],
    limit: u64,
) -> Result<(), GameError> {
    let (policies, mut rngs): (Vec<Policy>, Vec<GameRng>) = (bots.iter_mut().enumerate())
        .map(|(s, b)| {
            let (policy, rng) =
                (b.as_mut().expect("a bot").policy(game, s)).expect("a seat the driver can answer");
            (policy, rng.clone())
        })
        .unzip();
    let driven = game.drive(&policies, &mut rngs, limit);
    for (s, (b, rng)) in bots.iter_mut().zip(rngs).enumerate() {
        *b.as_mut().unwrap().policy(game, s).unwrap().1 = rng;
    }
    driven
}

/// The bots' generators.
fn generators(game: &Game, bots: &mut [Option<Box<dyn Bot>>]) -> Vec<GameRng> {
    (bots.iter_mut().enumerate())
        .map(|(s, b)| {
            let b = b.as_mut().expect("a bot");
            b.policy(game, s)
                .expect("a seat the driver can answer")
                .1
                .clone()
        })
        .collect()
}

/// Where a game ended: its snapshot, whether a decision is pending, and the generators.
fn end(game: &Game, bots: &mut [Option<Box<dyn Bot>>]) -> (Snapshot, bool, Vec<GameRng>) {
    let snap = game.snapshot().expect("a snapshot");
    (snap, game.is_over(), generators(game, bots))
}

/// Plays `make()`'s game both ways with heuristic bots; asserts that both end alike (and fail
/// alike); returns the step path's result and its decisions.
fn both_ways(
    make: &dyn Fn() -> Game,
    seed: u64,
    styles: &[Option<&str>],
    what: &str,
) -> (Result<(), GameError>, u64) {
    let seats = make().config.seats;
    let made = || bots(seats, seed, styles);
    both_ways_with(make, &made, what)
}

/// `both_ways` with the bots `bots()` makes.
fn both_ways_with(
    make: &dyn Fn() -> Game,
    bots: &dyn Fn() -> Vec<Option<Box<dyn Bot>>>,
    what: &str,
) -> (Result<(), GameError>, u64) {
    let (mut step, mut fast) = (make(), make());
    let (mut step_bots, mut fast_bots) = (bots(), bots());
    let stepped = step_out(&mut step, &mut step_bots);
    let auto = auto_out(&mut fast, &mut fast_bots);
    assert_eq!(
        auto.as_ref().map_err(|e| e.to_string()),
        stepped.as_ref().map_err(|e| e.to_string()),
        "{what}: the same result"
    );
    let (a, b) = (end(&step, &mut step_bots), end(&fast, &mut fast_bots));
    assert_eq!(b.0, a.0, "{what}: the same snapshot");
    assert_eq!(b.1, a.1, "{what}: the same stopping point");
    assert_eq!(b.2, a.2, "{what}: the same bot generators");
    (stepped, a.0.world.decisions)
}

/// Every game plays the same both ways with random seats, with heuristic seats (where the
/// game hides nothing from them) and with the two mixed.
#[test]
fn every_game_plays_the_same_whoever_answers() {
    for pkg in all_games() {
        let seats = 4.clamp(pkg.players.0, pkg.players.1);
        for map in pkg.maps.keys() {
            let hidden = new_game(&pkg, map, seats, 1).hides_from(Some(0));
            let mut kinds = vec![vec![Seat::Random]];
            if !hidden {
                kinds.push(vec![Seat::Heuristic(None)]);
                kinds.push(vec![Seat::Heuristic(None), Seat::Random]);
            }
            for (kind, seed) in kinds
                .iter()
                .flat_map(|k| (1..=seeds()).map(move |s| (k, s)))
            {
                let what = format!("{} map {map} seed {seed} {kind:?}", pkg.id);
                let make = || new_game(&pkg, map, seats, seed);
                let made = || mixed(seats, seed, kind);
                let (result, decisions) = both_ways_with(&make, &made, &what);
                result.unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(decisions > 0, "{what}");
            }
        }
    }
}

#[test]
fn play_out_gives_the_step_paths_game() {
    let pkg = package("monopoly");
    let mut step = new_game(&pkg, "classic", 4, 7);
    let mut fast = new_game(&pkg, "classic", 4, 7);
    let (mut step_bots, mut fast_bots) = (bots(4, 7, &[]), bots(4, 7, &[]));
    step_out(&mut step, &mut step_bots).unwrap();
    play_out(&mut fast, &mut fast_bots, MAX_DECISIONS).unwrap();
    assert_eq!(end(&fast, &mut fast_bots), end(&step, &mut step_bots));
    assert!(
        fast.world().unwrap().decisions > 100,
        "a game long enough to take several chunks"
    );
}

/// A batch restarts one game: the next game's first chunk is as large as the last game's
/// chunks had grown, and it still plays the step path's game (and stops at a decision limit
/// below that chunk's size).
#[test]
fn a_restarted_game_starts_with_the_last_chunks_and_plays_the_same() {
    let pkg = package("monopoly");
    let mut fast = new_game(&pkg, "classic", 4, 7);
    play_out(&mut fast, &mut bots(4, 7, &[]), MAX_DECISIONS).unwrap();
    for (seed, limit) in [(9, MAX_DECISIONS), (10, 30)] {
        let mut step = new_game(&pkg, "classic", 4, seed);
        let mut step_bots = bots(4, seed, &[]);
        play_decisions(&mut step, &mut step_bots, limit as usize).unwrap();
        fast.restart(seed).unwrap();
        let mut fast_bots = bots(4, seed, &[]);
        auto_within(&mut fast, &mut fast_bots, limit).unwrap();
        assert_eq!(
            end(&fast, &mut fast_bots),
            end(&step, &mut step_bots),
            "seed {seed}"
        );
    }
    assert_eq!(fast.world().unwrap().decisions, 30);
}

/// The decision limit stops the in-VM driver where the step path stops: a game of D decisions
/// ends within D, and one limited to D - 1 stops there, pending, in the same position; then
/// `play_out` reports the game as still going.
#[test]
fn the_decision_limit_stops_both_drivers_at_the_same_decision() {
    let pkg = package("monopoly");
    let make = || new_game(&pkg, "demo", 4, 5);
    let (mut whole, mut whole_bots) = (make(), bots(4, 5, &[]));
    step_out(&mut whole, &mut whole_bots).unwrap();
    let d = whole.world().unwrap().decisions;
    assert!(whole.is_over() && d > 20, "a whole game of {d} decisions");
    let (mut fast, mut fast_bots) = (make(), bots(4, 5, &[]));
    auto_within(&mut fast, &mut fast_bots, d).unwrap();
    assert_eq!(end(&fast, &mut fast_bots), end(&whole, &mut whole_bots));

    let (mut step, mut step_bots) = (make(), bots(4, 5, &[]));
    let (mut fast, mut fast_bots) = (make(), bots(4, 5, &[]));
    play_decisions(&mut step, &mut step_bots, d as usize - 1).unwrap();
    auto_within(&mut fast, &mut fast_bots, d - 1).unwrap();
    assert!(!fast.is_over());
    assert_eq!(fast.world().unwrap().decisions, d - 1);
    assert_eq!(end(&fast, &mut fast_bots), end(&step, &mut step_bots));

    let err = play_out(&mut make(), &mut bots(4, 5, &[]), d - 1).unwrap_err();
    let expected = format!("the game did not end within {} decisions", d - 1);
    assert!(err.to_string().contains(&expected), "{err}");
}

/// A heuristic seat in a game that hides piles from it chooses in Rust, on a re-deal of what
/// its seat cannot see; a random seat needs no re-deal, so the driver answers for it.
#[test]
fn a_seat_that_would_read_hidden_piles_chooses_in_rust() {
    let mahjong = package("mahjong");
    let g = new_game(&mahjong, "table", 4, 1);
    let mut heuristic = Seat::Heuristic(None).bot(1, 0).unwrap();
    assert!(
        heuristic.policy(&g, 0).is_none(),
        "hidden hands: re-dealt in Rust"
    );
    let mut random = Seat::Random.bot(1, 0).unwrap();
    assert_eq!(random.policy(&g, 0).map(|p| p.0), Some(Policy::Random));
}

// Every hook gets the seat whose turn it is (`act` after the option), step by step, inside
// the VM and in search playouts alike.
#[test]
fn hooks_get_the_current_seat_on_every_path() {
    let rules = "for name, st in pairs(R.states) do\n\
                   for _, hook in ipairs({ 'enter', 'options', 'act' }) do\n\
                     local f = st[hook]\n\
                     if f then\n\
                       st[hook] = function(G, ctx, a, b)\n\
                         local seat = hook == 'act' and b or a\n\
                         if seat ~= ctx:current() then\n\
                           error(name .. '.' .. hook .. ' got seat ' .. tostring(seat), 0)\n\
                         end\n\
                         G.checked = (G.checked or 0) + 1\n\
                         return f(G, ctx, a, b)\n\
                       end\n\
                     end\n\
                   end\n\
                 end";
    let v = variant("monopoly", rules, "", None);
    let make = || new_game(&v.pkg, "demo", 4, 2);
    let (result, decisions) = both_ways(&make, 2, &[], "seats");
    result.expect("every hook got the current seat");
    assert!(decisions > 50, "{decisions} decisions");
    let mut g = make();
    g.random_playout(10_000)
        .expect("playout hooks got the current seat");
    let checked = eval(&g, "G.checked").as_i64().unwrap();
    assert!(checked > 100, "{checked} hook calls checked");
    // Gomoku's playouts move by R.random_move, which gets the seat too.
    let rules = "local quick = R.random_move\n\
                 R.random_move = function(G, ctx, seat)\n\
                   if seat ~= ctx:current() then error('random_move got seat ' .. tostring(seat), 0) end\n\
                   G.quick = (G.quick or 0) + 1\n\
                   return quick(G, ctx, seat)\n\
                 end";
    let v = variant("gomoku", rules, "", None);
    let mut g = new_game(&v.pkg, "board", 2, 2);
    g.random_playout(10_000)
        .expect("random_move got the current seat");
    let quick = eval(&g, "G.quick").as_i64().unwrap();
    assert!(quick > 8, "{quick} quick moves checked");
}

/// Plays a 4-seat demo game of the property game with wrapped rules and AI both ways; asserts
/// they fail alike and returns the error.
fn fails_alike(rules: &str, ai: &str) -> String {
    let v = variant("monopoly", rules, ai, None);
    let make = || new_game(&v.pkg, "demo", 4, 3);
    let (result, decisions) = both_ways(&make, 3, &[], rules);
    let err = result.expect_err("the broken rules fail");
    assert!(
        decisions > 10,
        "the error comes after several decisions, not {decisions}: {rules}"
    );
    err.to_string()
}

/// Wraps hook `hook` of state `state`: from turn 9 on, `code` runs first (with the hook's
/// arguments and `orig`, the hook itself).
fn from_turn_9(state: &str, hook: &str, args: &str, code: &str) -> String {
    format!(
        "local orig = R.states.{state}.{hook}\n\
         R.states.{state}.{hook} = function({args})\n\
           if ctx:turn() >= 9 then {code} end\n\
           return orig({args})\n\
         end"
    )
}

// Search playouts run inside the VM too: a hook's error raised at its caller's level names
// the rules, not the runtime's playout loop.
#[test]
fn a_hook_error_inside_a_search_playout_names_the_rules() {
    let rules = from_turn_9("rolling", "enter", "G, ctx, p", "error('gave up', 2)");
    let v = variant("monopoly", &rules, "", None);
    let mut g = new_game(&v.pkg, "demo", 4, 3);
    let err = g.random_playout(10_000).expect_err("the broken rules fail");
    let err = err.to_string();
    assert!(
        err.contains("/monopoly/rules.lua:4: error: gave up\n"),
        "{err}"
    );
    assert!(err.contains("in state 'rolling' hook 'enter'"), "{err}");
}

/// A hook that returns a state it may not go to, inside a search playout, reads as it does
/// step by step: the transition, located at the line returning it (a value that names no
/// state too, when the line writes it out).
#[test]
fn a_bad_transition_inside_a_search_playout_names_the_hook() {
    for (code, message) in [
        (
            "return 'mortgaging'",
            "4: error: illegal transition from 'buying' to 'mortgaging' (allowed: auction, next_player)",
        ),
        (
            "return 42",
            "4: error: hook 'act' returned a number (42), not the name of a state",
        ),
    ] {
        let rules = from_turn_9("buying", "act", "G, ctx, option, p", code);
        let v = variant("monopoly", &rules, "", None);
        let mut g = new_game(&v.pkg, "demo", 4, 3);
        let err = g.random_playout(10_000).expect_err("the broken rules fail").to_string();
        assert!(err.contains(&format!("/monopoly/rules.lua:{message}\n")), "{err}");
        assert!(err.contains("in state 'buying' hook 'act'"), "{err}");
    }
}

#[test]
fn rules_errors_read_the_same_inside_the_vm() {
    let act = |code: &str| from_turn_9("wait_player", "act", "G, ctx, option, p", code);
    let enter = |code: &str| from_turn_9("rolling", "enter", "G, ctx, p", code);
    let options = |code: &str| from_turn_9("wait_player", "options", "G, ctx, p", code);
    let cases: Vec<(String, &str, &str)> = vec![
        (
            act("local t = nil; return t.x"),
            "attempt to index a nil value",
            "hook 'act'",
        ),
        (
            enter("error('gave up')"),
            "rules.lua:4: error: gave up",
            "hook 'enter'",
        ),
        (
            enter("error('gave up', 2)"),
            "rules.lua:4: error: gave up",
            "hook 'enter'",
        ),
        (
            enter("error('gave up', 0)"),
            "rules.lua:4: error: gave up",
            "hook 'enter'",
        ),
        (
            act("return 'buying'"),
            "illegal transition from 'wait_player' to 'buying' (allowed: rolling, building, mortgaging)",
            "rules.lua:4:",
        ),
        (
            act("return 'rollin'"),
            "unknown state 'rollin' returned by state 'wait_player'; did you mean 'rolling'?",
            "hook 'act'",
        ),
        (
            act("return {}"),
            "hook 'act' returned a table, not the name of a state",
            "hook 'act'",
        ),
        (
            act("return 42"),
            "hook 'act' returned a number (42), not the name of a state",
            "rules.lua:4:",
        ),
        (
            enter("return true"),
            "hook 'enter' returned a boolean (true), not the name of a state",
            "hook 'enter'",
        ),
        (
            enter("return nil"),
            "automatic state 'rolling' must return the name of the next state",
            "hook 'enter'",
        ),
        (
            options("return {}"),
            "decision state 'wait_player' offered no options",
            "hook 'options'",
        ),
        (
            options("local l = orig(G, ctx, p); l[#l + 1] = 42; return l"),
            "is a number, expected a table",
            "hook 'options'",
        ),
        // A list changed in place is checked again: every list is checked as it is listed.
        (
            options("local l = orig(G, ctx, p); if #l > 1 then l[#l] = 42 end; return l"),
            "is a number, expected a table {verb, args...}",
            "hook 'options'",
        ),
        (
            options("return { orig(G, ctx, p)[1], nil, { 'zz' } }"),
            "option 2 is nil: the list has a hole where a table {verb, args...} should be",
            "hook 'options'",
        ),
        (
            options("return nil"),
            "options must return a list of options, got nil",
            "hook 'options'",
        ),
    ];
    for (rules, message, at) in &cases {
        let err = fails_alike(rules, "");
        assert!(
            err.contains(message) && err.contains(at),
            "{rules}\n→ {err}"
        );
        assert!(err.contains("(player "), "{err}");
    }
    // Every option scored by AI.score (none by AI.fixed), from turn 9 on by `code` first.
    let scores = |code: &str| {
        format!(
            "local orig, fixed = AI.score, AI.fixed\n\
             AI.fixed = nil\n\
             AI.score = function(G, ctx, p, option)\n\
               if ctx:turn() >= 9 then {code} end\n\
               if fixed[option[1]] then return fixed[option[1]] end\n\
               return orig(G, ctx, p, option)\n\
             end"
        )
    };
    let err = fails_alike("", &scores("return 'lots'"));
    assert!(
        err.contains("games/monopoly/ai.lua:4: error: AI.score returned string for option 1 (roll), expected a number"),
        "{err}"
    );
    assert!(err.contains("hook 'AI.score'"), "{err}");
    // A NaN score for one option only (the others are fixed), found where it is returned.
    let err = fails_alike("", &scores("return 0 / 0"));
    assert!(
        err.contains("games/monopoly/ai.lua:4: error: AI.score returned NaN (not a number: 0/0?) for option 1 (roll), expected a number"),
        "{err}"
    );
    // A way through AI.score that returns nothing: the message says so.
    let err = fails_alike("", &scores("do return end"));
    assert!(
        err.contains("games/monopoly/ai.lua:4: error: AI.score returned nil (does every way through it end in a return?) for option 1 (roll), expected a number"),
        "{err}"
    );
    // AI.scores (the whole list at once), from turn 9 on a list with a string in it.
    let whole = "AI.fixed = nil AI.scores = function(G, ctx, p, list)\n\
                   local out = {}\n\
                   for i = 1, #list do out[i] = ctx:turn() >= 9 and 'lots' or 0 end\n\
                   return out\n\
                 end";
    let err = fails_alike("", whole);
    assert!(
        err.contains("games/monopoly/ai.lua:2: error: AI.scores returned string for option 1 (roll), expected a number"),
        "{err}"
    );
    // What the AI scores is read-only: an option changed while scored would be played (and
    // recorded) as an option never offered.
    let read_only = "error: attempt to change a read-only table (an option is read-only once \
                     offered, and its list while the AI scores it: change a copy)";
    let err = fails_alike("", &scores("option[1] = 'pass'"));
    assert!(
        err.contains(&format!("games/monopoly/ai.lua:5: {read_only}")),
        "{err}"
    );
    let sorts = "AI.fixed = nil AI.scores = function(G, ctx, p, list)\n\
                   if ctx:turn() >= 9 then table.remove(list) end\n\
                   local out = {}\n\
                   for i = 1, #list do out[i] = 0 end\n\
                   return out\n\
                 end";
    let err = fails_alike("", sorts);
    assert!(
        err.contains(&format!("games/monopoly/ai.lua:3: {read_only}")),
        "{err}"
    );
}

/// An endless loop in a hook is stopped by the watchdog with the same message (about a
/// second each way: the watchdog arms after one).
#[test]
fn an_endless_loop_is_stopped_the_same_inside_the_vm() {
    let rules = from_turn_9("rolling", "enter", "G, ctx, p", "while true do end");
    let err = fails_alike(&rules, "");
    assert!(
        err.contains("rules.lua:4: error: instruction budget exceeded (an endless loop?)"),
        "{err}"
    );
    assert!(err.contains("in state 'rolling' hook 'enter'"), "{err}");
}

/// An automatic state that never leads to a decision trips the step guard the same way.
#[test]
fn a_stuck_flow_is_caught_the_same_inside_the_vm() {
    let rules = "R.states.spin = { enter = function(G, ctx) return 'spin' end }\n\
                 local act = R.states.turn.act\n\
                 R.states.turn.act = function(G, ctx, option, p)\n\
                   local nxt = act(G, ctx, option, p)\n\
                   if nxt == nil and G.moves >= 3 then return 'spin' end\n\
                   return nxt\n\
                 end";
    let flow = (
        "turn = { next = [\"over\"], decide = true }",
        "turn = { next = [\"over\", \"spin\"], decide = true }\nspin = { next = [\"spin\"] }",
    );
    let v = variant("tictactoe", rules, "", Some(flow));
    let make = || new_game(&v.pkg, "board", 2, 5);
    let err = both_ways(&make, 5, &[], "stuck")
        .0
        .expect_err("the flow cycles");
    let err = err.to_string();
    assert!(
        err.contains(
            "no decision reached after 10000 automatic steps: the flow cycles (spin → spin"
        ),
        "{err}"
    );
}

/// `R.random_move` may fill one scratch table again on every call: its move is offered to
/// nobody, so it stays the rules' to change (an offered option is read-only).
#[test]
fn a_random_move_may_reuse_its_table() {
    let rules = "local orig, move = R.random_move, { 'place', 0, 0 }\n\
                 R.random_move = function(G, ctx, p)\n\
                   local m = orig(G, ctx, p)\n\
                   if m == nil then return nil end\n\
                   move[2], move[3] = m[2], m[3]\n\
                   return move\n\
                 end";
    let v = variant("gomoku", rules, "", None);
    let mut g = new_game(&v.pkg, "board", 2, 3);
    g.random_playout(10_000).expect("the playout ends");
}

/// A forced decision whose act keeps the game in it plays its lone option for ever: the
/// error says so at the act hook, not at an enter hook the state does not have.
#[test]
fn a_forced_state_that_never_moves_on_names_its_act() {
    let rules = "R.states.wait = {\n\
                   options = function(G, ctx, p) return { { 'wait' } } end,\n\
                   act = function(G, ctx, option, p) end,\n\
                 }\n\
                 local act = R.states.turn.act\n\
                 R.states.turn.act = function(G, ctx, option, p)\n\
                   local nxt = act(G, ctx, option, p)\n\
                   if nxt == nil and G.moves >= 3 then return 'wait' end\n\
                   return nxt\n\
                 end";
    let flow = (
        "turn = { next = [\"over\"], decide = true }",
        "turn = { next = [\"over\", \"wait\"], decide = true }\n\
         wait = { next = [\"wait\"], decide = true, forced = true }",
    );
    let v = variant("tictactoe", rules, "", Some(flow));
    let make = || new_game(&v.pkg, "board", 2, 5);
    let err = both_ways(&make, 5, &[], "forced")
        .0
        .expect_err("the flow cycles");
    let err = err.to_string();
    assert!(
        err.contains(
            "rules.lua:4: error: no decision reached after 10000 steps: state 'wait' is forced, \
             and its lone option was played again and again: does its act return nil (ask \
             again) where it should name the next state?"
        ),
        "{err}"
    );
    assert!(err.contains("in state 'wait' hook 'act'"), "{err}");
}

/// Seats that play different styles of the AI draw from their own tables (their own `fixed`
/// scores too) and generators.
#[test]
fn styles_play_the_same_inside_the_vm() {
    let ai = "AI.styles = {\n\
                contrary = { score = function(G, ctx, p, o) return -AI.score(G, ctx, p, o) end },\n\
                thrifty = { score = AI.score, fixed = { pass = 50, bid = -1, roll = 0, back = 0,\n\
                  use_card = 2, mortgages = -100, mortgage = -100 } },\n\
              }";
    let v = variant("monopoly", "", ai, None);
    for seed in 1..=seeds() {
        let make = || new_game(&v.pkg, "classic", 4, seed);
        let styles = [None, Some("contrary"), Some("thrifty"), Some("contrary")];
        both_ways(&make, seed, &styles, "styles").0.unwrap();
        // The thrifty seat passes on every purchase and bids nothing: its own AI.fixed is
        // read, not the AI's.
        let mut g = make();
        step_out(&mut g, &mut bots(4, seed, &styles)).unwrap();
        assert_eq!(eval(&g, "#G.players[3].bought"), 0, "seed {seed}");
    }
}

/// Whatever the rules do to an option after listing it, what reaches `act` is checked: an
/// option the AI changes while scoring it or `act` changes while playing it is an error at
/// that line, and a shared list the rules change after returning it is checked again when
/// listed again.
#[test]
fn an_option_changed_after_it_was_listed_is_checked_again() {
    let ai = "local score = AI.score\n\
              AI.fixed = nil\n\
              AI.score = function(G, ctx, p, o)\n\
                if ctx:turn() >= 9 and o[1] == 'roll' then o[1] = 42 end\n\
                return 1\n\
              end";
    let err = fails_alike("", ai);
    assert!(
        err.contains("ai.lua:5: error: attempt to change a read-only table"),
        "{err}"
    );
    // `act` taking its option apart: a search would find the option gone from its list.
    let act = from_turn_9(
        "wait_player",
        "act",
        "G, ctx, o, p",
        "o = { table.remove(o, 1) }",
    );
    let err = fails_alike(&act, "");
    assert!(
        err.contains("rules.lua:4: error: attempt to change a read-only table"),
        "{err}"
    );
    let rules = "local shared = { { 'roll' } }\n\
                 local options = R.states.wait_player.options\n\
                 R.states.wait_player.options = function(G, ctx, p)\n\
                   if ctx:turn() >= 9 then return shared end\n\
                   return options(G, ctx, p)\n\
                 end\n\
                 local act = R.states.wait_player.act\n\
                 R.states.wait_player.act = function(G, ctx, o, p)\n\
                   if ctx:turn() >= 10 then shared[2] = { 'buy', {} } end\n\
                   return act(G, ctx, o, p)\n\
                 end";
    let err = fails_alike(rules, "");
    assert!(
        err.contains("error: option 2: argument of type table (use numbers, strings or booleans)"),
        "{err}"
    );
}

/// Enter hooks of decision and final states run when the step path runs them, and one that
/// moves on skips its decision the same way.
#[test]
fn enter_hooks_of_decision_states_run_the_same_inside_the_vm() {
    let rules = "R.states.wait_player.enter = function(G, ctx, p)\n\
                   G.entered = (G.entered or 0) + 1\n\
                   if G.entered % 5 == 0 then return 'rolling' end\n\
                 end\n\
                 R.states.game_over = R.states.game_over or {}\n\
                 R.states.game_over.enter = function(G, ctx) G.over = ctx:turn() end";
    let v = variant("monopoly", rules, "", None);
    let mut over = 0;
    for seed in 1..=seeds() + 3 {
        let make = || {
            let config = GameConfig {
                map: Some("demo".into()),
                seats: 3,
                seed,
                settings: vec!["round_cap=60".into()],
            };
            let mut g = Game::new(v.pkg.clone(), config).unwrap();
            g.set_record_events(false);
            g
        };
        both_ways(&make, seed, &[], "enter hooks").0.unwrap();
        let mut g = make();
        auto_out(&mut g, &mut bots(3, seed, &[])).unwrap();
        assert!(g.eval("return G.entered").unwrap().as_u64().unwrap() > 10);
        over += g.eval("return G.over").unwrap().is_number() as u32;
    }
    assert!(over > 0, "some games reach the final state");
}

/// `ctx:state()` names the state the game is in: a decision state of `[flow]` at every
/// decision of every game (and the tic-tac-toe opening's `turn`), a final state at the end.
#[test]
fn ctx_state_names_the_pending_state() {
    let spec = |pkg: &Package, name: &serde_json::Value| {
        let i = name.as_str().and_then(|n| pkg.flow.index(n));
        let i = i.unwrap_or_else(|| panic!("{}: ctx:state() gave {name}", pkg.id));
        pkg.flow.states[i].clone()
    };
    let opening = new_game(&package("tictactoe"), "board", 2, 1);
    assert_eq!(eval(&opening, "ctx:state()"), serde_json::json!("turn"));
    for pkg in all_games() {
        let seats = pkg.players.1.min(4);
        let map = pkg.default_map.clone();
        let mut game = new_game(&pkg, &map, seats, 1);
        let mut bots = mixed(seats, 1, &[Seat::Random]);
        while !game.is_over() {
            assert!(spec(&pkg, &eval(&game, "ctx:state()")).decide, "{}", pkg.id);
            play_decisions(&mut game, &mut bots, 1).unwrap();
        }
        let capped = matches!(game.outcome(), Some(Outcome::Capped { .. }));
        let end = spec(&pkg, &eval(&game, "ctx:state()"));
        assert!(end.terminal || capped && end.decide, "{}", pkg.id);
    }
}
