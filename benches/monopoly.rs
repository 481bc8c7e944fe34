//! Property-game speed: complete 4-player classic games with the heuristic AI, dice moves on
//! the demo map (over 20 games, and over 2,000 as the Python baseline plays), and the cost of
//! one decision; beside them, the same demo games played by a
//! loop inside the VM that calls the rules' hooks directly (no driver, no checks), which
//! shows how much of the time is the rules' own Lua; and the Python baseline's script ported
//! to plain Lua and run in the same VM (`benches/baseline/monopoly_demo.lua`), which shows what
//! the rules cost without the runtime. Run with `cargo bench --bench monopoly`.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use meeple::ai::{play_out, Seat, MAX_DECISIONS};
use meeple::core::world::World;
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

/// Plays one full game from `seed`; returns (dice moves, decisions), read as `sim` reads a
/// game's results: the world once, when the game is over.
fn play(g: &mut Game, seed: u64) -> (u64, u64) {
    g.restart(seed).unwrap();
    let mut bots: Vec<_> = (0..4).map(|s| Seat::Heuristic(None).bot(seed, s)).collect();
    play_out(g, &mut bots, MAX_DECISIONS).unwrap();
    let w = g.world().unwrap();
    (landings(&w), w.decisions)
}

/// Dice moves so far: the landings the rules tallied (after any card or go-to-jail move).
fn landings(w: &World) -> u64 {
    w.tallies
        .get("landing")
        .map(|t| t.values().sum())
        .unwrap_or(0)
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

/// Seeds 1..=`games` on the demo map: a fixed batch, so the work per iteration is identical.
fn demo_batch(g: &mut Game, games: u64) -> (u64, u64) {
    (1..=games).fold((0, 0), |(m, d), seed| {
        let (moves, decisions) = play(g, seed);
        (m + moves, d + decisions)
    })
}

/// Twenty games (seeds 1–20), then as many games as the Python baseline plays (seeds
/// 1–2,000), each batch one iteration; each id names the batch's dice moves.
fn demo_moves(c: &mut Criterion) {
    let mut g = game("demo");
    let (moves, decisions) = demo_batch(&mut g, 20);
    let mut group = c.benchmark_group("demo");
    group.sample_size(20);
    group.throughput(Throughput::Elements(moves));
    group.bench_function(format!("dice_moves_20_games_{moves}_moves"), |b| {
        b.iter(|| demo_batch(&mut g, 20))
    });
    group.throughput(Throughput::Elements(decisions));
    group.bench_function(format!("decisions_20_games_{decisions}_decisions"), |b| {
        b.iter(|| demo_batch(&mut g, 20))
    });
    let (moves, _) = demo_batch(&mut g, 2000);
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(moves));
    group.bench_function(format!("dice_moves_2000_games_{moves}_moves"), |b| {
        b.iter(|| demo_batch(&mut g, 2000))
    });
    group.finish();
}

/// The heuristic bots' games played by calling the hooks straight from Lua: list, score (the
/// first best option, where the bots break ties at random), act, enter the automatic states.
/// Moves are counted as in `play`: the landings tallied.
const HOOKS_ONLY: &str = r#"
local AI, states = require("ai"), R.states
local state = "wait_player"
while state ~= "game_over" and ctx:round() <= ctx.settings.round_cap do
  local h, nxt, p = states[state], nil, ctx:current()
  if h.options then
    local list = h.options(G, ctx, p)
    local best, pick = -math.huge, nil
    for i = 1, #list do
      local s = AI.score(G, ctx, p, list[i])
      if s > best then best, pick = s, list[i] end
    end
    nxt = h.act(G, ctx, pick, p)
  else
    nxt = h.enter(G, ctx, p)
  end
  state = nxt or state
end
"#;

fn hooks_only(c: &mut Criterion) {
    let mut g = game("demo");
    let batch = |g: &mut Game| {
        (1..=20u64).fold(0, |moves, seed| {
            g.restart(seed).unwrap();
            g.eval(HOOKS_ONLY).unwrap();
            moves + landings(&g.world().unwrap())
        })
    };
    let moves = batch(&mut g);
    let mut group = c.benchmark_group("demo");
    group.sample_size(20);
    group.throughput(Throughput::Elements(moves));
    group.bench_function(format!("hooks_only_20_games_{moves}_moves"), |b| {
        b.iter(|| batch(&mut g))
    });
    group.finish();
}

/// The Python baseline ported line by line to Lua, 100 games per iteration from the same seed
/// (one eval's instruction budget runs out before 400).
fn plain_lua(c: &mut Criterion) {
    const GAMES: u32 = 100;
    let script = format!(
        "local GAMES = {GAMES} {}",
        include_str!("baseline/monopoly_demo.lua")
    );
    let mut g = game("demo");
    let mut batch = || {
        g.restart(1).unwrap();
        g.eval(&script).unwrap().as_u64().unwrap()
    };
    let moves = batch();
    let mut group = c.benchmark_group("demo");
    group.sample_size(20);
    group.throughput(Throughput::Elements(moves));
    group.bench_function(format!("plain_lua_{GAMES}_games_{moves}_moves"), |b| {
        b.iter(&mut batch)
    });
    group.finish();
}

criterion_group!(benches, classic_games, demo_moves, hooks_only, plain_lua);
criterion_main!(benches);
