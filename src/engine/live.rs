//! Moving a running game to edited rules. A reload loads the files afresh into a new package
//! and new rules, checks that the live position still fits them (`reload::remap`), restores
//! the position there and asks the pending decision under the new rules; only when all of that
//! works does it replace the running game's rules. On any failure the game is untouched.

use super::{board_and_settings, load_rules};
use super::{Game, Snapshot};
use crate::core::event::Event;
use crate::def::board::Layout;
use crate::def::load_package;
use crate::diag::{self, Diagnostic};
use crate::reload::remap::{check_settings, remap_world, Versions};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A successful reload.
#[derive(Debug, Clone, PartialEq)]
pub struct Reloaded {
    pub files_hash: String,
    pub took: Duration,
}

impl Game {
    /// Reloads the game's files; swaps only if they load, fit the live game and can ask the
    /// pending decision. Every problem found is returned, sorted.
    pub fn try_reload(&mut self) -> Result<Reloaded, Vec<Diagnostic>> {
        let started = Instant::now();
        let pkg = Arc::new(load_package(&self.pkg.root)?);
        let snap = self
            .snapshot()
            .map_err(|e| vec![e.into_diagnostic("reload")])?;
        let (board, settings) = board_and_settings(&pkg, &self.config)?;
        let (old_board, _) = board_and_settings(&self.pkg, &self.config)?;
        let versions = Versions {
            old: &Layout::of(&self.pkg, &old_board),
            new_pkg: &pkg,
            new_board: &board,
            new_settings: &settings,
        };
        let mut diags = check_settings(&self.settings, &settings, &pkg);
        let world = remap_world(&snap.world, &snap.state, &versions).map_err(|d| diags.extend(d));
        let world = match world {
            Ok(w) if diags.is_empty() => w,
            _ => {
                diag::sort(&mut diags);
                return Err(diags);
            }
        };
        let (mut rules, settings) = load_rules(&pkg, &self.config)?;
        let moved = Snapshot { world, ..snap };
        rules
            .restore(&moved)
            .map_err(|e| vec![e.into_diagnostic("reload")])?;
        let mut events = self.rules.drain_events();
        if self.rules.recording() {
            events.push(Event::Reload {
                files_hash: pkg.files_hash.clone(),
            });
        }
        rules.set_recording(self.rules.recording());
        rules.put_events(events);
        rules.set_last_cell(self.rules.last_cell());
        self.rules = rules;
        self.settings = settings;
        self.pkg = pkg.clone();
        self.moves += 1;
        if let Some(u) = &mut self.undo {
            u.clear();
        }
        self.redo.clear();
        Ok(Reloaded {
            files_hash: pkg.files_hash.clone(),
            took: started.elapsed(),
        })
    }
}
