//! Conformance: every game in `games/` loads, plays seeded random games to an end or the round
//! cap without script errors, is deterministic, survives save → load → continue, undoes and
//! redoes exactly, accepts every option it lists, and (where the rules offer one) makes only
//! legal quick moves for playouts. Raise the game count with
//! MEEPLE_CONFORMANCE_GAMES (default 3 per map).

mod common;
use meeple::ai::{play_decisions, Bot, Seat};
use meeple::def::Package;
use meeple::engine::{Game, GameConfig, Snapshot};
use std::sync::Arc;

/// Seeded games per map: MEEPLE_CONFORMANCE_GAMES, default 3.
fn count() -> u64 {
    common::games_from_env("MEEPLE_CONFORMANCE_GAMES", 3)
}

fn configs(pkg: &Package) -> Vec<GameConfig> {
    let seats = pkg.players.0.max(2).min(pkg.players.1);
    pkg.maps
        .keys()
        .map(|m| GameConfig {
            map: Some(m.clone()),
            seats,
            seed: 0,
            settings: Vec::new(),
        })
        .collect()
}

fn new_game(pkg: &Arc<Package>, config: &GameConfig, seed: u64) -> Game {
    let config = GameConfig {
        seed,
        ..config.clone()
    };
    Game::new(pkg.clone(), config).unwrap_or_else(|e| panic!("{}", meeple::diag::render(&e)))
}

fn random_bots(seats: usize, seed: u64) -> Vec<Option<Box<dyn Bot>>> {
    (0..seats).map(|s| Seat::Random.bot(seed, s)).collect()
}

/// Plays up to `limit` random decisions; returns how many were played.
fn play(game: &mut Game, bots: &mut [Option<Box<dyn Bot>>], limit: usize) -> usize {
    play_decisions(game, bots, limit)
        .unwrap_or_else(|e| panic!("after {} decisions: {e}", game.world().unwrap().decisions))
}

#[test]
fn random_games_end_without_script_errors() {
    for pkg in common::all_games() {
        for config in configs(&pkg) {
            for seed in 1..=count() {
                eprintln!("{} map {:?} seed {seed}", pkg.id, config.map);
                let mut game = new_game(&pkg, &config, seed);
                game.set_record_events(false);
                let mut bots = random_bots(config.seats, seed);
                play(&mut game, &mut bots, usize::MAX);
                assert!(
                    game.is_over() && game.outcome().is_some(),
                    "{} seed {seed} did not end",
                    pkg.id
                );
            }
        }
    }
}

#[test]
fn same_seed_gives_same_events() {
    for pkg in common::all_games() {
        for config in configs(&pkg) {
            let run = || {
                let mut game = new_game(&pkg, &config, 7);
                let mut bots = random_bots(config.seats, 7);
                play(&mut game, &mut bots, 300);
                (game.events(), game.snapshot().unwrap().hash())
            };
            let (a, b) = (run(), run());
            assert!(!a.0.is_empty());
            assert_eq!(a, b, "{} {:?}", pkg.id, config.map);
        }
    }
}

#[test]
fn save_load_continue_equals_continue() {
    for pkg in common::all_games() {
        for config in configs(&pkg) {
            for seed in 1..=count() {
                eprintln!("{} map {:?} seed {seed}", pkg.id, config.map);
                let mut game = new_game(&pkg, &config, seed);
                play(&mut game, &mut random_bots(config.seats, seed), 40);
                let saved = serde_json::to_string(&game.snapshot().unwrap()).unwrap();
                game.drain_events();
                play(&mut game, &mut random_bots(config.seats, seed + 100), 60);
                let expected = (game.events(), game.snapshot().unwrap());

                let mut resumed = new_game(&pkg, &config, 999);
                let snap: Snapshot = serde_json::from_str(&saved).unwrap();
                resumed.restore(&snap).unwrap();
                resumed.drain_events();
                play(&mut resumed, &mut random_bots(config.seats, seed + 100), 60);
                assert_eq!(
                    (resumed.events(), resumed.snapshot().unwrap()),
                    expected,
                    "{} seed {seed}",
                    pkg.id
                );
            }
        }
    }
}

#[test]
fn undo_and_redo_restore_exact_states() {
    for pkg in common::all_games() {
        for config in configs(&pkg) {
            let mut game = new_game(&pkg, &config, 3);
            game.enable_undo();
            let mut bots = random_bots(config.seats, 3);
            for step in 0..50 {
                if game.is_over() {
                    break;
                }
                let before = game.snapshot().unwrap();
                let history = game.history.len();
                play(&mut game, &mut bots, 1);
                let after = game.snapshot().unwrap();
                assert!(game.undo().unwrap());
                assert_eq!(
                    game.snapshot().unwrap(),
                    before,
                    "{} undo at step {step}",
                    pkg.id
                );
                assert_eq!(game.history.len(), history);
                assert!(game.redo().unwrap());
                assert_eq!(
                    game.snapshot().unwrap(),
                    after,
                    "{} redo at step {step}",
                    pkg.id
                );
                assert_eq!(game.history.len(), history + 1);
                assert!(!game.redo().unwrap(), "nothing left to redo");
            }
        }
    }
}

#[test]
fn every_listed_option_applies() {
    for pkg in common::all_games() {
        for config in configs(&pkg) {
            let seed = 11;
            eprintln!("{} map {:?} seed {seed}", pkg.id, config.map);
            let mut game = new_game(&pkg, &config, seed);
            let mut bots = random_bots(config.seats, seed);
            for _ in 0..30 {
                let Some(p) = game.pending() else { break };
                let n = p.len();
                let snap = game.snapshot().unwrap();
                for i in 0..n {
                    game.restore(&snap).unwrap();
                    let option = game.pending().unwrap().options()[i].clone();
                    let seat = game.pending().unwrap().seat;
                    game.apply(seat, &option)
                        .unwrap_or_else(|e| panic!("{} option '{option}': {e}", pkg.id));
                }
                game.restore(&snap).unwrap();
                play(&mut game, &mut bots, 3);
            }
        }
    }
}

#[test]
fn quick_playout_moves_are_listed_options() {
    for pkg in common::all_games() {
        for config in configs(&pkg) {
            let mut game = new_game(&pkg, &config, 5);
            if game.eval("return R.random_move ~= nil").unwrap() != serde_json::json!(true) {
                continue;
            }
            let mut bots = random_bots(config.seats, 5);
            for step in 0..40 {
                if game.is_over() {
                    break;
                }
                let options: Vec<String> = game
                    .pending()
                    .unwrap()
                    .options()
                    .iter()
                    .map(|o| o.to_string())
                    .collect();
                let chosen = game
                    .eval("local m = R.random_move(G, ctx, ctx:current()); local parts = {} for i, v in ipairs(m) do parts[i] = tostring(v) end return table.concat(parts, ' ')")
                    .unwrap();
                let chosen = chosen.as_str().unwrap().to_string();
                assert!(
                    options.contains(&chosen),
                    "{} step {step}: random_move gave '{chosen}'",
                    pkg.id
                );
                play(&mut game, &mut bots, 1);
            }
        }
    }
}
