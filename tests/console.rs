//! `meeple console`: entries typed at the prompt run in the game's sandbox on the live
//! position, expressions print as JSON, an unfinished entry continues on the next line, errors
//! are located, `:options` / `:play N` move the game on, and `:save` keeps a position edited
//! by hand to play on from.

mod common;
use common::typing;
use std::process::{Command, Stdio};

fn console(args: &[&str], typed: &str) -> (String, Option<i32>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.arg("console")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let out = typing(&mut cmd, typed);
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        out.status.code(),
    )
}

/// Runs the console on a new tic-tac-toe game and checks that, after its two opening lines,
/// it printed `then` (one prompt's output each) and ended well.
fn at_tictactoe(typed: &str, then: &[&str]) {
    let (out, code) = console(&["tictactoe"], typed);
    let opening = [
        "Tic-tac-toe 井字棋 · state turn · P1 to play",
        "Lua in the game's sandbox (G, ctx, R); :options, :play N, :save FILE, :quit",
    ];
    assert_eq!(out, [&opening[..], then].concat().join("\n"));
    assert_eq!(code, Some(0));
}

#[test]
fn the_console_runs_entries_on_the_live_position() {
    let typed = "ctx:state()\n:options\n:play 5\nctx.grid:get(2, 2)\nx = = 1\n\
                 for i = 1, 2 do\n  G.moves = G.moves + i\nend\nG.moves\nerror('boom')\n\
                 :play 99\n:play x\n:foo\nG.t = {a = 1, b = {2, 3}}\nG.t\n:quit\nG.moves\n";
    let then = [
        "> \"turn\"",
        "> 1) place 1 1\n2) place 1 2\n3) place 1 3\n4) place 2 1\n5) place 2 2\n6) place 2 3\n7) place 3 1\n8) place 3 2\n9) place 3 3",
        ">   · P1 places at (2, 2)\nstate turn · P2 to play",
        "> 1",
        "> eval:1: error: unexpected symbol near '='",
        "> >> >> > 4",
        "> eval:1: error: boom\n    in eval",
        "> not played: option 99 does not exist (1..8)",
        "> ':play x': give an option's number (see :options)",
        "> ':foo' is not a console command (:options, :play N, :save FILE, :quit)",
        "> > {\"a\":1,\"b\":[2,3]}",
        "> ",
    ];
    at_tictactoe(typed, &then);
}

#[test]
fn the_console_starts_where_a_save_ends_and_stops_at_the_game_end() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.json");
    let played = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args([
            "play",
            "tictactoe",
            "--players",
            "ai,ai",
            "--seed",
            "1",
            "--text",
            "--no-watch",
        ])
        .arg("--record")
        .arg(&record)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(played.status.success());
    let file = record.to_str().unwrap();
    let (out, code) = console(&["tictactoe", "--replay", file], ":options\n:play 1\n");
    assert!(
        out.starts_with(
            "resumed tictactoe after 9 decisions\nTic-tac-toe 井字棋 · state over · the game is over\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("> the game is over\n> not played: the game is over\n> \n"),
        "{out}"
    );
    assert_eq!(code, Some(0));
}

/// A position edited at the prompt and saved plays on from there: `play --load` starts at
/// the edited cash, and `replay` checks the steps up to the edit and says why it stops. A
/// save whose snapshot is gone cannot go on, and says so.
#[test]
fn a_position_edited_and_saved_plays_on_from_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("edited.json");
    let file = save.to_str().unwrap();
    let typed = format!("ctx.counter:set(1, 'cash', 5)\n:play 1\n:save {file}\n:save\n");
    let (out, code) = console(&["monopoly", "--seed", "3"], &typed);
    assert_eq!(code, Some(0));
    assert!(
        out.contains(&format!(
            "> saved to {file} (resume with: meeple play --load {file})\n\
             > ':save FILE' saves the position (play on with: meeple play --load FILE)"
        )),
        "{out}"
    );
    let meeple = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
        cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
        let out = typing(&mut cmd, "quit\n");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        (
            text + &String::from_utf8_lossy(&out.stderr),
            out.status.code(),
        )
    };
    let (played, _) = meeple(&["play", "--load", file, "--players", "human,ai", "--text"]);
    assert!(
        played.contains("resumed monopoly after 1 decision"),
        "{played}"
    );
    assert!(
        played.contains(">P1 (human) cash 205 · at 起点"),
        "{played}"
    );
    let (replayed, code) = meeple(&["replay", file]);
    assert_eq!(
        (replayed.trim_end(), code),
        ("ok: 0 steps reproduced exactly; the position was edited by hand after step 0 (meeple console), later steps are not re-run", Some(0))
    );
    // Played on with --record, the record keeps where it ends: its steps do not lead there.
    let rec = dir.path().join("rec.json");
    let rec = rec.to_str().unwrap();
    let args = [
        "play",
        "--load",
        file,
        "--players",
        "ai,ai",
        "--text",
        "--record",
        rec,
    ];
    let (_, code) = meeple(&args);
    assert_eq!(code, Some(0));
    let (replayed, code) = meeple(&["replay", rec]);
    assert!(
        replayed.contains("edited by hand after step 0"),
        "{replayed}"
    );
    assert_eq!(code, Some(0));
    let (resumed, _) = meeple(&["play", "--load", rec, "--text"]);
    assert!(resumed.contains("resumed monopoly after "), "{resumed}");
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(record["edits"], serde_json::json!([0]));
    record.as_object_mut().unwrap().remove("snapshot");
    std::fs::write(&save, record.to_string()).unwrap();
    let (refused, code) = meeple(&["play", "--load", file, "--text"]);
    assert_eq!(code, Some(1));
    assert!(
        refused.contains("edits: the position was edited by hand, so it can only go on from its snapshot, which is missing"),
        "{refused}"
    );
}

/// Names an entry sets stay for the next entries, as at any Lua prompt, and past a move; the
/// rules never see them, and a local lasts one entry, which the console says once.
#[test]
fn the_consoles_globals_stay_from_entry_to_entry() {
    let typed = "x = 5\nfunction twice(n) return 2 * n end\ntwice(x)\n:play 1\nx\n\
                 rawget(_G, 'x') == nil\nlocal y = 2\ny\nlocal z = 3\n";
    let then = [
        "> > > 10",
        ">   · P1 places at (1, 1)\nstate turn · P2 to play",
        "> 5",
        "> true",
        "> (each entry is its own chunk: a local ends with it; leave out 'local' to keep a name)",
        "> null",
        "> > ",
        "",
    ];
    at_tictactoe(typed, &then);
}

/// A function shows as what it is; a value that cannot be shown is said so without a word
/// about playing, and `:play` without a number says how it is used.
#[test]
fn what_cannot_be_shown_or_played_is_said_plainly() {
    let typed = "ctx.grid.get\nlocal t = {}; t.me = t; return t\n:play\n";
    let then = [
        "> \"<function>\"",
        "> result.me: table refers back to itself (it cannot be shown)",
        "> ':play N' plays option N (see :options)",
        "> ",
        "",
    ];
    at_tictactoe(typed, &then);
}

/// `quit` without its colon is answered with the command, and a command typed inside an
/// unfinished entry drops the entry and runs.
#[test]
fn quit_is_found_however_it_is_typed() {
    let then = [
        "> ':quit' leaves the console",
        "> >> (the unfinished entry is dropped)",
        "",
    ];
    at_tictactoe("quit\nfor i = 1, 3 do\n:quit\n", &then);
}

/// An entry that leaves the rules unable to ask a decision shows their error, and `:options`
/// says so (the game is not over); an entry that mends it asks again. A call that returns
/// nothing prints nothing; one that returns nil prints null.
#[test]
fn an_entry_that_mends_a_failed_ask_asks_again() {
    let typed = "for r = 1, 3 do for c = 1, 3 do ctx.grid:set(r, c, 1) end end\n:options\n\
                 ctx:state()\nctx.grid:set(1, 1, nil)\nctx.grid:get(1, 1)\n:options\n";
    let (out, code) = console(&["tictactoe"], typed);
    assert_eq!(code, Some(0));
    let said: Vec<&str> = out.split("> ").skip(1).collect();
    assert!(
        said[0].contains("error: decision state 'turn' offered no options"),
        "{out}"
    );
    assert_eq!(
        &said[1..],
        [
            "no decision: the rules failed to ask one (the error above); an entry that mends it asks again\n",
            "\"turn\"\n",
            "",
            "null\n",
            "1) place 1 1\n",
            "\n"
        ],
        "{out}"
    );
}

/// `:options` shows each option as typed and, where the rules label it otherwise, the label
/// (the console's game has seed 1).
#[test]
fn options_show_their_labels_beside_the_action() {
    let (out, code) = console(&["hearts"], ":options\n:quit\n");
    assert_eq!(code, Some(0));
    let first = out.lines().find(|l| l.starts_with("> 1) "));
    assert_eq!(first, Some("> 1) pass 6C JC QC · pass 6♣ J♣ Q♣"), "{out}");
}

/// A replay or save sets the game up: `--seed`, `--seats`, `--map` and `--set` beside it are
/// refused, not ignored (by `ai` too).
#[test]
fn a_replay_refuses_the_flags_that_set_a_game_up() {
    for (command, flag) in [("console", "--seed"), ("ai", "--seats")] {
        let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
            .args([command, "tictactoe", "--replay", "r.json", flag, "3"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "error: the argument '--replay <FILE>' cannot be used with '{flag} <"
            )),
            "{stderr}"
        );
    }
}
