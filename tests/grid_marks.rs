//! Marks on a grid's stones (`ctx.grid:level`, `ctx.grid:set_level`: a checkers king), on the
//! hop fixture (tests/games/hop), whose stone is crowned on the far row and keeps its crown as
//! it moves: shown in the terminal, kept by a save, refused on an empty cell or out of range.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The moves that crown P1's stone on (1, 1) and move P2's to (3, 3), crowned too.
const CROWNING: &str = "move 3 1 2 1\nmove 1 3 2 3\nmove 2 1 1 1\nmove 2 3 3 3\n";

/// The hop fixture's folder.
fn hop_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/hop")
}

/// A copy of hop in a temp folder whose crown is `level` (1 in the fixture).
fn crowned_at(level: u8) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("hop");
    copy_dir(&hop_root(), &root);
    let rules = std::fs::read_to_string(root.join("rules.lua")).unwrap();
    let edited = rules.replace(
        "then crowned = 1 end",
        &format!("then crowned = {level} end"),
    );
    std::fs::write(root.join("rules.lua"), edited).unwrap();
    (tmp, root)
}

fn hop(args: &[&str], typed: &str, cwd: &Path) -> String {
    play(&hop_root(), args, typed, cwd)
}

/// `meeple play GAME` for two people at the terminal, run in `cwd` with `typed`: its output.
fn play(game: &Path, args: &[&str], typed: &str, cwd: &Path) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.arg("play")
        .arg(game)
        .args(["--players", "human,human", "--text", "--no-watch"]);
    cmd.args(args).current_dir(cwd);
    let out = typing(&mut cmd, typed);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The last board the terminal printed: its three rows.
fn last_board(text: &str) -> Vec<&str> {
    let at = text.rfind("     1  2  3\n").expect(text);
    text[at..].lines().skip(1).take(3).collect()
}

#[test]
fn a_crowned_stone_shows_its_mark_and_a_save_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = hop(
        &[],
        &format!("{CROWNING}save crowned.json\nquit\n"),
        dir.path(),
    );
    let crowned = ["  1 ●¹  ·  ·", "  2  ·  ·  ·", "  3  ·  · ○¹"];
    assert_eq!(last_board(&text), crowned, "{text}");
    let resumed = hop(
        &["--load", "crowned.json"],
        "move 1 1 1 2\nquit\n",
        dir.path(),
    );
    assert_eq!(
        last_board(&resumed),
        ["  1  · ●¹  ·", "  2  ·  ·  ·", "  3  ·  · ○¹"],
        "{resumed}"
    );
}

/// A level above 9 shows as `⁺`, so the columns stay in line.
#[test]
fn a_level_above_nine_keeps_the_columns_in_line() {
    let (dir, root) = crowned_at(12);
    let text = play(&root, &[], &format!("{CROWNING}quit\n"), dir.path());
    assert_eq!(
        last_board(&text),
        ["  1 ●⁺  ·  ·", "  2  ·  ·  ·", "  3  ·  · ○⁺"],
        "{text}"
    );
}

#[test]
fn a_mark_needs_a_stone_and_a_level_in_range() {
    let eval = |code: &str| {
        let out = meeple_in(
            Path::new(env!("CARGO_MANIFEST_DIR")),
            &["eval", "tests/games/hop", code],
        );
        let said = [out.stdout, out.stderr].concat();
        String::from_utf8_lossy(&said).to_string()
    };
    assert_eq!(
        eval("ctx.grid:set_level(2, 2, 1)"),
        "eval:1: error: cell (2, 2) is empty: only a stone is marked (set it first)\n    in eval\n"
    );
    assert_eq!(
        eval("ctx.grid:set_level(3, 1, 300)"),
        "eval:1: error: level 300 out of range (0..250)\n    in eval\n"
    );
    assert_eq!(
        eval("ctx.grid:set_level(3, 1, 2) ctx.grid:set(3, 1, 1) return ctx.grid:level(3, 1)"),
        "0\n"
    );
}

/// How the game so far would differ under edited rules names a mark that differs.
#[test]
fn the_reload_report_names_a_mark_that_differs() {
    use meeple::core::action::Action;
    use meeple::replay::{differences, Record, RecordStep};
    let load = |root: &Path| std::sync::Arc::new(meeple::def::load_package(root).unwrap());
    let pkg = load(&hop_root());
    let mut g = start_with(&pkg, "board", 2, 1, &[]);
    let mut record = Record::new(&g, vec!["human".into(); 2], g.snapshot().unwrap().hash());
    for line in CROWNING.lines() {
        let (seat, action) = (g.pending().unwrap().seat, Action::parse(line).unwrap());
        g.apply(seat, &action).unwrap();
        let hash = g.snapshot().unwrap().hash();
        record.steps.push(RecordStep {
            seat,
            action,
            hash,
            log: Vec::new(),
        });
    }
    let (_tmp, edited) = crowned_at(2);
    assert_eq!(
        differences(pkg, load(&edited), &record).as_deref(),
        Some("after step 3 (P1: move 2 1 1 1), the stone on (1, 1) was marked 1, now 2")
    );
}
