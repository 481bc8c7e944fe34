//! Mahjong speed: win checks and shanten (with a fresh and a warm cache of suit readings) over
//! random hands with the runtime's meld primitive, and one Monte Carlo discard decision of the
//! AI script at the seed's budget (500 samples). Run with `cargo bench --bench mahjong`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meeple::ai::{play_decisions, Seat};
use meeple::core::meld::Shapes;
use meeple::core::rng::GameRng;
use meeple::core::shanten::Shanten;
use meeple::def::{find_game, load_package};
use meeple::engine::{Game, GameConfig};
use std::sync::Arc;

/// `n` random hands of `size` tiles from a shuffled 136-tile set, as counts.
fn hands(n: usize, size: usize) -> Vec<Vec<u8>> {
    let mut rng = GameRng::from_seed(7);
    (0..n)
        .map(|_| {
            let mut tiles: Vec<usize> = (0..136).map(|i| i / 4).collect();
            rng.shuffle(&mut tiles);
            let mut c = vec![0u8; 34];
            tiles[..size].iter().for_each(|t| c[*t] += 1);
            c
        })
        .collect()
}

/// `n` random winning hands: four melds (a run or a set, drawn at random) and a pair, at most
/// four copies of a tile.
fn winning_hands(n: usize) -> Vec<Vec<u8>> {
    let mut rng = GameRng::from_seed(8);
    let mut out = Vec::new();
    while out.len() < n {
        let mut c = vec![0u8; 34];
        for _ in 0..4 {
            let t = rng.below(34) as usize;
            if t < 27 && t % 9 <= 6 && rng.below(2) == 0 {
                (t..t + 3).for_each(|k| c[k] += 1);
            } else {
                c[t] += 3;
            }
        }
        c[rng.below(34) as usize] += 2;
        if c.iter().all(|k| *k <= 4) {
            out.push(c);
        }
    }
    out
}

fn shapes() -> Shapes {
    Shapes::new(34, &[(0, 8), (9, 17), (18, 26)])
}

fn win_checks(c: &mut Criterion) {
    let s = shapes();
    let hs = hands(1000, 14);
    let mut group = c.benchmark_group("mahjong");
    group.throughput(Throughput::Elements(hs.len() as u64));
    group.bench_function("win_check_1000_hands", |b| {
        b.iter(|| hs.iter().filter(|h| s.complete(h, 4)).count())
    });
    let wins = winning_hands(1000);
    assert!(wins.iter().all(|h| s.complete(h, 4)));
    group.bench_function("win_check_1000_winning_hands", |b| {
        b.iter(|| wins.iter().filter(|h| s.complete(h, 4)).count())
    });
    let hs13 = hands(1000, 13);
    // A fresh cache per batch: the cost includes working out every new suit reading.
    group.bench_function("shanten_1000_hands", |b| {
        b.iter(|| {
            let mut shanten = Shanten::new(&s);
            hs13.iter().map(|h| shanten.of(&s, h, 4)).sum::<i32>()
        })
    });
    let mut warm = Shanten::new(&s);
    group.bench_function("shanten_1000_hands_warm_cache", |b| {
        b.iter(|| hs13.iter().map(|h| warm.of(&s, h, 4)).sum::<i32>())
    });
    group.finish();
}

/// A four-player game after `decisions` heuristic decisions (seed 11), AI at `trials`.
fn midgame(decisions: usize, trials: u32) -> Game {
    let pkg = Arc::new(load_package(&find_game("mahjong").unwrap()).unwrap());
    let config = GameConfig {
        map: None,
        seats: 4,
        seed: 11,
        settings: vec![format!("ai_trials={trials}")],
    };
    let mut g = Game::new(pkg, config).unwrap();
    g.set_record_events(false);
    let mut bots: Vec<_> = (0..4).map(|s| Seat::Heuristic(None).bot(11, s)).collect();
    assert_eq!(
        play_decisions(&mut g, &mut bots, decisions).unwrap(),
        decisions
    );
    assert!(!g.is_over(), "the mid-game position is still open");
    g
}

fn discard_decision(c: &mut Criterion) {
    let mut g = midgame(12, 500);
    assert_eq!(g.state_name(), "turn", "a discard decision");
    let mut bot = Seat::Heuristic(None).bot(1, 0).unwrap();
    c.bench_function("mahjong/monte_carlo_discard_500", |b| {
        b.iter(|| bot.choose(&mut g).unwrap())
    });
}

criterion_group!(benches, win_checks, discard_decision);
criterion_main!(benches);
