//! `meeple new`: a new game folder made from one of the templates in `templates/` (a game on
//! a grid, on a track or at a table), which passes `check`, plays, simulates and opens in the
//! window as it is, with its editor types (`meeple types`). It never writes over an existing
//! folder.

use super::CmdResult;
use crate::diag::Diagnostic;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct NewArgs {
    /// The game's id: letters, digits, '_' and '-' (its folder is games/NAME unless --dir); or
    /// a path, whose last part is the id (work/climb makes the game 'climb' in work/climb)
    name: String,
    /// What the game is played on
    #[arg(long, value_enum, default_value_t = Kind::Grid)]
    kind: Kind,
    /// The folder to make (it must not exist yet)
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The title the terminal and the window show (default: the name)
    #[arg(long)]
    title: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Kind {
    /// Two players place stones on a square board; four in a row wins
    Grid,
    /// Two to four players race round a track of spaces with dice
    Track,
    /// Two to four players play cards from hidden hands onto a pile
    Table,
}

/// A template's files: the path in the game folder and the text.
type Files = &'static [(&'static str, &'static str)];

macro_rules! template {
    ($kind:literal, $($file:literal),+) => {
        &[$(($file, include_str!(concat!("../../templates/", $kind, "/", $file)))),+]
    };
}

const GRID: Files = template!(
    "grid",
    "game.toml",
    "maps/board.toml",
    "rules.lua",
    "ai.lua"
);
const TRACK: Files = template!(
    "track",
    "game.toml",
    "maps/track.toml",
    "rules.lua",
    "ai.lua"
);
const TABLE: Files = template!(
    "table",
    "game.toml",
    "maps/table.toml",
    "rules.lua",
    "ai.lua"
);

pub fn run(a: NewArgs) -> CmdResult {
    let problem = |m: String| vec![Diagnostic::error("meeple new", m)];
    let (id, dir) = id_and_folder(&a.name, a.dir).map_err(problem)?;
    if dir.exists() {
        return Err(problem(format!(
            "{} already exists: nothing was written (choose another name or --dir)",
            dir.display()
        )));
    }
    let (files, kind) = match a.kind {
        Kind::Grid => (GRID, "grid"),
        Kind::Track => (TRACK, "track"),
        Kind::Table => (TABLE, "table"),
    };
    let title = a.title.unwrap_or_else(|| id.clone());
    write_all(&dir, files, &id, &title).map_err(problem)?;
    let shown = dir.display().to_string();
    let pkg = super::load(&shown)?;
    let types = crate::script::luatypes::game_definitions(&pkg);
    super::types::write_game(&dir, &types).map_err(problem)?;
    println!("made {shown}: a {kind} game, '{title}'");
    for (file, _) in files {
        println!("  {shown}/{file}");
    }
    println!("  {shown}/.luarc.json and {shown}/.meeple/: editor types (see meeple types --help)");
    println!("next: meeple check {shown} · meeple play {shown} · meeple sim {shown}");
    if dir == Path::new("games").join(&id) && crate::def::hides_shipped_game(&id) {
        println!("note: run from here, '{id}' names this game, not the shipped game '{id}'");
    }
    Ok(0)
}

/// The game's id and its folder: NAME is the id, in games/NAME unless `dir` says; a path
/// (`work/climb`) is the folder, its last part the id.
fn id_and_folder(name: &str, dir: Option<PathBuf>) -> Result<(String, PathBuf), String> {
    if crate::def::is_game_id(name) {
        let dir = dir.unwrap_or_else(|| Path::new("games").join(name));
        return Ok((name.to_string(), dir));
    }
    let path = Path::new(name);
    match path.file_name().and_then(|n| n.to_str()) {
        Some(id) if name.contains('/') && crate::def::is_game_id(id) => match dir {
            None => Ok((id.to_string(), path.to_path_buf())),
            Some(_) => Err(format!(
                "'{name}' is a folder and --dir another: give the id ({id}) with --dir, or the path alone"
            )),
        },
        _ => Err(format!(
            "'{name}' is not a game id: use letters, digits, '_' and '-' (or a path whose last \
             part is one)"
        )),
    }
}

/// Writes every file of the template with its id and title filled in; on a failure, what
/// was written is removed again.
fn write_all(dir: &Path, files: Files, id: &str, title: &str) -> Result<(), String> {
    let written = (files.iter()).try_for_each(|(file, text)| {
        let text = text
            .replace("{{id}}", id)
            .replace("{{title}}", &toml_safe(title));
        super::types::write_file(&dir.join(file), &text)
    });
    if written.is_err() {
        let _ = std::fs::remove_dir_all(dir);
    }
    written
}

/// The title as it may stand inside a TOML basic string (and a Lua comment).
fn toml_safe(title: &str) -> String {
    title
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', " ")
}
