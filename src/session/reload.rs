//! Live reload of a session: the one path the terminal and the window take when the game's
//! files change. The rules swap only when the new files load, fit the live game and can ask
//! its pending decision; then the record notes it and the report says, in words, how the
//! game so far would have gone under the new rules rather than those it was played under
//! (once, until that changes).

use super::Session;
use crate::diag::Diagnostic;
use crate::reload::ReloadRequest;

/// What a reload did.
pub enum Reloaded {
    /// The new rules are live: what to say (`reloaded rules.lua (12 ms)`), and how the game so
    /// far would differ under them, when that is new.
    Done {
        said: String,
        differs: Option<String>,
    },
    /// The last good rules keep running: what to say, and every problem found.
    Failed {
        said: String,
        diags: Vec<Diagnostic>,
    },
}

impl Session {
    /// Reloads the game's files for `request` (the files that changed).
    pub fn reload(&mut self, request: &ReloadRequest) -> Reloaded {
        let names = request.shown(&self.game.pkg.root).join(", ");
        match self.game.try_reload() {
            Ok(r) => {
                let ms = r.took.as_secs_f64() * 1000.0;
                self.record.rules_changed_to(r.files_hash);
                // Against the rules the game was played under: a reload that puts back
                // what was played reports no difference.
                let (was, now) = (self.played_under.clone(), self.game.pkg.clone());
                let differs = crate::replay::differences(was, now, &self.record);
                let new = differs.clone().filter(|d| self.differs.as_ref() != Some(d));
                self.differs = differs;
                Reloaded::Done {
                    said: format!("reloaded {names} ({ms:.0} ms)"),
                    differs: new,
                }
            }
            Err(diags) => Reloaded::Failed {
                said: format!("not reloaded ({names}): the last good rules keep running"),
                diags,
            },
        }
    }
}
