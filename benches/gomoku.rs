//! Gomoku speed on 15×15: the heuristic AI's and the alpha-beta bot's moves on a mid-game
//! position, and random playouts per second through the scripted rules (what MCTS runs)
//! beside the same playouts written natively in Rust on the runtime's grid. Run with
//! `cargo bench --bench gomoku`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meeple::ai::{play_decisions, Seat};
use meeple::core::grid::GridState;
use meeple::core::rng::GameRng;
use meeple::def::{find_game, load_package};
use meeple::engine::{Game, GameConfig, Mark};
use std::sync::Arc;

/// A game after `moves` heuristic-vs-heuristic moves (seed 3), with `settings`.
fn midgame(moves: usize, settings: &[&str]) -> Game {
    let pkg = Arc::new(load_package(&find_game("gomoku").unwrap()).unwrap());
    let config = GameConfig {
        map: None,
        seats: 2,
        seed: 3,
        settings: settings.iter().map(|s| s.to_string()).collect(),
    };
    let mut g = Game::new(pkg, config).unwrap();
    g.set_record_events(false);
    let mut bots: Vec<_> = (0..2).map(|s| Seat::Heuristic(None).bot(3, s)).collect();
    assert_eq!(play_decisions(&mut g, &mut bots, moves).unwrap(), moves);
    assert!(!g.is_over(), "the mid-game position is still open");
    g
}

fn bot_moves(c: &mut Criterion) {
    let mut g = midgame(30, &[]);
    for (name, seat) in [
        ("heuristic", Seat::Heuristic(None)),
        ("alphabeta_2", Seat::AlphaBeta(2)),
        ("alphabeta_4", Seat::AlphaBeta(4)),
    ] {
        let mut bot = seat.bot(1, 0).unwrap();
        c.bench_function(&format!("gomoku/{name}_move_30_stones"), |b| {
            b.iter(|| bot.choose(&mut g).unwrap())
        });
    }
}

/// Restores the position, reseeds and plays one playout to the end.
fn scripted_playout(g: &mut Game, start: &Mark, rng: &mut GameRng) {
    g.back_to(start).unwrap();
    g.reseed(rng.next_u64());
    g.random_playout(10_000).unwrap();
}

/// The uniform playout in plain Rust: random empty cells until five in a row or a full board.
fn native_playout(start: &GridState, to_move: u8, rng: &mut GameRng) -> u8 {
    let mut g = start.clone();
    let mut empty: Vec<usize> = (0..g.cells.len()).filter(|i| g.cells[*i] == 0).collect();
    let mut who = to_move;
    while !empty.is_empty() {
        let k = rng.below(empty.len() as u64) as usize;
        let i = empty.swap_remove(k);
        let (r, c) = (i / g.cols, i % g.cols);
        g.set(r, c, who);
        if g.longest(r, c, who) >= 5 {
            return who;
        }
        who = 3 - who;
    }
    0
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_playouts");
    group.throughput(Throughput::Elements(1));
    for (name, settings) in [
        ("scripted_uniform", "playout=uniform"),
        ("scripted_tactical", "playout=tactical"),
    ] {
        for stones in [0, 30] {
            let mut g = midgame(stones, &[settings]);
            let mut rng = GameRng::from_seed(7);
            // Inside `searching`, as MCTS runs them: nothing recorded, lists not re-checked.
            g.searching(|g, start| {
                group.bench_function(format!("{name}_from_{stones}_stones"), |b| {
                    b.iter(|| scripted_playout(g, start, &mut rng))
                });
                Ok(())
            })
            .unwrap();
        }
    }
    for stones in [0, 30] {
        let g = midgame(stones, &[]);
        let grid = g.world().unwrap().grid.clone().unwrap();
        let to_move = g.pending().unwrap().seat as u8 + 1;
        let mut rng = GameRng::from_seed(7);
        group.bench_function(format!("native_uniform_from_{stones}_stones"), |b| {
            b.iter(|| native_playout(&grid, to_move, &mut rng))
        });
    }
    group.finish();
}

criterion_group!(benches, bot_moves, playouts);
criterion_main!(benches);
