//! What the rules only show: an option's label (`R.label`), where it is played on the board
//! (`R.spot`) and a player's status lines (`R.status`). Read leniently where they are shown (a
//! failing hook does not stop a game), strictly by `check_shown`, which `meeple check` runs at
//! every decision.

use super::drive::described;
use super::{arg_of, context, Game, GameError};
use crate::core::action::{Action, Arg};
use crate::script::api::function_at;
use mlua::{MultiValue, Table, Value};

impl Game {
    /// A human-readable label for an option: the rules' `label` hook or the action itself.
    pub fn label(&self, index: usize) -> String {
        let Some(p) = &self.pending else {
            return String::new();
        };
        match p.lua_options.raw_get::<Table>(index + 1) {
            Ok(option) => self.label_of(&option, &p.options()[index]),
            Err(_) => p.options()[index].to_string(),
        }
    }

    /// The rules' label for an option table, or the action as typed; a failing hook (or one
    /// returning something other than text) is named after the action, as `status_lines` does.
    pub(super) fn label_of(&self, option: &Table, action: &Action) -> String {
        match self.rules_label(option) {
            Ok(Some(text)) => text,
            Ok(None) => action.to_string(),
            Err(e) => format!("{action} (R.label failed: {})", first_line(&e)),
        }
    }

    /// `R.label`'s text for an option: `None` without the hook or when it returns nil.
    fn rules_label(&self, option: &Table) -> Result<Option<String>, GameError> {
        let Some(label) = function_at(&self.host.rules, "label") else {
            return Ok(None);
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "label");
        match self
            .host
            .call(&label, (&self.g, &self.host.ctx, option), &ctx)?
        {
            Value::Nil => Ok(None),
            Value::String(s) => Ok(Some(s.to_string_lossy())),
            other => {
                let msg = format!("R.label returned {}, expected a string", described(&other));
                Err(self.error_at(Some(label), msg, "label"))
            }
        }
    }

    /// Where option `index` of the pending decision is played on the board, in the form of an
    /// option's arguments (a grid's row and column, a track's space id): what `R.spot` returns
    /// (nothing for nil), else the option's own arguments; the hook's failure is the error.
    pub fn place_of(&self, index: usize) -> Result<Vec<Arg>, GameError> {
        let Some(p) = &self.pending else {
            return Ok(Vec::new());
        };
        let own = || p.options()[index].args.clone();
        match p.lua_options.raw_get::<Table>(index + 1) {
            Ok(option) => Ok(self.rules_spot(&option)?.unwrap_or_else(own)),
            Err(_) => Ok(own()),
        }
    }

    /// Whether the rules place options themselves (`R.spot`), so that a board spot cannot be
    /// read back as an option's arguments.
    pub fn places_options(&self) -> bool {
        function_at(&self.host.rules, "spot").is_some()
    }

    /// `R.spot`'s place for an option: `None` without the hook; no values when it returns nil;
    /// else a cell of the grid or a space of the track, or an error saying what it returned.
    fn rules_spot(&self, option: &Table) -> Result<Option<Vec<Arg>>, GameError> {
        let Some(spot) = function_at(&self.host.rules, "spot") else {
            return Ok(None);
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "spot");
        let values: MultiValue = self
            .host
            .call(&spot, (&self.g, &self.host.ctx, option), &ctx)?;
        if values.front().is_none_or(|v| v.is_nil()) {
            return Ok(Some(Vec::new()));
        }
        let place: Result<Vec<Arg>, String> = (values.iter())
            .map(|v| match v {
                Value::Integer(_) | Value::String(_) => arg_of(v.clone()),
                other => Err(described(other)),
            })
            .collect();
        let problem = match place {
            Ok(place) => match self.off_board(&place) {
                None => return Ok(Some(place)),
                Some(problem) => problem,
            },
            Err(got) => format!(
                "R.spot returned {got}, expected a row and column (a grid) or a space id (a track)"
            ),
        };
        Err(self.error_at(Some(spot.clone()), problem, "spot"))
    }

    /// What is wrong with a place `R.spot` returned, for this game's board: a grid takes a
    /// row and a column on it, a track one of its space ids.
    fn off_board(&self, place: &[Arg]) -> Option<String> {
        let shown: Vec<String> = (place.iter())
            .map(|a| match a {
                Arg::Str(s) => format!("'{s}'"),
                other => other.to_string(),
            })
            .collect();
        let got = format!("R.spot returned ({})", shown.join(", "));
        if let Some(grid) = &self.world.borrow().grid {
            let (rows, cols) = (grid.rows as i64, grid.cols as i64);
            return match place {
                [Arg::Int(r), Arg::Int(c)] if (1..=rows).contains(r) && (1..=cols).contains(c) => {
                    None
                }
                [Arg::Int(_), Arg::Int(_)] => Some(format!(
                    "{got}, off the {rows}×{cols} grid (rows 1 to {rows}, columns 1 to {cols})"
                )),
                _ => Some(format!("{got}, expected a row and a column of the grid")),
            };
        }
        // A table of zones places its options by their item codes, not by `R.spot`.
        let board =
            (self.pkg.map(self.config.map.as_deref()).ok()).filter(|b| !b.spaces.is_empty())?;
        match place {
            [Arg::Str(id)] if board.space_index(id).is_some() => None,
            [Arg::Str(id)] => Some(format!("{got}: map '{}' has no space '{id}'", board.id)),
            _ => Some(format!("{got}, expected one space id of the track")),
        }
    }

    /// Lines the rules' `status` hook wants shown for `seat` (holdings, jail, …). A failing
    /// hook or a result of another kind becomes a line saying so rather than an error that
    /// would stop the game.
    pub fn status_lines(&self, seat: usize) -> Vec<String> {
        self.rules_status(seat)
            .unwrap_or_else(|e| vec![format!("(R.status failed: {})", first_line(&e))])
    }

    /// `R.status` for `seat`: a list of strings, or one string.
    fn rules_status(&self, seat: usize) -> Result<Vec<String>, GameError> {
        let Some(status) = function_at(&self.host.rules, "status") else {
            return Ok(Vec::new());
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "status");
        let bad = |got: String| {
            let msg = format!("R.status returned {got}, expected a list of strings");
            self.error_at(Some(status.clone()), msg, "status")
        };
        match self
            .host
            .call(&status, (&self.g, &self.host.ctx, seat + 1), &ctx)?
        {
            Value::Nil => Ok(Vec::new()),
            Value::String(s) => Ok(vec![s.to_string_lossy()]),
            Value::Table(t) => (t.sequence_values::<String>().collect::<Result<Vec<_>, _>>())
                .map_err(|_| bad("a list with something other than strings in it".into())),
            other => Err(bad(described(&other))),
        }
    }

    /// Runs what the rules only show, strictly: `R.label` and `R.spot` for every option of the
    /// pending decision and `R.status` for every seat in play; the first that fails, or returns
    /// something other than text, is the error.
    pub fn check_shown(&self) -> Result<(), GameError> {
        if let Some(p) = &self.pending {
            for i in 1..=p.len() {
                let option: Table = (p.lua_options.raw_get(i)).map_err(|e| self.lua_failure(e))?;
                self.rules_label(&option)?;
                self.rules_spot(&option)?;
            }
        }
        let in_play = self.world().in_play.clone();
        for seat in (0..in_play.len()).filter(|s| in_play[*s]) {
            self.rules_status(seat)?;
        }
        Ok(())
    }
}

/// The first line of an error (its location and message, without the notes under it).
fn first_line(e: &GameError) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}
