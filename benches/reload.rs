//! Edit saved → new rules live, for the property game: 100 edits of a rent in a temp copy of
//! the demo map while a game runs. Each sample runs from just before the file is written to
//! the moment the next action has been applied under the new rules (watcher, debounce, reload
//! and that action included). Run with `cargo bench --bench reload`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::copy_game;
use meeple::core::action::Action;
use meeple::def::load_package;
use meeple::engine::{Game, GameConfig};
use meeple::reload::Watcher;
use std::sync::Arc;
use std::time::{Duration, Instant};

const EDITS: usize = 100;

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let (_tmp, root) = copy_game("monopoly", "games/mono");
    let pkg = Arc::new(load_package(&root).unwrap());
    let config = GameConfig {
        map: Some("demo".into()),
        seats: 2,
        seed: 1,
        settings: vec![],
    };
    let mut game = Game::new(pkg.clone(), config).unwrap();
    game.exec("R.acquire(G, ctx, 2, 2); ctx.board:place(1, 9)")
        .unwrap();
    let start = game.snapshot().unwrap();
    let watcher = Watcher::for_game(&pkg).unwrap();
    let map = root.join("maps/demo.toml");
    let original = std::fs::read_to_string(&map).unwrap();
    let (mut total, mut to_request, mut reload) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..EDITS {
        let rent = 11 + i as i64;
        game.restore(&start).unwrap();
        let cash_before = game.world().unwrap().counters[0][0];
        let t0 = Instant::now();
        std::fs::write(
            &map,
            original.replacen("rent = [20, 150,", &format!("rent = [{rent}, 150,"), 1),
        )
        .unwrap();
        watcher
            .requests
            .recv_timeout(Duration::from_secs(10))
            .expect("a reload request");
        let requested = t0.elapsed();
        let r = game.try_reload().unwrap();
        game.force_dice(&[1, 2]);
        game.apply(0, &Action::new("roll")).unwrap();
        let done = t0.elapsed();
        let salary = game
            .eval("return ctx.settings.salary")
            .unwrap()
            .as_i64()
            .unwrap();
        assert_eq!(
            game.world().unwrap().counters[0][0],
            cash_before + salary - rent,
            "edit {i} is live"
        );
        total.push(done);
        to_request.push(requested);
        reload.push(r.took);
    }
    for v in [&mut total, &mut to_request, &mut reload] {
        v.sort();
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("edit saved -> new rules live, {EDITS} edits of maps/demo.toml");
    println!(
        "  total            p50 {:6.1} ms  p95 {:6.1} ms  max {:6.1} ms",
        ms(percentile(&total, 0.5)),
        ms(percentile(&total, 0.95)),
        ms(total[EDITS - 1])
    );
    println!(
        "  save -> request  p50 {:6.1} ms  p95 {:6.1} ms  (debounce {} ms)",
        ms(percentile(&to_request, 0.5)),
        ms(percentile(&to_request, 0.95)),
        meeple::reload::watch::DEBOUNCE.as_millis()
    );
    println!(
        "  try_reload       p50 {:6.1} ms  p95 {:6.1} ms",
        ms(percentile(&reload, 0.5)),
        ms(percentile(&reload, 0.95))
    );
}
