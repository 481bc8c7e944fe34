//! Property-game speed: complete 4-player classic games with the heuristic AI, dice moves on
//! the demo map, and the cost of one decision. Run with `cargo bench --bench monopoly`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meeple::ai::{play_out, Seat};
use meeple::def::{find_game, load_package};
use meeple::engine::{Game, GameConfig};
use std::sync::Arc;

fn game(map: &str) -> Game {
    let pkg = Arc::new(load_package(&find_game("monopoly").unwrap()).unwrap());
    let config = GameConfig {
        map: Some(map.into()),
        seats: 4,
        seed: 1,
        settings: Vec::new(),
    };
    let mut g = Game::new(pkg, config).unwrap();
    g.set_record_events(false);
    g
}

/// Plays one full game from `seed`; returns (dice moves, decisions).
fn play(g: &mut Game, seed: u64) -> (u64, u64) {
    g.restart(seed).unwrap();
    let mut bots: Vec<_> = (0..4).map(|s| Seat::Heuristic(None).bot(seed, s)).collect();
    play_out(g, &mut bots).unwrap();
    let w = g.world();
    let moves = w
        .tallies
        .get("landing")
        .map(|t| t.values().sum())
        .unwrap_or(0);
    (moves, w.decisions)
}

fn classic_games(c: &mut Criterion) {
    let mut g = game("classic");
    let mut group = c.benchmark_group("classic");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("full_game_4p_ai", |b| {
        b.iter(|| {
            seed += 1;
            play(&mut g, seed)
        })
    });
    group.finish();
}

/// Seeds 1..=20 on the demo map: a fixed batch, so the work per iteration is identical.
fn demo_batch(g: &mut Game) -> (u64, u64) {
    (1..=20).fold((0, 0), |(m, d), seed| {
        let (moves, decisions) = play(g, seed);
        (m + moves, d + decisions)
    })
}

fn demo_moves(c: &mut Criterion) {
    let mut g = game("demo");
    let (moves, decisions) = demo_batch(&mut g);
    let mut group = c.benchmark_group("demo");
    group.sample_size(20);
    group.throughput(Throughput::Elements(moves));
    group.bench_function(format!("dice_moves_20_games_{moves}_moves"), |b| {
        b.iter(|| demo_batch(&mut g))
    });
    group.throughput(Throughput::Elements(decisions));
    group.bench_function(format!("decisions_20_games_{decisions}_decisions"), |b| {
        b.iter(|| demo_batch(&mut g))
    });
    group.finish();
}

criterion_group!(benches, classic_games, demo_moves);
criterion_main!(benches);
