//! The Lua a game runs, read with its package: the folder's own Lua files and the shared
//! scripts it sees. The VM loads and `require`s from here, never from disk, so a package
//! kept from before a reload still runs the rules it was read with (a reload can then replay
//! the game so far under both and say how they differ).

use super::shared::{self, Found as Text};
use super::{collect_files, source};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, Default)]
pub struct Scripts {
    /// The game folder's Lua files (and its named rules and AI files), by path inside it.
    own: BTreeMap<String, Text>,
    /// The shared scripts, by path inside `scripts/`.
    shared: BTreeMap<String, Text>,
}

impl Scripts {
    /// Reads the Lua of the game in `root` (shown as `shown`): every `.lua` file of the
    /// folder, the files `named` by its manifest, and the shared scripts.
    pub fn read(root: &Path, shown: &str, named: &[&str]) -> Scripts {
        let mut files = Vec::new();
        collect_files(root, root, &mut files);
        files.retain(|f| f.ends_with(".lua"));
        files.extend(named.iter().map(|f| f.to_string()));
        let own = (files.into_iter())
            .map(|rel| {
                let path = format!("{shown}/{rel}");
                let text = source::read_text(&root.join(&rel), &path).map(|t| (path, t));
                (rel, text)
            })
            .collect();
        Scripts {
            own,
            shared: shared::all(root).into_iter().collect(),
        }
    }

    /// The game's own Lua files, by path inside the folder.
    pub fn own_files(&self) -> impl Iterator<Item = &Text> {
        self.own.values()
    }

    /// The game's own Lua file `rel`, when the folder has it.
    pub fn own(&self, rel: &str) -> Option<&Text> {
        self.own.get(rel)
    }

    /// Module file `rel` as `require` finds it: the game's own, else a shared script.
    pub fn find(&self, rel: &str) -> Option<&Text> {
        self.own(rel).or_else(|| self.shared.get(rel))
    }
}
