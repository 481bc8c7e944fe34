//! `meeple types`: the editor types of the API and of a game (its settings with their types,
//! its states, counters, zones and items), the `.luarc.json` beside them, the same bytes on
//! every run, and `meeple new` writing them for a new game.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn meeple(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("meeple runs")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Asserts that `text` has each of `lines` as a whole line.
fn has_lines(text: &str, lines: &[&str]) {
    for line in lines {
        assert!(
            text.lines().any(|l| l == *line),
            "no line {line:?} in:\n{text}"
        );
    }
}

#[test]
fn a_game_gets_the_api_its_own_types_and_a_luarc() {
    let (tmp, root) = common::copy_game("monopoly", "games/monopoly");
    std::fs::create_dir(tmp.path().join("scripts")).unwrap();
    let out = meeple(tmp.path(), &["types", "games/monopoly"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wrote games/monopoly/.meeple/ (meeple.lua, game.lua, sandbox.lua) and games/monopoly/.luarc.json\n"
    );
    has_lines(
        &read(&root.join(".meeple/meeple.lua")),
        &[
            "---@meta",
            "---@class meeple.Ctx",
            "---@field settings meeple.Settings The game's `[settings]` after `--set` overrides, read-only; reading an undeclared one is an error.",
            "---@param p integer",
            "---@return integer to",
            "function Board:move(p, steps) end",
            "---@field setup? fun(G: table, ctx: meeple.Ctx): table? Once, before the first state: fill `G` (or return a table that becomes `G`).",
        ],
    );
    has_lines(
        &read(&root.join(".meeple/sandbox.lua")),
        &[
            "---@deprecated use ctx.random:int or ctx.dice: the game's seeded generator",
            "function math.random(...) end",
            "---@deprecated there is no io library in the sandbox",
            "function io.open(...) end",
        ],
    );
    has_lines(
        &read(&root.join(".meeple/game.lua")),
        &[
            "---@class meeple.Settings",
            "---@field salary integer",
            "---@alias meeple.CounterName \"cash\"",
            "---@field cash integer[]",
        ],
    );
    let pkg = common::package("monopoly");
    let states: Vec<String> = (pkg.flow.states.iter())
        .map(|s| format!("{:?}", s.name))
        .collect();
    let alias = format!("---@alias meeple.StateName {}", states.join("|"));
    has_lines(&read(&root.join(".meeple/game.lua")), &[&alias]);
    has_lines(
        &read(&root.join(".luarc.json")),
        &[
            &format!(
                r#"    "library": [".meeple", {{ "path": {:?}, "ignoreDir": [".meeple"] }}],"#,
                tmp.path()
                    .canonicalize()
                    .unwrap()
                    .join("scripts")
                    .display()
                    .to_string()
            ),
            r#"    "builtin": { "io": "disable", "os": "disable", "debug": "disable", "package": "disable" }"#,
        ],
    );
}

#[test]
fn a_table_game_names_its_zones_and_items() {
    let (_tmp, root) = common::copy_game("mahjong", "mahjong");
    let out = meeple(&root, &["types", "."]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game = read(&root.join(".meeple/game.lua"));
    has_lines(
        &game,
        &["---@field wall meeple.Pile", "---@field hand meeple.Pile[]"],
    );
    assert!(
        game.contains("---@alias meeple.ItemName \"1m\"|\"2m\"|"),
        "{game}"
    );
    // No shared scripts beside it: the editor gets the built-in ones, so require("hands")
    // resolves.
    has_lines(
        &read(&root.join(".luarc.json")),
        &[
            r#"    "library": [".meeple", { "path": ".meeple/scripts", "ignoreDir": [".meeple"] }],"#,
        ],
    );
    assert_eq!(
        read(&root.join(".meeple/scripts/hands.lua")),
        include_str!("../scripts/hands.lua")
    );
}

#[test]
fn the_types_are_the_same_bytes_on_every_run() {
    let (_tmp, root) = common::copy_game("gomoku", "gomoku");
    let written = || {
        assert!(meeple(&root, &["types", "."]).status.success());
        [
            ".meeple/meeple.lua",
            ".meeple/game.lua",
            ".meeple/sandbox.lua",
            ".luarc.json",
        ]
        .map(|f| read(&root.join(f)))
    };
    assert_eq!(written(), written());
}

#[test]
fn the_shared_scripts_get_the_api_with_any_games_types() {
    let tmp = tempfile::tempdir().unwrap();
    let out = meeple(tmp.path(), &["types"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "meeple types: error: no scripts/ folder here: run `meeple types` beside the shared scripts, or `meeple types GAME`\n"
    );
    std::fs::create_dir(tmp.path().join("scripts")).unwrap();
    assert!(meeple(tmp.path(), &["types"]).status.success());
    has_lines(
        &read(&tmp.path().join("scripts/.meeple/game.lua")),
        &[
            "---@alias meeple.StateName string",
            "---@field [string] any",
        ],
    );
}

#[test]
fn a_new_game_comes_with_its_types() {
    let tmp = tempfile::tempdir().unwrap();
    let out = meeple(tmp.path(), &["new", "reversi", "--kind", "grid"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = tmp.path().join("games/reversi");
    has_lines(
        &read(&root.join(".meeple/game.lua")),
        &["-- The types of the game 'reversi'."],
    );
    assert!(root.join(".meeple/meeple.lua").is_file() && root.join(".luarc.json").is_file());
}
