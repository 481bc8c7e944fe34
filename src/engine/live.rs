//! Moving a running game to edited rules. A reload loads the files afresh into a new package
//! and a new VM, checks that the live position still fits them (`reload::remap`), restores the
//! position there and asks the pending decision under the new rules; only when all of that
//! works does it replace the running game. On any failure the game is untouched.

use super::{board_and_settings, round_cap, Game, GameError};
use crate::core::event::Event;
use crate::def::board::Layout;
use crate::def::load_package;
use crate::diag::{self, Diagnostic};
use crate::reload::remap::{check_settings, remap_world, Versions};
use crate::script::convert::from_json;
use crate::script::Host;
use mlua::Value;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A successful reload.
#[derive(Debug, Clone, PartialEq)]
pub struct Reloaded {
    pub files_hash: String,
    pub took: Duration,
}

fn diag_of(e: GameError) -> Diagnostic {
    match e {
        GameError::Script(s) => s.0,
        GameError::Rejected(r) => Diagnostic::error("reload", r),
    }
}

impl Game {
    /// Reloads the game's files; swaps only if they load, fit the live game and can ask the
    /// pending decision. Every problem found is returned, sorted.
    pub fn try_reload(&mut self) -> Result<Reloaded, Vec<Diagnostic>> {
        let started = Instant::now();
        let pkg = Arc::new(load_package(&self.pkg.root)?);
        let snap = self.snapshot().map_err(|e| vec![diag_of(e)])?;
        let (board, settings) = board_and_settings(&pkg, &self.config)?;
        let (old_board, _) = board_and_settings(&self.pkg, &self.config)?;
        let versions = Versions {
            old: &Layout::of(&self.pkg, &old_board),
            new_pkg: &pkg,
            new_board: &board,
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
        let world = Rc::new(RefCell::new(world));
        let host = Host::load(&pkg, &board, &settings, world.clone())?;
        let fail = |e: mlua::Error| vec![Diagnostic::error(&host.rules_path, e.to_string())];
        let Value::Table(g) = from_json(&host.lua, &snap.g).map_err(fail)? else {
            return Err(vec![Diagnostic::error(
                &host.rules_path,
                "the live G is not a table",
            )]);
        };
        host.push_world(&world.borrow()).map_err(fail)?;
        let mut next = Game {
            round_cap: round_cap(&settings),
            pkg: pkg.clone(),
            config: self.config.clone(),
            settings,
            host,
            world,
            g,
            pending: None,
            just_entered: false,
            check_listed: true,
            history: self.history.clone(),
            undo: self.undo.as_ref().map(|_| Vec::new()),
            redo: Vec::new(),
            chunk: super::autoplay::FIRST_CHUNK,
            moves: 0,
            shown: Default::default(),
        };
        if next.world.borrow().outcome.is_none() {
            next.settle().map_err(|e| vec![diag_of(e)])?;
        }
        let events = std::mem::take(&mut self.world.borrow_mut().events);
        {
            let mut w = next.world.borrow_mut();
            w.events = events;
            w.log(Event::Reload {
                files_hash: pkg.files_hash.clone(),
            });
        }
        *self = next;
        Ok(Reloaded {
            files_hash: pkg.files_hash.clone(),
            took: started.elapsed(),
        })
    }
}
