//! Every problem of every file of a game folder in one run: the package's (manifest, maps,
//! decks), its style's, and the text of its Lua files for the script layer to compile. `check`
//! reports them all together, sorted by file and line, before it plays a game.

use super::files::Files;
use super::manifest::ManifestParts;
use super::scripts::Scripts;
use super::{load_package, shown_path, style, Package};
use crate::diag::Diagnostic;
use std::path::Path;

/// What reading a whole game folder found.
pub struct Folder {
    /// The package, when its files have no problem.
    pub package: Option<Package>,
    pub problems: Vec<Diagnostic>,
    /// Each Lua file of the folder: its path as shown and its text.
    pub lua: Vec<(String, String)>,
}

/// Reads the game in `root`: its package, and when the package has problems or `whole` asks
/// for it (`check`), every other file too (the style, the Lua files' text).
pub fn read_folder(root: &Path, whole: bool) -> Folder {
    let shown = shown_path(root);
    let (package, mut problems) = match load_package(root) {
        Ok(pkg) if !whole => {
            return Folder {
                package: Some(pkg),
                problems: Vec::new(),
                lua: Vec::new(),
            }
        }
        Ok(pkg) => {
            let problems = style::check_styles(&pkg).err().unwrap_or_default();
            (Some(pkg), problems)
        }
        Err(mut problems) => {
            problems.extend(style_problems(root, &shown));
            (None, problems)
        }
    };
    // The package read its Lua already; a folder whose package has problems is read here.
    let read;
    let scripts = match &package {
        Some(pkg) => &pkg.scripts,
        None => {
            read = Scripts::read(&Files::read(root, &shown), &[]);
            &read
        }
    };
    let mut lua = Vec::new();
    for text in scripts.own_files() {
        match text {
            Ok(found) => lua.push(found.clone()),
            Err(d) => problems.push(d.clone()),
        }
    }
    Folder {
        package,
        problems,
        lua,
    }
}

/// The style's problems for a game whose manifest has problems of its own, checked against
/// what of the manifest can be read (nothing when not even its maps can).
fn style_problems(root: &Path, shown: &str) -> Vec<Diagnostic> {
    let text = std::fs::read_to_string(root.join("game.toml")).unwrap_or_default();
    let Some(parts) = ManifestParts::read(&text) else {
        return Vec::new();
    };
    let maps: Vec<&str> = (parts.maps.keys())
        .map(String::as_str)
        .filter(|m| *m != "default")
        .collect();
    style::check_styles_of(shown, root, &maps, parts.seats(), None)
        .err()
        .unwrap_or_default()
}
