//! A state marked `forced = true` in [flow.states] plays a seat's lone option without asking,
//! whoever sits there: the Reversi fixture (tests/games/reversi) offers a player who cannot
//! turn a stone a lone `pass`. Checked through the real binary with typed moves, through the
//! library with the flag taken away, and the flag's own errors.

mod common;
use common::*;
use meeple::def::load_package;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// From the start of the 4×4 game these moves leave P1 without a capture after P2's (1, 1).
const MOVES: [&str; 4] = ["place 1 2", "place 1 3", "place 3 4", "place 1 1"];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/reversi")
}

/// A copy of the fixture whose game.toml has `from` replaced by `to`; the temp folder lives
/// as long as the guard.
fn edited(from: &str, to: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("a temp folder");
    let root = tmp.path().join("reversi");
    copy_dir(&fixture(), &root);
    let toml = std::fs::read_to_string(root.join("game.toml")).unwrap();
    assert!(toml.contains(from), "game.toml has {from:?}");
    std::fs::write(root.join("game.toml"), toml.replacen(from, to, 1)).unwrap();
    (tmp, root)
}

#[test]
fn play_plays_a_lone_pass_without_asking_and_says_so() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.args(["play", "tests/games/reversi", "--players", "human,human"])
        .args(["--seed", "1", "--text", "--no-watch"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let typed = format!("{}\nquit\n", MOVES.join("\n"));
    let out = typing(&mut cmd, &typed);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let prompts: Vec<&str> = text.lines().filter(|l| l.ends_with(", choose:")).collect();
    assert_eq!(
        prompts,
        [
            "P1, choose:",
            "P2, choose:",
            "P1, choose:",
            "P2, choose:",
            "P2, choose:"
        ],
        "{text}"
    );
    assert!(
        !text.contains(") pass"),
        "the pass is never offered:\n{text}"
    );
    let after_p2 = text.split("P2 turns 1").nth(2).expect("P2's second move");
    let next: Vec<&str> = after_p2.lines().skip(1).take(3).collect();
    assert_eq!(
        next,
        [
            "  · P1 → pass, its only option",
            "",
            "── Reversi · Board · round 3 · turn 6 ──"
        ],
        "{text}"
    );
}

/// The lone option is said by its label; in a game with piles a seat cannot see, the log
/// says its action (a label reads the whole position) and not that it was the only option
/// (that would tell what a hand lacks).
#[test]
fn a_forced_option_is_said_by_its_label_and_not_as_lone_where_hands_are_hidden() {
    let last_line = |root: &Path| {
        let rules = std::fs::read_to_string(root.join("rules.lua")).unwrap();
        let label = "R.label = function(G, ctx, o) return o[1] == \"pass\" and \"pass the turn\" or nil end\n";
        std::fs::write(
            root.join("rules.lua"),
            rules.replacen("R.states = {", &format!("{label}R.states = {{"), 1),
        )
        .unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
        cmd.args(["play", root.to_str().unwrap(), "--players", "human,human"])
            .args(["--seed", "1", "--text", "--no-watch"]);
        let out = typing(&mut cmd, &format!("{}\nquit\n", MOVES.join("\n")));
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{text}");
        let forced: Vec<String> = (text.lines())
            .filter(|l| l.starts_with("  · P1 → "))
            .map(String::from)
            .collect();
        forced
    };
    let (_open, open) = edited("[flow]", "[flow]");
    assert_eq!(
        last_line(&open),
        ["  · P1 → pass the turn, its only option"]
    );
    let zones = "items = [\"chip\"]\n\n[zones]\nhand = { visibility = \"owner\", per_seat = true }\n\n[flow]";
    let (_hidden, hidden) = edited("[flow]", zones);
    assert_eq!(last_line(&hidden), ["  · P1 → pass"]);
}

/// When the forced option's act logs a line at once, that line alone says the move: the
/// runtime's `P1 → pass` is not said beside the rules' `P1 passes`.
#[test]
fn a_forced_move_the_rules_log_is_said_once() {
    let (_tmp, root) = edited("[flow]", "[flow]");
    let rules = std::fs::read_to_string(root.join("rules.lua")).unwrap();
    let logged = rules.replacen(
        "        ctx:log(\"P%d turns %d\", p, turned)\n      end",
        "        ctx:log(\"P%d turns %d\", p, turned)\n      else\n        ctx:log(\"P%d passes\", p)\n      end",
        1,
    );
    assert_ne!(logged, rules, "the act was edited");
    std::fs::write(root.join("rules.lua"), logged).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.args(["play", root.to_str().unwrap(), "--players", "human,human"])
        .args(["--seed", "1", "--text", "--no-watch"]);
    let out = typing(&mut cmd, &format!("{}\nquit\n", MOVES.join("\n")));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let after_p2 = text.split("P2 turns 1").nth(2).expect("P2's second move");
    let next: Vec<&str> = after_p2.lines().skip(1).take(2).collect();
    assert_eq!(next, ["  · P1 passes", ""], "{text}");
}

#[test]
fn without_the_flag_the_lone_pass_is_asked() {
    let forced = Arc::new(load_package(&fixture()).unwrap());
    let mut g = start_with(&forced, "board", 2, 1, &[]);
    for m in MOVES {
        act(&mut g, m);
    }
    assert_eq!(g.pending().map(|p| p.seat), Some(1), "P2 moves again");
    assert_eq!(eval(&g, "ctx:turn()"), serde_json::json!(6));

    let (_tmp, root) = edited(", forced = true", "");
    let asked = Arc::new(load_package(&root).unwrap());
    let mut g = start_with(&asked, "board", 2, 1, &[]);
    for m in MOVES {
        act(&mut g, m);
    }
    assert_eq!(g.pending().map(|p| p.seat), Some(0), "P1 is asked");
    assert_eq!(options(&g), ["pass"]);
}

/// `check` counts a verb a forced state played alone as offered and played there: Reversi's
/// lone `pass` is one of its two verbs.
#[test]
fn check_counts_a_lone_forced_option_as_played() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["check", "tests/games/reversi"])
        .current_dir(root)
        .output()
        .expect("meeple runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ok: reversi (1 map, 20 games: 20 random; states entered: 2 of 2, verbs played: 2 of 2)\n"
    );
}

/// The error of a game.toml with `from` replaced by `to`, and the 1-based line and column of
/// the flag's value in `to`.
fn flag_error(from: &str, to: &str) -> (String, String) {
    let (_tmp, root) = edited(from, to);
    let text = std::fs::read_to_string(root.join("game.toml")).unwrap();
    let (line, col) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| {
            l.contains(to)
                .then(|| (i + 1, l.find("forced = ").unwrap() + 10))
        })
        .expect("the flag");
    let diags = load_package(&root).expect_err("an error");
    let said = meeple::diag::render(&diags);
    let file = format!("{}/game.toml", root.display());
    (said.replace(&file, "game.toml"), format!("{line}:{col}"))
}

#[test]
fn only_a_decision_that_asks_one_seat_may_be_forced() {
    let (said, at) = flag_error(
        "over = { final = true }",
        "over = { final = true, forced = true }",
    );
    assert_eq!(
        said.trim_end(),
        format!("game.toml:{at}: error: state 'over': 'forced': only a decision state (decide = true) has options to force")
    );
    let (said, at) = flag_error(
        "decide = true, forced = true",
        "decide = true, simultaneous = true, forced = true",
    );
    assert!(
        said.contains(&format!("game.toml:{at}: error: state 'turn': 'forced': a simultaneous state asks every seat, so it cannot force an option")),
        "{said}"
    );
}

/// A copy of tic-tac-toe whose rules are a duel of two rounds: P1 plays `safe` or `greedy`,
/// P2 answers; after `greedy` P2's lone answer is `punish`, played without asking.
fn duel() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("a temp folder");
    let root = tmp.path().join("duel");
    copy_dir(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games/tictactoe")
            .as_path(),
        &root,
    );
    let toml = std::fs::read_to_string(root.join("game.toml")).unwrap();
    let flow = "turn = { next = [\"over\"], decide = true }";
    let duel = "p1 = { next = [\"p2\"], decide = true, forced = true }\n\
                p2 = { next = [\"p1\", \"over\"], decide = true, forced = true }";
    let toml = toml
        .replace(flow, duel)
        .replace("start = \"turn\"", "start = \"p1\"");
    std::fs::write(root.join("game.toml"), toml).unwrap();
    let rules = r#"local R = {}
function R.setup(G, ctx) G.round, G.last = 1, nil end
R.states = {
  p1 = {
    options = function(G, ctx, p) return { { "safe" }, { "greedy" } } end,
    act = function(G, ctx, o, p) G.last = o[1]; ctx:next_player(); return "p2" end,
  },
  p2 = {
    options = function(G, ctx, p)
      if G.last == "greedy" then return { { "punish" } } end
      return { { "x" }, { "y" } }
    end,
    act = function(G, ctx, o, p)
      ctx:next_player()
      G.round = G.round + 1
      if G.round > 2 then ctx:draw(); return "over" end
      return "p1"
    end,
  },
}
return R
"#;
    std::fs::write(root.join("rules.lua"), rules).unwrap();
    let ai = "local AI = {}\nlocal worth = { safe = 5, greedy = 10, punish = 100, x = 1, y = 1 }\n\
              function AI.score(G, ctx, p, o) return worth[o[1]] end\nreturn AI\n";
    std::fs::write(root.join("ai.lua"), ai).unwrap();
    (tmp, root)
}

/// The search weighs a forced reply like any move: `greedy` (10) meets a forced `punish`
/// (100), so `safe` (5, then 1) is the better line.
#[test]
fn alphabeta_weighs_a_forced_reply() {
    let (_tmp, root) = duel();
    let pkg =
        Arc::new(load_package(&root).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))));
    let mut g = start_with(&pkg, "board", 2, 1, &[]);
    let mut bot = meeple::ai::Seat::parse("alphabeta:2")
        .unwrap()
        .bot(1, 0)
        .unwrap();
    let choice = bot.explain(&mut g).unwrap();
    let shown: Vec<(String, f64)> = (choice.candidates.iter())
        .map(|(i, v)| (g.decision().unwrap().options()[*i].to_string(), *v))
        .collect();
    assert_eq!(
        shown,
        [("safe".to_string(), 4.0), ("greedy".to_string(), -90.0)]
    );
}
