//! Every bot kind plays the identical game for the same seed whichever command runs it: `sim`
//! with one job or two, `play` with every seat a bot (in the terminal, recording a replay) and
//! the games `check` plays (`meeple::cli::check::play_saving`, its bots seeded as `sim` seeds
//! a game's). `sim` picks each game's seed; the other commands then play that seed.

mod common;

use common::copy_game;
use meeple::ai::Seat;
use meeple::def::{find_game, load_package};
use meeple::engine::{Game, GameConfig};
use std::process::Command;
use std::sync::Arc;

/// The batches compared: a game, its map, the seats (every bot kind appears in one).
const CASES: [(&str, &str, &str); 7] = [
    ("tictactoe", "board", "alphabeta:4,random"),
    ("tests/games/reversi", "board", "random,montecarlo:4"),
    ("connect4", "rack", "mcts:40,montecarlo:8"),
    ("gomoku", "board", "ai,random"),
    ("monopoly", "demo", "ai,random,ai,random"),
    ("mahjong", "table", "random,ai,random,ai:isolated"),
    ("mahjong", "table", "montecarlo:2,random,random,random"),
];

fn meeple(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("meeple runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "meeple {args:?} failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// One row of `sim --csv`: seed, result, winners, decisions.
struct Row {
    seed: u64,
    result: String,
    winners: String,
    decisions: usize,
}

fn sim(game: &str, map: &str, players: &str, jobs: &str) -> (String, Vec<Row>) {
    let csv = meeple(&[
        "sim",
        game,
        "--map",
        map,
        "--players",
        players,
        "--games",
        "2",
        "--seed",
        "11",
        "--jobs",
        jobs,
        "--csv",
        "-",
    ]);
    let rows = csv
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            Row {
                seed: f[1].parse().expect("a seed"),
                result: f[2].to_string(),
                winners: f[3].to_string(),
                decisions: f[5].parse().expect("a decision count"),
            }
        })
        .collect();
    (csv, rows)
}

/// `play` with every seat a bot: its decisions (the replay's steps and the forced options it
/// played without asking), the replay's last hash, and the result line.
fn play(game: &str, map: &str, players: &str, seed: u64) -> (usize, String, String) {
    let name = game.replace('/', "-");
    let record = std::env::temp_dir().join(format!("meeple-commands-{name}-{seed}.json"));
    let out = meeple(&[
        "play",
        game,
        "--map",
        map,
        "--players",
        players,
        "--seed",
        &seed.to_string(),
        "--text",
        "--no-watch",
        "--record",
        record.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&record).expect("play wrote its replay");
    let _ = std::fs::remove_file(&record);
    let replay: serde_json::Value = serde_json::from_str(&text).expect("a replay");
    let steps = replay["steps"].as_array().expect("steps");
    let last = steps.last().expect("a step")["hash"]
        .as_str()
        .unwrap()
        .to_string();
    let over = out
        .lines()
        .find(|l| l.starts_with("game over: "))
        .unwrap_or("")
        .to_string();
    let forced = out
        .lines()
        .filter(|l| l.ends_with("its only option"))
        .count();
    (steps.len() + forced, last, over)
}

/// The game `check` plays for `seed`: its decisions and final hash.
fn check(game: &str, map: &str, players: &str, seed: u64) -> (usize, String) {
    let pkg = Arc::new(load_package(&find_game(game).unwrap()).unwrap());
    let seats: Vec<Seat> = players
        .split(',')
        .map(|s| Seat::parse(s).unwrap())
        .collect();
    let config = GameConfig {
        map: Some(map.into()),
        seats: seats.len(),
        seed,
        settings: Vec::new(),
    };
    let mut g = Game::new(pkg, config).unwrap();
    let mut bots: Vec<_> = (seats.iter().enumerate())
        .map(|(i, s)| s.bot(seed, i))
        .collect();
    let mut coverage = meeple::cli::coverage::Coverage::default();
    meeple::cli::check::play_saving(&mut g, &mut bots, 100_000, &mut coverage).unwrap();
    (
        g.world().unwrap().decisions as usize,
        g.snapshot().unwrap().hash(),
    )
}

#[test]
fn every_bot_kind_plays_the_same_game_in_every_command() {
    for (game, map, players) in CASES {
        let (one_job, rows) = sim(game, map, players, "1");
        let (two_jobs, _) = sim(game, map, players, "2");
        assert_eq!(
            one_job, two_jobs,
            "{game} {players}: sim --jobs 1 and 2 differ"
        );
        for row in rows {
            let what = format!("{game} {players} seed {}", row.seed);
            let (steps, last, over) = play(game, map, players, row.seed);
            assert_eq!(steps, row.decisions, "{what}: play's decisions");
            let expected = match row.result.as_str() {
                "won" => format!("game over: {} won", row.winners),
                "draw" => "game over: draw".to_string(),
                other => panic!("{what}: a game that ended as '{other}'"),
            };
            assert_eq!(over, expected, "{what}: play's result");
            let (decisions, hash) = check(game, map, players, row.seed);
            assert_eq!((decisions, hash), (steps, last), "{what}: check's game");
        }
    }
}

/// A batch stopped part-way (as Ctrl-C stops `sim`) holds only games played to their end, in
/// game order, each the game its seed gives in a whole batch.
#[test]
fn a_stopped_batch_holds_finished_games_in_order() {
    use meeple::sim::{run, SimConfig};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let pkg = Arc::new(load_package(&find_game("tictactoe").unwrap()).unwrap());
    let cfg = |jobs| SimConfig {
        pkg: pkg.clone(),
        base: GameConfig {
            map: Some("board".into()),
            seats: 2,
            seed: 1,
            settings: Vec::new(),
        },
        seats: vec![Seat::Random, Seat::Heuristic(None)],
        games: 1000,
        seed: 5,
        jobs,
        max_decisions: 1000,
        rotate: false,
        profile: false,
    };
    let whole = run(&cfg(1), &|| {}, &|| false).unwrap().results;
    let ended = AtomicUsize::new(0);
    let tick = || {
        ended.fetch_add(1, Ordering::SeqCst);
    };
    let part = run(&cfg(2), &tick, &|| ended.load(Ordering::SeqCst) >= 20)
        .unwrap()
        .results;
    assert!((20..1000).contains(&part.len()), "{} games", part.len());
    let indices: Vec<usize> = part.iter().map(|r| r.index).collect();
    assert!(indices.windows(2).all(|w| w[0] < w[1]), "{indices:?}");
    for r in &part {
        assert!(r.outcome.is_some(), "game {} ended", r.index);
        assert_eq!(*r, whole[r.index], "game {}", r.index);
    }
}

/// `sim --rotate` plays game k with the players turned k seats: each of its games is the game
/// of that index in a batch seated that way, and its CSV says who sat where.
#[test]
fn a_rotated_batch_plays_each_game_as_its_seating_would() {
    let rows = |players: &str, rotate: bool| -> Vec<String> {
        let mut args = vec!["sim", "tictactoe", "--players", players];
        args.extend(["--games", "4", "--seed", "5", "--jobs", "2", "--csv", "-"]);
        if rotate {
            args.push("--rotate");
        }
        meeple(&args).lines().skip(1).map(String::from).collect()
    };
    let rotated = rows("alphabeta:2,random", true);
    let (straight, turned) = (
        rows("alphabeta:2,random", false),
        rows("random,alphabeta:2", false),
    );
    for (k, row) in rotated.iter().enumerate() {
        let (seating, same) = match k % 2 {
            0 => ("1 2", &straight[k]),
            _ => ("2 1", &turned[k]),
        };
        let (game, players) = row.rsplit_once(',').unwrap();
        assert_eq!((game, players), (same.as_str(), seating), "game {k}");
    }
}

/// `sim --profile` finds the work where it is: an AI whose score calls a slow helper shows
/// the helper with nearly all the samples and its loop as the busiest line; the same games
/// give the same profile, and the JSON's counts add up to its samples.
#[test]
fn a_profile_finds_the_function_and_the_line_that_do_the_work() {
    let (_tmp, root) = copy_game("tictactoe", "busy");
    let ai = "local AI = {}\n\
              -- Sums 1..n the slow way.\n\
              local function busy(n)\n\
              \x20 local s = 0\n\
              \x20 for i = 1, n do s = s + i end\n\
              \x20 return s\n\
              end\n\
              function AI.score(G, ctx, p, option)\n\
              \x20 return busy(2000) % 7\n\
              end\n\
              return AI\n";
    std::fs::write(root.join("ai.lua"), ai).unwrap();
    let game = root.to_str().unwrap();
    let args = [
        "sim",
        game,
        "--players",
        "ai,ai",
        "--games",
        "10",
        "--seed",
        "1",
    ];
    let run = |more: &[&str]| meeple(&[&args[..], &["--jobs", "1"], more].concat());
    let text = run(&["--profile"]);
    let profile = &text[text.find("where the Lua work went").expect(&text)..];
    assert_eq!(profile, &run(&["--profile"])[text.len() - profile.len()..]);
    let row = |name: &str| -> Vec<&str> {
        let line = profile.lines().find(|l| l.ends_with(&format!("  {name}")));
        line.expect(profile).split_whitespace().collect()
    };
    let share = |s: &str| s.trim_end_matches('%').parse::<f64>().unwrap();
    let ai_file = format!("{game}/ai.lua");
    let (score, busy) = (row("AI.score"), row("busy"));
    assert_eq!(score[2], format!("{ai_file}:8"));
    assert_eq!(busy[2], format!("{ai_file}:3"));
    assert!(share(busy[1]) >= 90.0, "{profile}");
    assert!(share(score[0]) >= share(busy[0]), "{profile}");
    let busiest = profile.lines().skip_while(|l| *l != "busiest lines").nth(1);
    let busiest: Vec<&str> = busiest.unwrap().split_whitespace().collect();
    assert_eq!(busiest[1..3], [format!("{ai_file}:5").as_str(), "for"]);
    let doc: serde_json::Value = serde_json::from_str(&run(&["--profile", "--json", "-"])).unwrap();
    let p = &doc["profile"];
    let own: u64 = (p["functions"].as_array().unwrap().iter())
        .map(|f| f["self"].as_u64().unwrap())
        .sum();
    assert_eq!(
        own + p["runtime"].as_u64().unwrap(),
        p["samples"].as_u64().unwrap()
    );
    assert_eq!(p["lines"][0]["text"], "for i = 1, n do s = s + i end");
}
