//! The same files, seed and decisions are the same game in every run: Lua's string hash is
//! fixed, so even rules that lean on `pairs` order (which they should not) replay exactly,
//! process after process.

mod common;
use common::*;
use std::process::Command;

const RUNS: usize = 20;

/// Tic-tac-toe whose set-up puts a first stone where the first key `pairs` meets says, and
/// whose X plays first the point a string-keyed table lists first.
const BY_PAIRS: &str = r#"
local keys = {}
for r = 1, 3 do for c = 1, 3 do keys["cell" .. r .. "_" .. c] = { r, c } end end
local setup = R.setup
function R.setup(G, ctx)
  setup(G, ctx)
  local _, first = next(keys)
  ctx.grid:set(first[1], first[2], 2)
  G.moves = 1
end
"#;

fn meeple(args: &[&str], cwd: &std::path::Path, typed: &str) -> std::process::Output {
    typing(
        Command::new(env!("CARGO_BIN_EXE_meeple"))
            .args(args)
            .current_dir(cwd),
        typed,
    )
}

#[test]
fn a_recording_replays_in_every_run() {
    let v = variant("tictactoe", BY_PAIRS, "", None);
    let dir = tempfile::tempdir().unwrap();
    let game = v.pkg.root.display().to_string();
    let record = dir.path().join("r.json");
    let args = [
        "play",
        &game,
        "--players",
        "random,random",
        "--seed",
        "3",
        "--text",
    ];
    let made = meeple(
        &[&args[..], &["--no-watch", "--record", "r.json"]].concat(),
        dir.path(),
        "",
    );
    assert!(
        made.status.success(),
        "{}{}",
        String::from_utf8_lossy(&made.stdout),
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(record.is_file());
    for run in 0..RUNS {
        let out = meeple(&["replay", "r.json"], dir.path(), "");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.starts_with("ok: "),
            "run {run}: {said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn pairs_walks_string_keys_in_one_order_in_every_process() {
    let walk = "local t = {} for i = 1, 50 do t['key' .. i] = i end \
                local order = {} for k in pairs(t) do order[#order + 1] = k end \
                return table.concat(order, ' ')";
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let first = meeple(&["eval", "tictactoe", walk], here, "").stdout;
    for _ in 1..RUNS {
        assert_eq!(meeple(&["eval", "tictactoe", walk], here, "").stdout, first);
    }
}
