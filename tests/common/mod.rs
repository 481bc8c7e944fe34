//! Shared helpers for integration tests: load a game from `games/`, start it with a seed, run
//! Lua in it, force dice and apply actions by their text.
#![allow(dead_code)]

use meeple::core::action::Action;
use meeple::def::{find_game, load_package, Package};
use meeple::engine::{Game, GameConfig};
use std::sync::Arc;

/// Every game in `games/`, loaded, in folder order.
pub fn all_games() -> Vec<Arc<Package>> {
    let mut dirs: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games"))
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("game.toml").is_file())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    dirs.iter().map(|d| load(d)).collect()
}

pub fn package(id: &str) -> Arc<Package> {
    load(&find_game(id).expect("game exists"))
}

/// The game folder `dir`, loaded; a problem fails the test with the diagnostics.
pub fn load(dir: &std::path::Path) -> Arc<Package> {
    Arc::new(load_package(dir).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))))
}

/// A game of `id` on `map` with `seats` players, seeded, with optional `--set` overrides.
pub fn start(id: &str, map: &str, seats: usize, seed: u64, settings: &[&str]) -> Game {
    start_with(&package(id), map, seats, seed, settings)
}

/// `start` for a loaded package (a variant, say).
pub fn start_with(
    pkg: &Arc<Package>,
    map: &str,
    seats: usize,
    seed: u64,
    settings: &[&str],
) -> Game {
    try_start(pkg, map, seats, seed, settings)
        .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)))
}

/// `start_with`, or the diagnostics of a game that does not start.
pub fn try_start(
    pkg: &Arc<Package>,
    map: &str,
    seats: usize,
    seed: u64,
    settings: &[&str],
) -> Result<Game, Vec<meeple::diag::Diagnostic>> {
    let config = GameConfig {
        map: Some(map.to_string()),
        seats,
        seed,
        settings: settings.iter().map(|s| s.to_string()).collect(),
    };
    Game::new(pkg.clone(), config)
}

/// A small game folder `id` written in `dir`, played on a map `table` of kind table:
/// game.toml is its identity, then `manifest` (players, zones, flow, …), then the map; then
/// each of `files` (`rules.lua`, `ai.lua`, …). Its path.
pub fn table_game(
    dir: &std::path::Path,
    id: &str,
    manifest: &str,
    files: &[(&str, &str)],
) -> std::path::PathBuf {
    let game = dir.join(id);
    std::fs::create_dir_all(game.join("maps")).expect("a game folder");
    let head = format!("id = \"{id}\"\ntitle = \"{id}\"\nversion = \"0.1.0\"\napi = 1\n");
    let maps = "[maps]\ntable = \"maps/table.toml\"\n";
    let write = |name: &str, text: &str| std::fs::write(game.join(name), text).expect("a file");
    write("game.toml", &format!("{head}{manifest}{maps}"));
    write("maps/table.toml", "name = \"Table\"\nkind = \"table\"\n");
    files.iter().for_each(|(name, text)| write(name, text));
    game
}

/// The package of the game folder at `path`, loaded.
pub fn load_at(path: &std::path::Path) -> Arc<Package> {
    Arc::new(load_package(path).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))))
}

/// Runs Lua in the game (G, ctx, R in scope) and re-asks the pending decision.
pub fn exec(game: &mut Game, code: &str) -> serde_json::Value {
    (game.exec(code).unwrap_or_else(|e| panic!("{e}"))).unwrap_or_default()
}

/// Evaluates a Lua expression without changing anything.
pub fn eval(game: &Game, expr: &str) -> serde_json::Value {
    game.eval(&format!("return {expr}"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// What the Lua statements `code` raise, as `pcall` catches it (nil when they raise nothing).
pub fn raised(game: &Game, code: &str) -> serde_json::Value {
    let caught = format!("local ok, e = pcall(function() {code} end) return e");
    game.eval(&caught).unwrap_or_else(|e| panic!("{e}"))
}

/// Applies an action typed as text (`"buy beijing"`) for whoever must decide.
pub fn act(game: &mut Game, text: &str) {
    let seat = game.pending().expect("a pending decision").seat;
    let action = Action::parse(text).expect("an action");
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("applying '{text}': {e}"));
}

/// The pending options as text.
pub fn options(game: &Game) -> Vec<String> {
    game.pending()
        .map(|p| p.options().iter().map(|o| o.to_string()).collect())
        .unwrap_or_default()
}

/// A game count from the environment variable `var`, or `default` when it is unset or not a
/// number.
pub fn games_from_env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The counter called `name` in the game's `game.toml` of a 1-based seat.
pub fn counter(game: &Game, seat: usize, name: &str) -> i64 {
    let c = game
        .pkg
        .counters
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no counter '{name}'"));
    game.world().unwrap().counters[c][seat - 1]
}

/// Cash of a 1-based seat.
pub fn cash(game: &Game, seat: usize) -> i64 {
    counter(game, seat, "cash")
}

/// 1-based space index of a 1-based seat's token.
pub fn position(game: &Game, seat: usize) -> usize {
    game.world().unwrap().board.tokens[seat - 1] + 1
}

/// Copies a folder recursively (a game into a temp folder, to edit it).
pub fn copy_dir(src: &std::path::Path, dst: &std::path::Path) {
    std::fs::create_dir_all(dst).expect("creating a folder");
    for entry in std::fs::read_dir(src).expect("reading a folder") {
        let entry = entry.expect("a folder entry");
        let to = dst.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &to);
        } else {
            std::fs::copy(entry.path(), &to).expect("copying a file");
        }
    }
}

/// A copy of `games/<id>` at `<a temp folder>/<at>`, to edit it; the folder lives as long as
/// the returned guard.
pub fn copy_game(id: &str, at: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("a temp folder");
    let root = tmp.path().join(at);
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    copy_dir(&games.join(id), &root);
    (tmp, root)
}

/// A copy of game `id` in a temp folder whose rules (and AI) are wrapped: `rules.lua` becomes
/// `rules_orig.lua` and the new `rules.lua` runs `rules` on its table `R`; the same for
/// `ai.lua` and `ai` on `AI`. `flow` replaces a line of game.toml.
pub struct Variant {
    _tmp: tempfile::TempDir,
    pub pkg: Arc<Package>,
}

impl Variant {
    /// A new game of the variant on `map` with `seats` seats from seed 1.
    pub fn game(&self, map: &str, seats: usize) -> Game {
        start_with(&self.pkg, map, seats, 1, &[])
    }
}

pub fn variant(id: &str, rules: &str, ai: &str, flow: Option<(&str, &str)>) -> Variant {
    let (tmp, root) = copy_game(id, &format!("games/{id}"));
    let wrap = |name: &str, var: &str, code: &str| {
        std::fs::rename(
            root.join(format!("{name}.lua")),
            root.join(format!("{name}_orig.lua")),
        )
        .unwrap();
        let text = format!("local {var} = require(\"{name}_orig\")\n{code}\nreturn {var}\n");
        std::fs::write(root.join(format!("{name}.lua")), text).unwrap();
    };
    wrap("rules", "R", rules);
    wrap("ai", "AI", ai);
    if let Some((from, to)) = flow {
        let toml = std::fs::read_to_string(root.join("game.toml")).unwrap();
        assert!(toml.contains(from), "game.toml of {id} has {from:?}");
        std::fs::write(root.join("game.toml"), toml.replacen(from, to, 1)).unwrap();
    }
    Variant {
        _tmp: tmp,
        pkg: load(&root),
    }
}

/// Runs `cmd` with `typed` on its standard input; what it printed and its exit status.
pub fn typing(cmd: &mut std::process::Command, typed: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("meeple runs");
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(typed.as_bytes())
        .expect("writing to meeple");
    child.wait_with_output().expect("meeple ends")
}

/// What `meeple play GAME --players PLAYERS --seed SEED --text --no-watch` printed with
/// `typed` on its standard input (run from the repository, so GAME may be an id).
pub fn play_typed(
    game: impl AsRef<std::ffi::OsStr>,
    players: &str,
    seed: u64,
    typed: &str,
) -> String {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.arg("play")
        .arg(game)
        .args([
            "--players",
            players,
            "--seed",
            &seed.to_string(),
            "--text",
            "--no-watch",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    String::from_utf8_lossy(&typing(&mut cmd, typed).stdout).to_string()
}

/// Runs `meeple <args>` in `cwd` with nothing to read.
pub fn meeple_in(cwd: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("meeple runs")
}

/// 1-based line of the only line of `text` containing `needle`.
pub fn line_in(text: &str, needle: &str) -> usize {
    let hits: Vec<usize> = (text.lines().enumerate())
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "{needle:?} should be on exactly one line, found on {hits:?}"
    );
    hits[0]
}
