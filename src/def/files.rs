//! A game folder's TOML and Lua files, each read once: the package is built from these bytes
//! and hashed from them, so the hash a record keeps names exactly the files the game was read
//! from, even while an editor is saving. A file outside that set (a path out of the folder) is
//! read when asked for.

use super::{collect_files, source};
use crate::diag::Diagnostic;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// A file's bytes, or why it could not be read.
type Bytes = Result<Vec<u8>, String>;

/// Why a file that is not there could not be read.
const MISSING: &str = "not found";

pub struct Files {
    root: PathBuf,
    shown: String,
    /// Every TOML and Lua file below the root (not its tests), by path inside it.
    own: BTreeMap<String, Bytes>,
    /// Files asked for that are not in `own`, as read then.
    more: RefCell<BTreeMap<String, Bytes>>,
}

impl Files {
    /// Reads the files of the game in `root`, shown in messages as `shown`.
    pub fn read(root: &Path, shown: &str) -> Files {
        let mut rels = Vec::new();
        collect_files(root, root, &mut rels);
        let own = (rels.into_iter())
            .map(|rel| {
                let bytes = read_bytes(&root.join(&rel));
                (rel, bytes)
            })
            .collect();
        Files {
            root: root.to_path_buf(),
            shown: shown.to_string(),
            own,
            more: RefCell::default(),
        }
    }

    /// Whether file `rel` was there (readable or not).
    pub fn exists(&self, rel: &str) -> bool {
        self.with(rel, |b| !matches!(b, Err(e) if e == MISSING))
    }

    /// `script file 'ia.lua' not found; did you mean 'ai.lua'?`: the error for a `kind` file
    /// `rel` that is not there, with the folder's nearest file of the same extension.
    pub fn not_found(&self, kind: &str, rel: &str) -> String {
        let ext = Path::new(rel).extension();
        let same = (self.own.keys()).filter(|f| Path::new(f.as_str()).extension() == ext);
        let hint = crate::diag::hint(rel, same.map(String::as_str));
        format!("{kind} file '{rel}' not found{hint}")
    }

    /// The text of file `rel` (shown as `<folder>/<rel>`): UTF-8, or the byte that is not.
    pub fn text(&self, rel: &str) -> Result<String, Diagnostic> {
        let shown = self.shown(rel);
        self.with(rel, |bytes| match bytes {
            Ok(b) => source::decode(b.clone(), &shown),
            Err(e) => Err(Diagnostic::error(&shown, format!("cannot read: {e}"))),
        })
    }

    /// The folder the files are read from.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// File `rel` as messages show it: `<folder>/<rel>`.
    pub fn shown(&self, rel: &str) -> String {
        format!("{}/{rel}", self.shown)
    }

    /// The folder's own TOML files, by path inside it.
    pub fn toml(&self) -> impl Iterator<Item = &str> {
        (self.own.keys())
            .filter(|rel| rel.ends_with(".toml"))
            .map(String::as_str)
    }

    /// The folder's own Lua files, by path inside it.
    pub fn lua(&self) -> impl Iterator<Item = &str> {
        (self.own.keys())
            .filter(|rel| rel.ends_with(".lua"))
            .map(String::as_str)
    }

    /// Hashes the folder's own files, by path in sorted order.
    pub fn hash_into(&self, h: &mut blake3::Hasher) {
        for (rel, bytes) in &self.own {
            h.update(rel.as_bytes());
            h.update(&[0]);
            if let Ok(b) = bytes {
                h.update(b);
            }
        }
    }

    fn with<T>(&self, rel: &str, f: impl FnOnce(&Bytes) -> T) -> T {
        if let Some(b) = self.own.get(&plain(rel)) {
            return f(b);
        }
        let mut more = self.more.borrow_mut();
        let b = (more.entry(rel.to_string())).or_insert_with(|| read_bytes(&self.root.join(rel)));
        f(b)
    }
}

/// `rel` as the folder's own files are named: `./rules.lua` and `maps//a.toml` are
/// `rules.lua` and `maps/a.toml`.
fn plain(rel: &str) -> String {
    let parts = Path::new(rel)
        .components()
        .filter(|c| *c != Component::CurDir);
    let parts: Vec<_> = parts.map(|c| c.as_os_str().to_string_lossy()).collect();
    parts.join("/")
}

fn read_bytes(path: &Path) -> Bytes {
    if !path.is_file() {
        return Err(MISSING.into());
    }
    std::fs::read(path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(files: &Files) -> String {
        let mut h = blake3::Hasher::new();
        files.hash_into(&mut h);
        h.finalize().to_hex().to_string()
    }

    // A file edited after the folder was read is seen as it was read, by the text and the hash
    // alike; a file outside the folder's own set is read when first asked for.
    #[test]
    fn each_file_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("g");
        std::fs::create_dir_all(root.join("tests")).unwrap();
        std::fs::write(root.join("rules.lua"), "return 1").unwrap();
        std::fs::write(root.join("tests/t.lua"), "return 2").unwrap();
        std::fs::write(dir.path().join("extra.toml"), "a = 1").unwrap();
        let files = Files::read(&root, "g");
        let before = hash(&files);
        std::fs::write(root.join("rules.lua"), "return 3").unwrap();
        assert_eq!(files.text("rules.lua").unwrap(), "return 1");
        assert_eq!(files.text("./rules.lua").unwrap(), "return 1");
        assert_eq!(hash(&files), before);
        assert_eq!(files.lua().collect::<Vec<_>>(), ["rules.lua"]);
        assert!(files.exists("../extra.toml") && !files.exists("nothing.toml"));
        assert_eq!(files.text("../extra.toml").unwrap(), "a = 1");
        let err = files.text("nothing.toml").unwrap_err().to_string();
        assert_eq!(err, "g/nothing.toml: error: cannot read: not found");
    }
}
