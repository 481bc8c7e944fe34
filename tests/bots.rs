//! Search bots from fixed positions and over seeded games. MEEPLE_BOT_GAMES sets how many
//! games the match tests play (default 10; 100 for the full check).

mod common;
use common::*;
use meeple::ai::alphabeta::value_text;
use meeple::ai::{play_decisions, play_out, Seat, MAX_DECISIONS};
use meeple::core::event::Outcome;
use meeple::engine::Game;

/// Games the match tests play: MEEPLE_BOT_GAMES, default 10.
fn games() -> u64 {
    games_from_env("MEEPLE_BOT_GAMES", 10)
}

/// A gomoku game with `stones` placed (row, col, seat), P`to_move` to move.
fn position(stones: &[(i64, i64, i64)], to_move: i64) -> Game {
    let mut g = start("gomoku", "board", 2, 1, &[]);
    let mut code = String::new();
    for (r, c, p) in stones {
        code.push_str(&format!(
            "ctx.grid:set({r}, {c}, {p}); G.moves = G.moves + 1; "
        ));
    }
    if to_move == 2 {
        code.push_str("ctx:next_player()");
    }
    exec(&mut g, &code);
    g
}

fn chosen(g: &mut Game, bot: &str, seed: u64) -> String {
    let mut bot = Seat::parse(bot).unwrap().bot(seed, 0).unwrap();
    let i = bot.choose(g).unwrap().index;
    g.pending().unwrap().options()[i].to_string()
}

/// Black to move has four in row 8 (cols 5-8) with both ends open; white has three elsewhere.
fn win_in_one() -> Game {
    position(
        &[
            (8, 5, 1),
            (8, 6, 1),
            (8, 7, 1),
            (8, 8, 1),
            (3, 3, 2),
            (3, 4, 2),
            (3, 5, 2),
        ],
        1,
    )
}

/// White has four in column 10 (rows 4-7), closed above by black at (3, 10): black must block
/// (8, 10).
fn closed_four() -> Game {
    position(
        &[
            (3, 10, 1),
            (4, 10, 2),
            (5, 10, 2),
            (6, 10, 2),
            (7, 10, 2),
            (8, 8, 1),
            (9, 9, 1),
        ],
        1,
    )
}

/// White has an open three in row 8 (cols 7-9); black's stones are scattered.
fn open_three() -> Game {
    position(
        &[(8, 7, 2), (8, 8, 2), (8, 9, 2), (2, 2, 1), (13, 13, 1)],
        1,
    )
}

#[test]
fn mcts_takes_a_win_in_one() {
    let pick = chosen(&mut win_in_one(), "mcts:200", 1);
    assert!(pick == "place 8 4" || pick == "place 8 9", "{pick}");
}

#[test]
fn mcts_blocks_a_four() {
    assert_eq!(chosen(&mut closed_four(), "mcts:300", 2), "place 8 10");
}

#[test]
fn mcts_blocks_an_open_three_when_nothing_better_exists() {
    let pick = chosen(&mut open_three(), "mcts:400", 3);
    assert!(pick == "place 8 6" || pick == "place 8 10", "{pick}");
}

/// Flat Monte Carlo tries the AI's best options only, so its playouts are enough to tell a
/// win or a lost line from the rest on a board of 200 points.
#[test]
fn montecarlo_takes_a_win_in_one_and_blocks_a_four() {
    let pick = chosen(&mut win_in_one(), "montecarlo", 1);
    assert!(pick == "place 8 4" || pick == "place 8 9", "{pick}");
    assert_eq!(chosen(&mut closed_four(), "montecarlo", 2), "place 8 10");
}

#[test]
fn mcts_gives_the_same_choice_for_the_same_seed() {
    let mut g = position(&[(8, 8, 1), (8, 9, 2)], 1);
    assert_eq!(chosen(&mut g, "mcts:100", 9), chosen(&mut g, "mcts:100", 9));
}

/// A search leaves the position, the events, the history and the undo steps as they were.
fn leaves_the_game_as_it_was(bot: &str) {
    let mut g = position(&[(8, 8, 1), (8, 9, 2)], 1);
    g.enable_undo();
    act(&mut g, "place 7 7");
    let before = (g.snapshot().unwrap(), g.events(), g.history.clone());
    chosen(&mut g, bot, 1);
    assert_eq!(
        (g.snapshot().unwrap(), g.events(), g.history.clone()),
        before
    );
    assert!(g.undo().unwrap(), "the undo history survives a search");
}

#[test]
fn mcts_leaves_the_game_as_it_was() {
    leaves_the_game_as_it_was("mcts:50");
}

/// Games `bot` wins against random at Gomoku, half of them moving first, over `games()` seeds.
fn wins_against_random(bot: &str) -> u64 {
    let mut wins = 0;
    for seed in 1..=games() {
        let first = seed % 2 == 0;
        let seats = if first {
            format!("{bot},random")
        } else {
            format!("random,{bot}")
        };
        let outcome = match_game("gomoku", "board", &seats, seed);
        let me = if first { 0 } else { 1 };
        if outcome == Some(Outcome::Won { winners: vec![me] }) {
            wins += 1;
        }
        eprintln!("seed {seed}: {outcome:?}");
    }
    wins
}

#[test]
fn mcts_beats_random_at_gomoku() {
    let (n, wins) = (games(), wins_against_random("mcts:200"));
    assert!(wins * 100 >= n * 95, "mcts won {wins} of {n}");
}

#[test]
fn mcts_plays_the_property_game() {
    let mut g = start("monopoly", "demo", 2, 5, &["salary=200"]);
    let mut bots: Vec<_> = (0..2)
        .map(|s| Seat::parse("mcts:30").unwrap().bot(5, s))
        .collect();
    let played = play_decisions(&mut g, &mut bots, 10).unwrap();
    assert_eq!(played, 10);
    assert_eq!(g.world().unwrap().decisions, 10);
}

#[test]
fn play_decisions_stops_after_the_limit_or_at_the_end() {
    let mut g = start("tictactoe", "board", 2, 3, &[]);
    let mut bots: Vec<_> = (0..2).map(|s| Seat::Random.bot(3, s)).collect();
    assert_eq!(play_decisions(&mut g, &mut bots, 3).unwrap(), 3);
    assert_eq!(g.world().unwrap().decisions, 3);
    assert!(g.pending().is_some());
    let rest = play_decisions(&mut g, &mut bots, 100).unwrap();
    assert!(
        (2..=6).contains(&rest),
        "a game of 5 to 9 marks, {rest} after 3"
    );
    assert!(g.is_over());
    assert_eq!(g.world().unwrap().decisions as usize, 3 + rest);
}

// Alpha-beta ------------------------------------------------------------------------------------

#[test]
fn alphabeta_takes_a_win_in_one() {
    let pick = chosen(&mut win_in_one(), "alphabeta", 1);
    assert!(pick == "place 8 4" || pick == "place 8 9", "{pick}");
}

#[test]
fn alphabeta_blocks_a_four() {
    assert_eq!(chosen(&mut closed_four(), "alphabeta", 2), "place 8 10");
}

#[test]
fn alphabeta_blocks_an_open_three_when_nothing_better_exists() {
    let pick = chosen(&mut open_three(), "alphabeta", 3);
    assert!(pick == "place 8 6" || pick == "place 8 10", "{pick}");
}

#[test]
fn alphabeta_leaves_the_game_as_it_was() {
    leaves_the_game_as_it_was("alphabeta:2");
}

#[test]
fn alphabeta_explains_its_choice_best_first() {
    let mut g = position(&[(8, 8, 1), (8, 9, 2), (9, 9, 1)], 2);
    let mut bot = Seat::parse("alphabeta:2").unwrap().bot(1, 1).unwrap();
    let choice = bot.explain(&mut g).unwrap();
    assert_eq!(
        choice.candidates.len(),
        8,
        "the AI's best 8 options are searched"
    );
    assert_eq!(choice.index, choice.candidates[0].0);
    assert!(choice.candidates.windows(2).all(|w| w[0].1 >= w[1].1));
}

/// A line the search saw won or lost reads as such, counted in plies from the move weighed:
/// after X in the centre and O on an edge, X wins by the fifth ply whatever O does, unless it
/// plays the opposite edge.
#[test]
fn alphabeta_shows_a_won_line_as_a_win_in_plies() {
    let mut g = start("tictactoe", "board", 2, 1, &[]);
    act(&mut g, "place 2 2");
    act(&mut g, "place 1 2");
    let mut bot = Seat::parse("alphabeta:7").unwrap().bot(1, 0).unwrap();
    let choice = bot.explain(&mut g).unwrap();
    let shown: Vec<(String, String)> = (choice.ranked().into_iter())
        .map(|(i, v)| (options(&g)[i].clone(), value_text(v)))
        .collect();
    let wins = shown.iter().filter(|(_, v)| v == "win in 5 plies").count();
    assert_eq!(wins, 6, "{shown:?}");
    assert_eq!(shown[6], ("place 3 2".to_string(), "0.00".to_string()));
    assert_eq!(value_text(-(1e15 - 4.0)), "loss in 4 plies");
    assert_eq!(value_text(1e15 - 1.0), "win in 1 ply");
    assert_eq!(
        value_text(1e15),
        "1000000000000000.00",
        "a ply 0 is no line"
    );
}

#[test]
fn alphabeta_plays_two_player_games_only() {
    let mut g = start("monopoly", "demo", 3, 1, &[]);
    let mut bot = Seat::parse("alphabeta").unwrap().bot(1, 0).unwrap();
    let err = bot.choose(&mut g).expect_err("three seats are refused");
    assert_eq!(
        err.to_string(),
        "rejected: the alphabeta bot plays two-player games; this game has 3 seats"
    );
    assert_eq!(
        Seat::parse("alphabeta:0").unwrap_err(),
        "bad alphabeta depth '0' (expected moves ahead from 1 to 8, like alphabeta:3)"
    );
}

#[test]
fn alphabeta_beats_random_at_gomoku() {
    let (n, wins) = (games(), wins_against_random("alphabeta"));
    assert_eq!(wins, n, "alphabeta won {wins} of {n}");
}

/// Plays a seeded game between the bots `seats` names; returns the outcome.
fn match_game(game: &str, map: &str, seats: &str, seed: u64) -> Option<Outcome> {
    let mut g = start(game, map, 2, seed, &[]);
    g.set_record_events(false);
    let mut bots: Vec<_> = Seat::parse_list(seats)
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, s)| s.bot(seed, i))
        .collect();
    play_out(&mut g, &mut bots, MAX_DECISIONS).unwrap();
    g.outcome()
}

#[test]
fn alphabeta_plays_tic_tac_toe_perfectly() {
    for seed in 1..=games() {
        let both = match_game("tictactoe", "board", "alphabeta:8,alphabeta:8", seed);
        assert_eq!(both, Some(Outcome::Draw), "seed {seed}: perfect play draws");
        for (seats, me) in [("alphabeta:8,random", 0), ("random,alphabeta:8", 1)] {
            let outcome = match_game("tictactoe", "board", seats, seed);
            let lost = matches!(&outcome, Some(Outcome::Won { winners }) if !winners.contains(&me));
            assert!(!lost, "seed {seed}, {seats}: {outcome:?}");
        }
    }
}

#[test]
fn alphabeta_beats_the_heuristic_at_gomoku_moving_first() {
    let (mut wins, mut losses) = (0, 0);
    for seed in 1..=games() {
        match match_game("gomoku", "board", "alphabeta,ai", seed) {
            Some(Outcome::Won { winners }) if winners == [0] => wins += 1,
            Some(Outcome::Won { .. }) => losses += 1,
            _ => {}
        }
    }
    eprintln!("alphabeta {wins} wins, heuristic {losses}");
    assert!(wins > losses, "alphabeta {wins} wins, heuristic {losses}");
}

/// A two-seat game (seed 1) of a copy of game `id` whose `ai.lua` runs `ai` on `AI` (the copy
/// lives as long as the returned variant).
fn with_ai(id: &str, map: Option<&str>, ai: &str) -> (Variant, Game) {
    let v = variant(id, "", ai, None);
    let config = meeple::engine::GameConfig {
        map: map.map(String::from),
        seats: 2,
        seed: 1,
        settings: Vec::new(),
    };
    let g = Game::new(v.pkg.clone(), config).unwrap();
    (v, g)
}

/// A NaN score is an error at the AI function when choosing and explaining (it used to be a
/// panic, then a score no option could reach).
#[test]
fn heuristic_with_nan_scores_gives_an_error() {
    let (_v, mut g) = with_ai("tictactoe", None, "AI.score = function() return 0 / 0 end");
    let mut bot = Seat::Heuristic(None).bot(1, 0).unwrap();
    for err in [bot.choose(&mut g), bot.explain(&mut g)] {
        let err = err.unwrap_err().to_string();
        assert!(
            err.contains("ai.lua:2: error: AI.score returned NaN (not a number: 0/0?) for option 1 (place 1 1), expected a number"),
            "{err}"
        );
        assert!(err.contains("in state 'turn' hook 'AI.score'"), "{err}");
    }
}

/// `AI.fixed` gives every option of its verbs a score without a call to `AI.score`: in the
/// scores shown, in the bot's choice and in the in-VM driver's games.
#[test]
fn fixed_scores_stand_in_for_ai_score() {
    let ai = "AI.fixed = { place = 4 }\nAI.score = function() error('AI.score was called') end";
    let (_v, mut g) = with_ai("tictactoe", None, ai);
    assert_eq!(g.score_options(None).unwrap(), vec![4.0; 9]);
    let mut bot = Seat::Heuristic(None).bot(1, 0).unwrap();
    assert!(bot.choose(&mut g).unwrap().index < 9);
    let choice = bot.explain(&mut g).unwrap();
    assert_eq!(choice.candidates.len(), 9);
    assert!(choice.candidates.iter().all(|(_, score)| *score == 4.0));
    let mut bots: Vec<_> = (0..2).map(|s| Seat::Heuristic(None).bot(1, s)).collect();
    play_out(&mut g, &mut bots, MAX_DECISIONS).unwrap();
    assert!(g.is_over());
}

/// Fixed scores rank against `AI.score`'s: at the property game's buy decision `buy` is scored
/// 10 and `pass` fixed at 0, so the bot buys; with `pass` fixed at 50 it passes (the in-VM
/// driver agrees: `autoplay::styles_play_the_same_inside_the_vm`).
#[test]
fn fixed_scores_rank_against_scored_options() {
    for (ai, scores, pick) in [
        ("", [10.0, 0.0], "buy shanghai"),
        ("AI.fixed.pass = 50", [10.0, 50.0], "pass"),
    ] {
        let (_v, mut g) = with_ai("monopoly", Some("demo"), ai);
        g.force_dice(&[1, 2]);
        act(&mut g, "roll");
        assert_eq!(options(&g), ["buy shanghai", "pass"]);
        assert_eq!(g.score_options(None).unwrap(), scores);
        let index = Seat::Heuristic(None)
            .bot(1, 0)
            .unwrap()
            .choose(&mut g)
            .unwrap()
            .index;
        assert_eq!(options(&g)[index], pick, "{ai:?}");
    }
}

/// The heuristic bot draws from its tie-break generator only when options tie: on the empty
/// tic-tac-toe board the centre is the one best point (the generator stays as it was); after
/// it, the four corners tie (the generator moves on).
#[test]
fn heuristic_draws_a_tie_break_only_for_a_tie() {
    let mut g = start("tictactoe", "board", 2, 1, &[]);
    let mut bot = Seat::Heuristic(None).bot(1, 0).unwrap();
    let generator = |bot: &mut Box<dyn meeple::ai::Bot>, g: &Game| {
        bot.policy(g, 0).expect("a heuristic seat").1.clone()
    };
    let before = generator(&mut bot, &g);
    let centre = bot.choose(&mut g).unwrap().index;
    assert_eq!(options(&g)[centre], "place 2 2");
    assert_eq!(bot.explain(&mut g).unwrap().index, centre);
    assert_eq!(generator(&mut bot, &g), before, "one best option: no draw");
    g.apply_index(centre).unwrap();
    let corner = bot.choose(&mut g).unwrap().index;
    let corners = ["place 1 1", "place 1 3", "place 3 1", "place 3 3"];
    assert!(corners.contains(&options(&g)[corner].as_str()));
    assert_ne!(generator(&mut bot, &g), before, "four tied corners: a draw");
}

/// A search whose playouts hit a script error leaves the game where it was: the bot's error is
/// reported from the position it was asked in, not from somewhere inside its search.
#[test]
fn a_failing_search_puts_the_position_back() {
    let rules = "local orig = R.states.wait_player.act\n\
                 R.states.wait_player.act = function(G, ctx, option, p)\n\
                   if ctx:turn() >= 3 then error('deep in a playout') end\n\
                   return orig(G, ctx, option, p)\n\
                 end";
    let v = variant("monopoly", rules, "", None);
    for bot in ["mcts:50", "montecarlo:5", "alphabeta:6"] {
        let mut g = v.game("demo", 2);
        while g.pending().is_some_and(|p| p.len() < 2) {
            g.apply_index(0).unwrap(); // roll until a decision with a choice (buy or pass)
        }
        let before = g.snapshot().unwrap();
        let seat = g.pending().map(|p| p.seat);
        let mut b = Seat::parse(bot).unwrap().bot(1, 0).unwrap();
        let err = b
            .choose(&mut g)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("deep in a playout"), "{bot}: {err}");
        assert_eq!(
            g.snapshot().unwrap(),
            before,
            "{bot}: the position is put back"
        );
        assert_eq!(g.pending().map(|p| p.seat), seat, "{bot}");
    }
}

/// Options listed as bare strings (`"pass"` for `{"pass"}`) work inside searches too, where
/// lists are not checked one by one.
#[test]
fn search_bots_take_bare_string_options() {
    let rules = "local orig = R.states.buying.options\n\
                 R.states.buying.options = function(G, ctx, p) return { 'pass', orig(G, ctx, p)[1] } end\n\
                 R.states.wait_player.options = function() return { 'roll', 'roll' } end";
    let v = variant("monopoly", rules, "", None);
    for bot in ["mcts:50", "alphabeta:2", "montecarlo:5"] {
        let mut g = v.game("demo", 2);
        assert_eq!(g.pending().unwrap().options()[0].to_string(), "roll");
        let mut b = Seat::parse(bot).unwrap().bot(1, 0).unwrap();
        let choice = b.choose(&mut g).unwrap_or_else(|e| panic!("{bot}: {e}"));
        assert!(choice.index < 2, "{bot}");
    }
}

/// A bare string between option tables, in lists made afresh at each position of a search,
/// is read as {verb} there too: the buy decision's "pass" sits between two tables.
#[test]
fn search_bots_take_a_bare_string_between_option_tables() {
    let rules = "local orig = R.states.buying.options\n\
                 R.states.buying.options = function(G, ctx, p)\n\
                   local l = orig(G, ctx, p)\n\
                   return { l[1], 'pass', { 'pass' } }\n\
                 end\n\
                 local act = R.states.buying.act\n\
                 R.states.buying.act = function(G, ctx, o, p)\n\
                   assert(type(o) == 'table', 'a bare string reached act')\n\
                   return act(G, ctx, o, p)\n\
                 end";
    let v = variant("monopoly", rules, "", None);
    for bot in ["mcts:200", "alphabeta:4", "montecarlo:20"] {
        let mut g = v.game("demo", 2);
        let mut b = Seat::parse(bot).unwrap().bot(1, 0).unwrap();
        for _ in 0..6 {
            let choice = b.choose(&mut g).unwrap_or_else(|e| panic!("{bot}: {e}"));
            g.apply_index(choice.index).unwrap();
        }
    }
}

/// A search frees every position it marked: after each kind of bot has thought, in a game
/// with no hidden pieces and in one where a re-deal stands in for what the seat cannot see,
/// no mark is held (a search that kept its nodes' marks grew without end over a long game).
#[test]
fn a_bot_holds_no_mark_once_it_has_chosen() {
    let mut gomoku = position(&[(8, 8, 1), (8, 9, 2)], 1);
    let mut mahjong = start("mahjong", "table", 4, 4, &[]);
    let cases: [(&mut Game, &[&str]); 2] = [
        (&mut gomoku, &["alphabeta:2", "mcts:50", "ai"]),
        (&mut mahjong, &["ai", "montecarlo:20", "mcts:20"]),
    ];
    for (g, bots) in cases {
        let (position, log) = (g.snapshot().unwrap().hash(), g.events());
        for bot in bots {
            for seed in 1..=3 {
                chosen(g, bot, seed);
                assert_eq!(g.marks_held(), 0, "{bot}, seed {seed}");
                // And the search left the game as it found it.
                assert_eq!(g.snapshot().unwrap().hash(), position, "{bot}, seed {seed}");
                assert_eq!(g.events(), log, "{bot}, seed {seed}");
            }
        }
    }
}

/// A face-down deck's order is known to nobody: every search bot weighs drawing from the
/// Peek fixture's two-card deck the same whichever card truly lies on top.
#[test]
fn search_bots_do_not_know_the_order_of_a_deck() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/peek");
    let pkg = std::sync::Arc::new(meeple::def::load_package(&dir).expect("the Peek fixture"));
    let weighed = |bot: &str, top: u16| {
        let mut g = start_with(&pkg, "table", 2, 1, &[]);
        let mut snap = g.snapshot().unwrap();
        snap.world.decks[0].pile = vec![1 - top, top];
        g.restore(&snap).unwrap();
        let mut bot = Seat::parse(bot).unwrap().bot(7, 0).unwrap();
        bot.explain(&mut g).unwrap().ranked()
    };
    for bot in ["mcts:200", "montecarlo:50", "alphabeta:1"] {
        assert_eq!(weighed(bot, 0), weighed(bot, 1), "{bot}");
    }
}

/// A move that won once by luck is no sure win: MCTS keeps visiting both of Peek's even bets
/// (a draw from a face-down deck, a coin), whichever won its first try.
#[test]
fn mcts_plays_on_past_a_lucky_win() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/peek");
    let pkg = std::sync::Arc::new(meeple::def::load_package(&dir).expect("the Peek fixture"));
    for seed in 1..=8 {
        let mut g = start_with(&pkg, "table", 2, seed, &[]);
        let mut bot = Seat::parse("mcts:300").unwrap().bot(seed, 0).unwrap();
        let visits = bot.explain(&mut g).unwrap().ranked();
        let fewest = visits.iter().map(|(_, v)| *v).fold(300.0, f64::min);
        assert!(
            visits.len() == 2 && fewest >= 60.0,
            "seed {seed}: {visits:?}"
        );
    }
}

/// A race that never ends (the round cap is far off): each seat moves its marker `up` or
/// `down`. `ai` is the AI script's text.
fn endless_race(ai: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let manifest = "players = { min = 2, max = 2 }\n\
                    [settings]\nround_cap = 100000\n[flow]\nstart = \"turn\"\n[flow.states]\n\
                    turn = { next = [\"turn\", \"over\"], decide = true }\n\
                    over = { final = true }\n";
    let rules = "local R = { states = {} }\n\
                 function R.setup(G) G.x = { 0, 0 } end\n\
                 R.states.turn = {\n\
                 \x20 options = function() return { { \"down\" }, { \"up\" } } end,\n\
                 \x20 act = function(G, ctx, option, p)\n\
                 \x20   G.x[p] = G.x[p] + (option[1] == \"up\" and 1 or -1)\n\
                 \x20   ctx:next_player()\n\
                 \x20 end,\n}\nreturn R\n";
    let game = table_game(
        dir.path(),
        "race",
        manifest,
        &[("rules.lua", rules), ("ai.lua", ai)],
    );
    (dir, game)
}

const RACE_STANDING: &str = "local AI = {}\n\
                          function AI.score() return 0 end\n\
                          function AI.standing(G, ctx, p)\n\
                          \x20 return math.max(0, math.min(1, (G.x[p] - G.x[3 - p] + 4) / 8))\n\
                          end\n\
                          AI.horizon = 6\nreturn AI\n";

/// In a game whose playouts never end, `AI.standing` judges where they stop: the search bots
/// move up, seed after seed; and a playout runs its horizon, not to the round cap.
#[test]
fn search_bots_judge_a_playout_by_ai_value_at_its_horizon() {
    let (_dir, game) = endless_race(RACE_STANDING);
    let pkg = load_at(&game);
    let mut g = start_with(&pkg, "table", 2, 1, &[]);
    assert_eq!(g.playout_horizon(), Some(6));
    for seed in 1..=5 {
        for bot in ["mcts:100", "montecarlo:40"] {
            assert_eq!(chosen(&mut g, bot, seed), "up", "{bot}, seed {seed}");
        }
    }
    let before = g.decisions();
    g.random_playout(1000).unwrap();
    let stopped = g.decisions() - before;
    assert_eq!((stopped, g.outcome()), (1000, None));
    let mut g = start_with(&pkg, "table", 2, 1, &[]);
    let start = g.decisions();
    let horizon = g.playout_horizon().unwrap();
    g.random_playout(horizon as usize).unwrap();
    assert_eq!(g.decisions() - start, 6);
    let values = g.standings().unwrap();
    assert!(values.iter().all(|v| (0.0..=1.0).contains(v)), "{values:?}");
}

/// A standing out of range is an error at `AI.standing`; a horizon without it, or not a whole
/// number, is refused when the game loads.
#[test]
fn a_bad_ai_standing_or_horizon_is_an_error() {
    let (_dir, game) = endless_race(&RACE_STANDING.replace(
        "math.max(0, math.min(1, (G.x[p] - G.x[3 - p] + 4) / 8))",
        "2",
    ));
    let pkg = load_at(&game);
    let mut g = start_with(&pkg, "table", 2, 1, &[]);
    let mut bot = Seat::parse("mcts:10").unwrap().bot(1, 0).unwrap();
    let e = bot.choose(&mut g).unwrap_err().to_string();
    assert!(
        e.contains("ai.lua:3: error: AI.standing returned a number (2) for P1, expected a number from 0 (lost) to 1 (won)"),
        "{e}"
    );
    for (ai, said) in [
        (
            RACE_STANDING.replace("function AI.standing", "function AI.worth"),
            "AI.horizon needs AI.standing(G, ctx, seat), which judges the position where a playout stops",
        ),
        (
            RACE_STANDING.replace("AI.horizon = 6", "AI.horizon = 0"),
            "AI.horizon must be a whole number of decisions, at least 1; got 0",
        ),
    ] {
        let (_dir, game) = endless_race(&ai);
        let Err(diags) = try_start(&load_at(&game), "table", 2, 1, &[]) else {
            panic!("{said}: the game loaded");
        };
        let shown = meeple::diag::render(&diags);
        assert!(shown.contains(said), "{shown}");
    }
}
