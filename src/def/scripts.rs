//! The Lua a game runs, read with its package: the folder's own Lua files and the shared
//! scripts it sees. The VM loads and `require`s from here, never from disk, so a package
//! kept from before a reload still runs the rules it was read with (a reload can then replay
//! the game so far under both and say how they differ).

use super::files::Files;
use super::shared::{self, Found as Text};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct Scripts {
    /// The game folder's Lua files (and its named rules and AI files), by path inside it.
    own: BTreeMap<String, Text>,
    /// The shared scripts, by path inside `scripts/`.
    shared: BTreeMap<String, Text>,
}

impl Scripts {
    /// The Lua of the game whose files are `files`: every `.lua` file of the folder, the files
    /// `named` by its manifest, and the shared scripts.
    pub fn read(files: &Files, named: &[&str]) -> Scripts {
        let mut rels: Vec<&str> = files.lua().collect();
        rels.extend(named);
        let own = (rels.into_iter())
            .map(|rel| {
                let text = files.text(rel).map(|t| (files.shown(rel), t));
                (rel.to_string(), text)
            })
            .collect();
        Scripts {
            own,
            shared: shared::all(files.root()).into_iter().collect(),
        }
    }

    /// Hashes the shared scripts, by path inside `scripts/`.
    pub fn hash_shared_into(&self, h: &mut blake3::Hasher) {
        for (rel, found) in &self.shared {
            let text = found.as_ref().map_or("", |(_, text)| text.as_str());
            h.update(b"scripts/");
            h.update(rel.as_bytes());
            h.update(&[0]);
            h.update(text.as_bytes());
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

    /// The text of the script shown (and named in Lua) as `shown`.
    pub fn text(&self, shown: &str) -> Option<&str> {
        let all = self.own.values().chain(self.shared.values());
        (all.flatten())
            .find(|(name, _)| name == shown)
            .map(|(_, text)| text.as_str())
    }

    /// Module file `rel` as `require` finds it: the game's own, else a shared script.
    pub fn find(&self, rel: &str) -> Option<&Text> {
        self.own(rel).or_else(|| self.shared.get(rel))
    }
}
