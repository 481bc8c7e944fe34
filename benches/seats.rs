//! Decisions per second for mixes of seats, played the way `meeple sim --jobs 1` plays them,
//! beside their baselines in the same run: another build of meeple when `MEEPLE_BASELINE`
//! names its binary (the same command, turn about), and for Connect Four the plain Python
//! script `benches/baseline/connect4.py`. The baseline runs in its own checkout, so it plays
//! its own games/: the folder three levels above it (`<root>/target/release/meeple`) when that
//! holds a games/ folder, else this checkout. Prints one table; each figure is the median of
//! `MEEPLE_BENCH_RUNS` runs (default 3). Run with `cargo bench --bench seats`.

use std::path::Path;
use std::process::Command;

/// A batch: the game, its map, the seats and how many games.
struct Case {
    game: &'static str,
    map: Option<&'static str>,
    players: &'static str,
    games: u32,
}

const CASES: [Case; 5] = [
    Case {
        game: "monopoly",
        map: Some("classic"),
        players: "ai,ai,ai,ai",
        games: 2000,
    },
    Case {
        game: "monopoly",
        map: Some("classic"),
        players: "ai,random,ai,random",
        games: 400,
    },
    Case {
        game: "monopoly",
        map: Some("classic"),
        players: "random,random,random,random",
        games: 200,
    },
    Case {
        game: "mahjong",
        map: None,
        players: "random,random,random,random",
        games: 2000,
    },
    Case {
        game: "connect4",
        map: None,
        players: "random,random",
        games: 40000,
    },
];

/// What one batch measured.
#[derive(Clone, Copy)]
struct Speed {
    games_per_s: f64,
    decisions_per_game: f64,
}

impl Speed {
    fn decisions_per_s(&self) -> f64 {
        self.games_per_s * self.decisions_per_game
    }
}

fn main() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ours = Path::new(env!("CARGO_BIN_EXE_meeple"));
    let baseline = std::env::var("MEEPLE_BASELINE").ok().map(|b| {
        let bin = std::fs::canonicalize(&b).unwrap_or_else(|e| panic!("MEEPLE_BASELINE={b}: {e}"));
        let dir = checkout_of(&bin).unwrap_or(here).to_path_buf();
        (bin, dir)
    });
    let runs: usize = std::env::var("MEEPLE_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    println!("each figure: the median of {runs} runs, one core");
    if let Some((bin, dir)) = &baseline {
        let whose = if dir == here { "this" } else { "its own" };
        println!(
            "baseline: {} (run in {whose} checkout, {})",
            bin.display(),
            dir.display()
        );
    }
    let mut connect4 = 0.0;
    for case in &CASES {
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            mine.push(sim(ours, here, case));
            if let Some((bin, dir)) = &baseline {
                theirs.push(sim(bin, dir, case));
            }
        }
        let what = format!(
            "{} {} {} ×{}",
            case.game,
            case.map.unwrap_or("-"),
            case.players,
            case.games
        );
        let m = median(&mine);
        if case.game == "connect4" {
            connect4 = m.games_per_s;
        }
        print!("{what:<58} {}", shown(m));
        if !theirs.is_empty() {
            let t = median(&theirs);
            print!(
                "   baseline {}   ×{:.2} decisions/s",
                shown(t),
                m.decisions_per_s() / t.decisions_per_s()
            );
        }
        println!();
    }
    python_connect4(runs, connect4);
}

/// The checkout a meeple binary `<root>/target/release/meeple` was built in: `<root>`, when it
/// holds a games/ folder.
fn checkout_of(bin: &Path) -> Option<&Path> {
    bin.ancestors()
        .nth(3)
        .filter(|root| root.join("games").is_dir())
}

/// Plays `case` with the meeple binary `bin` in folder `dir`: games/s as `sim` reports it, and
/// the mean decisions per game from its JSON.
fn sim(bin: &Path, dir: &Path, case: &Case) -> Speed {
    let json = std::env::temp_dir().join(format!("meeple-bench-{}.json", std::process::id()));
    let mut cmd = Command::new(bin);
    cmd.args(["sim", case.game, "--jobs", "1", "--seed", "1"])
        .args(["--players", case.players])
        .args(["--games", &case.games.to_string()])
        .arg("--json")
        .arg(&json)
        .current_dir(dir);
    if let Some(map) = case.map {
        cmd.args(["--map", map]);
    }
    let out = cmd.output().expect("the meeple binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{} sim failed: {err}", bin.display());
    let games_per_s = err
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(" games/s"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'games/s' in {}'s output: {err}", bin.display()));
    Speed {
        games_per_s,
        decisions_per_game: mean_decisions(&json),
    }
}

/// The mean of the games' `decisions` in a `sim --json` file.
fn mean_decisions(path: &Path) -> f64 {
    let text = std::fs::read_to_string(path).expect("sim wrote its JSON");
    let v: serde_json::Value = serde_json::from_str(&text).expect("sim's JSON parses");
    let games = v["games"].as_array().expect("a list of games");
    let total: f64 = games.iter().filter_map(|g| g["decisions"].as_f64()).sum();
    total / games.len() as f64
}

fn median(speeds: &[Speed]) -> Speed {
    let mut s = speeds.to_vec();
    s.sort_by(|a, b| a.games_per_s.total_cmp(&b.games_per_s));
    s[s.len() / 2]
}

fn shown(s: Speed) -> String {
    format!(
        "{:>9.1} games/s {:>7.0} decisions/game {:>6.3} M decisions/s",
        s.games_per_s,
        s.decisions_per_game,
        s.decisions_per_s() / 1e6
    )
}

/// The Python baseline of Connect Four, as many games as the meeple case plays, and how many
/// times faster meeple played (`ours`, its games/s).
fn python_connect4(runs: usize, ours: f64) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/baseline/connect4.py");
    let mut figures = Vec::new();
    for _ in 0..runs {
        let Ok(out) = Command::new("python3").arg(&script).arg("40000").output() else {
            println!("connect4 Python baseline: python3 is not installed");
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let games_per_s: f64 = text
            .rsplit_once(": ")
            .and_then(|(_, rest)| rest.split_once(" games/s"))
            .and_then(|(n, _)| n.parse().ok())
            .unwrap_or_else(|| panic!("no 'games/s' in the baseline's output: {text}"));
        figures.push(games_per_s);
    }
    figures.sort_by(f64::total_cmp);
    let python = figures[figures.len() / 2];
    println!(
        "{:<58} {python:>9.1} games/s   meeple ×{:.2}",
        "connect4 baseline: python3 benches/baseline/connect4.py 40000",
        ours / python
    );
}
