//! Watches folders (not single files: editors save by writing a temporary file and renaming it)
//! on a background thread and sends one `ReloadRequest` per burst of changes, once the folder
//! has been quiet for the debounce time. Only `.toml` and `.lua` files count.

use notify::{Event, EventKind, RecursiveMode, Watcher as _};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// Quiet time after the last change before a reload is requested.
pub const DEBOUNCE: Duration = Duration::from_millis(25);

/// A burst of saves: the files that changed and when the first change was seen.
#[derive(Debug, Clone)]
pub struct ReloadRequest {
    pub paths: Vec<PathBuf>,
}

impl ReloadRequest {
    /// A request to read every file of the game again (a scripted `reload`).
    pub fn everything() -> ReloadRequest {
        ReloadRequest { paths: Vec::new() }
    }

    /// The changed files relative to the game folder `root`, as shown to people.
    pub fn shown(&self, root: &std::path::Path) -> Vec<String> {
        if self.paths.is_empty() {
            return vec!["the game files".into()];
        }
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        self.paths
            .iter()
            .map(|p| {
                let p = p.canonicalize().unwrap_or_else(|_| p.clone());
                match p.strip_prefix(&root) {
                    Ok(rel) => rel.display().to_string(),
                    Err(_) => crate::def::shown_path(&p),
                }
            })
            .collect()
    }
}

/// Keeps the OS watcher alive; requests arrive on `requests`.
pub struct Watcher {
    handle: WatchHandle,
    pub requests: Receiver<ReloadRequest>,
}

/// Watching lasts as long as this lives.
pub struct WatchHandle {
    _watcher: notify::RecommendedWatcher,
}

impl Watcher {
    /// Watches a game's folder and the shared `scripts/` folder beside `games/`.
    pub fn for_game(pkg: &crate::def::Package) -> Result<Watcher, String> {
        Watcher::new(
            &[pkg.root.clone(), crate::def::shared::folder(&pkg.root)],
            DEBOUNCE,
        )
    }

    /// Watches `dirs` (recursively; missing ones are skipped).
    pub fn new(dirs: &[PathBuf], debounce: Duration) -> Result<Watcher, String> {
        let (raw_tx, raw_rx) = channel::<notify::Result<Event>>();
        let mut inner =
            notify::recommended_watcher(raw_tx).map_err(|e| format!("cannot watch files: {e}"))?;
        for dir in dirs.iter().filter(|d| d.is_dir()) {
            inner
                .watch(dir, RecursiveMode::Recursive)
                .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        }
        let (tx, requests) = channel();
        std::thread::Builder::new()
            .name("meeple-watch".into())
            .spawn(move || debounce_loop(raw_rx, tx, debounce))
            .map_err(|e| format!("cannot start the watcher thread: {e}"))?;
        Ok(Watcher {
            handle: WatchHandle { _watcher: inner },
            requests,
        })
    }

    /// The handle that keeps watching alive, and the requests, to be used apart.
    pub fn split(self) -> (WatchHandle, Receiver<ReloadRequest>) {
        (self.handle, self.requests)
    }
}

fn counts(event: &Event) -> bool {
    !matches!(event.kind, EventKind::Access(_)) && event.paths.iter().any(|p| is_source(p))
}

fn is_source(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("toml" | "lua")
    )
}

fn debounce_loop(
    raw: Receiver<notify::Result<Event>>,
    tx: Sender<ReloadRequest>,
    debounce: Duration,
) {
    loop {
        let first = match raw.recv() {
            Ok(Ok(e)) if counts(&e) => e,
            Ok(_) => continue,
            Err(_) => return,
        };
        let mut paths: BTreeSet<PathBuf> =
            first.paths.into_iter().filter(|p| is_source(p)).collect();
        loop {
            match raw.recv_timeout(debounce) {
                Ok(Ok(e)) if counts(&e) => {
                    paths.extend(e.paths.into_iter().filter(|p| is_source(p)))
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        let request = ReloadRequest {
            paths: paths.into_iter().collect(),
        };
        if tx.send(request).is_err() {
            return;
        }
    }
}
