//! `meeple types [GAME]`: writes the editor types (LuaLS/EmmyLua `---@meta` files) made from
//! the API table, and the `.luarc.json` that points an editor and `emmylua_check` at them:
//! into a game folder (with that game's own types) or into the shared `scripts/` folder.

use super::CmdResult;
use crate::diag::Diagnostic;
use crate::script::luatypes::{self, API_FILE, DIR, GAME_FILE, SANDBOX_FILE};
use clap::Args;
use std::path::Path;

#[derive(Args)]
#[command(
    after_help = "With GAME, writes GAME/.meeple/meeple.lua (the whole Lua API), GAME/.meeple/game.lua \
(the game's settings, states, counters, zones and items), GAME/.meeple/sandbox.lua (what the \
sandbox leaves out, flagged when used) and GAME/.luarc.json, which points \
an editor (LuaLS, EmmyLua) at them and at the shared scripts/ two folders up (else at a copy of \
the built-in shared scripts in GAME/.meeple/scripts/). \
Without GAME, writes the same into scripts/ of the current folder, with any game's types. \
Run it again after changing game.toml; `meeple new` runs it for a new game."
)]
pub struct TypesArgs {
    /// Game id (a folder under games/) or a path to a game folder (default: the shared scripts/)
    game: Option<String>,
}

pub fn run(a: TypesArgs) -> CmdResult {
    let (written, shown) = match a.game {
        Some(game) => {
            let pkg = super::load(&game)?;
            let types = luatypes::game_definitions(&pkg);
            (write_game(&pkg.root, &types), pkg.shown.clone())
        }
        None => (write_shared(Path::new("scripts")), "scripts".into()),
    };
    written.map_err(|e| vec![Diagnostic::error("meeple types", e)])?;
    println!(
        "wrote {shown}/{DIR}/ ({API_FILE}, {GAME_FILE}, {SANDBOX_FILE}) and {shown}/.luarc.json"
    );
    Ok(0)
}

/// Writes a game folder's types: the API, `game` (its own types) and its `.luarc.json`, which
/// names the shared scripts beside the games folder, or else a copy of the built-in ones in
/// `.meeple/scripts/` (so that `require("grid")` resolves in an editor anywhere).
pub(super) fn write_game(dir: &Path, game: &str) -> Result<(), String> {
    let shared = std::fs::canonicalize(crate::def::shared::folder(dir)).ok();
    let library = match shared.filter(|s| s.is_dir()) {
        Some(folder) => folder.display().to_string(),
        None => {
            for (rel, found) in crate::def::shared::all(dir) {
                let (_, text) = found.map_err(|d| d.to_string())?;
                write_file(&dir.join(DIR).join(SCRIPTS).join(rel), &text)?;
            }
            format!("{DIR}/{SCRIPTS}")
        }
    };
    write_files(dir, game, &[library])
}

/// The folder of `.meeple/` that holds the built-in shared scripts for an editor.
const SCRIPTS: &str = "scripts";

fn write_shared(dir: &Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err("no scripts/ folder here: run `meeple types` beside the shared scripts, or `meeple types GAME`".into());
    }
    write_files(dir, &luatypes::any_game_definitions(), &[])
}

fn write_files(dir: &Path, game: &str, library: &[String]) -> Result<(), String> {
    let files = [
        (Path::new(DIR).join(API_FILE), luatypes::api_definitions()),
        (Path::new(DIR).join(GAME_FILE), game.to_string()),
        (
            Path::new(DIR).join(SANDBOX_FILE),
            luatypes::sandbox_definitions(),
        ),
        (".luarc.json".into(), luatypes::luarc(library)),
    ];
    for (file, text) in files {
        write_file(&dir.join(file), &text)?;
    }
    Ok(())
}

/// Writes `text` to `path`, making its folders first; the error names the file.
pub(super) fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
        .and_then(|_| std::fs::write(path, text))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
