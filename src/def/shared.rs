//! The shared Lua helpers of `scripts/`, which every game may `require`. A game finds them in
//! the `scripts/` folder two levels above its own (the repository's, beside `games/`), so that
//! edits there reload; a game anywhere else, or a script that folder lacks, gets the copy
//! built into the binary, shown as `scripts/<name>.lua` all the same.

use super::{shown_path, source};
use crate::diag::Diagnostic;
use std::path::{Path, PathBuf};

/// The shared scripts built into the binary: their path inside `scripts/` and their text.
const BUILT_IN: &[(&str, &str)] = &[
    ("grid.lua", include_str!("../../scripts/grid.lua")),
    ("hands.lua", include_str!("../../scripts/hands.lua")),
];

/// The folder of shared scripts beside the games folder of the game in `root` (it may not
/// exist): the one that is watched and read first.
pub fn folder(root: &Path) -> PathBuf {
    root.join("../../scripts")
}

/// A Lua file's path as shown in messages and chunk names, and its text (or why it could not
/// be read).
pub type Found = Result<(String, String), Diagnostic>;

/// Shared script `rel` (`grid.lua`) for the game in `root` (`Found`); `None` when neither the
/// folder nor the binary has it.
pub fn read(root: &Path, rel: &str) -> Option<Found> {
    let dir = folder(root);
    let file = dir.join(rel);
    if file.is_file() {
        let shown = format!("{}/{rel}", shown_path(&dir));
        return Some(source::read_text(&file, &shown).map(|text| (shown, text)));
    }
    built_in(rel).map(|text| Ok((format!("scripts/{rel}"), text.to_string())))
}

fn built_in(rel: &str) -> Option<&'static str> {
    BUILT_IN.iter().find(|(r, _)| *r == rel).map(|(_, t)| *t)
}

/// Where `require` looked for shared script `rel` beside the game's own folder, as a message
/// says it: `scripts/x.lua; shared scripts: grid, hands`.
pub fn looked(root: &Path, rel: &str) -> String {
    let names: Vec<&str> = BUILT_IN
        .iter()
        .map(|(r, _)| r.trim_end_matches(".lua"))
        .collect();
    let dir = folder(root);
    let disk = match dir.is_dir() {
        true => format!(", {}/{rel}", shown_path(&dir)),
        false => String::new(),
    };
    format!("{disk}; shared scripts: {}", names.join(", "))
}

/// Every shared script the game in `root` sees, by path inside `scripts/`: the folder's Lua
/// files, then the built-in ones the folder lacks; each with its path as shown and its text.
pub fn all(root: &Path) -> Vec<(String, Found)> {
    let dir = folder(root);
    let mut files = Vec::new();
    super::collect_files(&dir, &dir, &mut files);
    files.retain(|f| f.ends_with(".lua"));
    for (rel, _) in BUILT_IN {
        if !files.iter().any(|f| f == rel) {
            files.push(rel.to_string());
        }
    }
    files.sort();
    (files.into_iter())
        .filter_map(|rel| read(root, &rel).map(|found| (rel, found)))
        .collect()
}
