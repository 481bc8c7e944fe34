//! What the rules only show: an option's label (`R.label`), where it is played on the board
//! (`R.spot`), a player's status lines (`R.status`) and why an action is refused
//! (`R.why_not`). Each is computed for one viewer on the position as that viewer may know it
//! (`as_seen_by`): no text holds what the viewer cannot see, and no text hook can change the
//! game. Read leniently where they are shown (a failing hook is reported once per position
//! and the game goes on), strictly by `check_shown`, which `meeple check` runs at every
//! decision.

use super::drive::described;
use super::{arg_of, context, Game, GameError};
use crate::core::action::{Action, Arg};
use crate::core::rng::splitmix64;
use mlua::{MultiValue, Table, Value};

/// The texts of one position for one viewer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// Each pending option's label: `R.label`'s, or the action as typed.
    pub labels: Vec<String>,
    /// Where each pending option is played: `R.spot`'s place, or the option's arguments.
    pub spots: Vec<Vec<Arg>>,
    /// `R.status` lines per seat (none for a seat out of play).
    pub status: Vec<Vec<String>>,
    /// The first failure of `R.label` or `R.status` here, located (said once, not per option).
    pub problem: Option<String>,
    /// The first failure of `R.spot` here (its options are played by their arguments).
    pub spot_error: Option<String>,
}

/// A mark for the seed of a viewer's re-deal: the same position gives the same texts.
const SHOWN_SEED: u64 = 0x7368_6f77_6e00_0000;

impl Game {
    /// The texts of the position for `viewer` (`None`: a spectator, who sees only public
    /// things). Labels and spots are of the pending options, whoever is asked. Computed once
    /// per position and viewer (a failing hook costs its budget once).
    pub fn shown(&mut self, viewer: Option<usize>) -> Shown {
        if let Some((_, _, kept)) = (self.shown.borrow().as_ref())
            .filter(|(at, seen_by, _)| (*at, *seen_by) == (self.moves, viewer))
        {
            return kept.clone();
        }
        let shown = match self.as_seen_by(viewer, |g| g.shown_here(false)) {
            Ok(Ok(s)) => s,
            Ok(Err(e)) | Err(e) => self.unshown(e),
        };
        // (Seeing the position as the viewer put it back: that counted as a change.)
        *self.shown.borrow_mut() = Some((self.moves, viewer, shown.clone()));
        shown
    }

    /// Runs `f` on the position as `viewer` may know it: every pile it cannot see re-dealt,
    /// other seats' secret answers forgotten and the generator reseeded (so that a hook can
    /// neither read the hidden truth nor the dice to come); then the position comes back.
    pub fn as_seen_by<R>(
        &mut self,
        viewer: Option<usize>,
        f: impl FnOnce(&Game) -> R,
    ) -> Result<R, GameError> {
        let seed = splitmix64(SHOWN_SEED ^ self.world.borrow().decisions);
        self.searching(|g, _| {
            g.determinize_for(viewer, seed)?;
            Ok(f(g))
        })
    }

    /// Texts when the position could not be re-dealt (`G` not plain data, say): the actions
    /// as typed, and the problem.
    fn unshown(&self, e: GameError) -> Shown {
        let p = self.pending.as_ref();
        Shown {
            labels: p.map_or(Vec::new(), |p| {
                p.options().iter().map(|o| o.to_string()).collect()
            }),
            spots: p.map_or(Vec::new(), |p| {
                p.options().iter().map(|o| o.args.clone()).collect()
            }),
            status: vec![Vec::new(); self.world.borrow().seats],
            problem: Some(first_line(&e)),
            spot_error: None,
        }
    }

    /// The texts of the position as it is. Strict: the first failing hook is the error;
    /// lenient: it is noted once and its hook is not called again for this position.
    fn shown_here(&self, strict: bool) -> Result<Shown, GameError> {
        let mut shown = Shown::default();
        let failed = |e: GameError, into: &mut Option<String>| match strict {
            true => Err(e),
            false => {
                into.get_or_insert_with(|| first_line(&e));
                Ok(())
            }
        };
        if let Some(p) = &self.pending {
            for (i, action) in p.options().iter().enumerate() {
                let option: Table =
                    (p.lua_options.raw_get(i + 1)).map_err(|e| self.lua_failure(e))?;
                let label = match shown.problem {
                    Some(_) => Ok(None),
                    None => self.rules_label(&option),
                };
                let label = match label {
                    Ok(label) => label,
                    Err(e) => {
                        failed(e, &mut shown.problem)?;
                        None
                    }
                };
                shown
                    .labels
                    .push(label.unwrap_or_else(|| action.to_string()));
                let spot = match shown.spot_error {
                    Some(_) => Ok(None),
                    None => self.rules_spot(&option),
                };
                let spot = match spot {
                    Ok(spot) => spot,
                    Err(e) => {
                        failed(e, &mut shown.spot_error)?;
                        None
                    }
                };
                shown
                    .spots
                    .push(spot.unwrap_or_else(|| action.args.clone()));
            }
        }
        let in_play = self.world().in_play.clone();
        for (seat, playing) in in_play.into_iter().enumerate() {
            let lines = match (playing, &shown.problem) {
                (true, None) => self.rules_status(seat),
                _ => Ok(Vec::new()),
            };
            let lines = match lines {
                Ok(lines) => lines,
                Err(e) => {
                    failed(e, &mut shown.problem)?;
                    Vec::new()
                }
            };
            shown.status.push(lines);
        }
        Ok(shown)
    }

    /// `R.label`'s text for an option: `None` without the hook or when it returns nil.
    pub(super) fn rules_label(&self, option: &Table) -> Result<Option<String>, GameError> {
        let Some(label) = &self.host.game.label else {
            return Ok(None);
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "label");
        match self
            .host
            .call(label, (&self.g, &self.host.ctx, option), &ctx)?
        {
            Value::Nil => Ok(None),
            Value::String(s) => Ok(Some(s.to_string_lossy())),
            other => {
                let msg = format!("R.label returned {}, expected a string", described(&other));
                Err(self.error_at(Some(label.clone()), msg, "label"))
            }
        }
    }

    /// Whether the rules place options themselves (`R.spot`), so that a board spot cannot be
    /// read back as an option's arguments.
    pub fn places_options(&self) -> bool {
        self.host.game.spot.is_some()
    }

    /// `R.spot`'s place for an option: `None` without the hook; no values when it returns nil;
    /// else a cell of the grid or a space of the track, or an error saying what it returned.
    fn rules_spot(&self, option: &Table) -> Result<Option<Vec<Arg>>, GameError> {
        let Some(spot) = &self.host.game.spot else {
            return Ok(None);
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "spot");
        let values: MultiValue = self
            .host
            .call(spot, (&self.g, &self.host.ctx, option), &ctx)?;
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

    /// `R.status` for `seat`: a list of strings, or one string.
    fn rules_status(&self, seat: usize) -> Result<Vec<String>, GameError> {
        let Some(status) = &self.host.game.status else {
            return Ok(Vec::new());
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "status");
        let bad = |got: String| {
            let msg = format!("R.status returned {got}, expected a list of strings");
            self.error_at(Some(status.clone()), msg, "status")
        };
        match self
            .host
            .call(status, (&self.g, &self.host.ctx, seat + 1), &ctx)?
        {
            Value::Nil => Ok(Vec::new()),
            Value::String(s) => Ok(vec![s.to_string_lossy()]),
            Value::Table(t) => (t.sequence_values::<String>().collect::<Result<Vec<_>, _>>())
                .map_err(|_| bad("a list with something other than strings in it".into())),
            other => Err(bad(described(&other))),
        }
    }

    /// Runs what the rules only show, strictly, as the seat asked sees it: `R.label` and
    /// `R.spot` for every option of the pending decision and `R.status` for every seat in
    /// play; the first that fails, or returns something other than text, is the error.
    pub fn check_shown(&mut self) -> Result<(), GameError> {
        let seat = self.pending.as_ref().map(|p| p.seat);
        self.as_seen_by(seat, |g| g.shown_here(true))?.map(|_| ())
    }

    /// Why `seat` may not play `action` here, computed on what `seat` may know: the rules'
    /// `why_not(G, ctx, action, seat)` if it gives a reason, else the options there are (the
    /// first ten); a failing hook is shown with its file and line.
    pub fn why_not(&mut self, seat: usize, action: &Action) -> String {
        match self.reason(seat, action) {
            Ok(Some(reason)) => format!("'{action}' is not allowed: {reason}"),
            Ok(None) => self.not_an_option(seat, action),
            Err(e) => format!(
                "{} (R.why_not failed: {})",
                self.not_an_option(seat, action),
                first_line(&e)
            ),
        }
    }

    fn not_an_option(&self, seat: usize, action: &Action) -> String {
        let options = (self.pending.as_ref()).map_or(&[][..], |p| p.options());
        let mut listed: Vec<String> = options.iter().take(10).map(|o| format!("'{o}'")).collect();
        if options.len() > 10 {
            listed.push(format!("… {} more", options.len() - 10));
        }
        format!(
            "'{action}' is not a legal option for P{} in state '{}' (options: {})",
            seat + 1,
            self.state_name(),
            listed.join(", ")
        )
    }

    /// The rules' `why_not` answer for `seat`'s `action` on what `seat` may know, if the hook
    /// exists and gives one.
    pub fn reason(&mut self, seat: usize, action: &Action) -> Result<Option<String>, GameError> {
        self.as_seen_by(Some(seat), |g| g.rules_reason(seat, action))?
    }

    fn rules_reason(&self, seat: usize, action: &Action) -> Result<Option<String>, GameError> {
        let Some(hook) = &self.host.game.why_not else {
            return Ok(None);
        };
        let t =
            super::claim::action_table(&self.host.lua, action).map_err(|e| self.lua_failure(e))?;
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "why_not");
        let args = (&self.g, &self.host.ctx, t, seat + 1);
        match self.host.call(hook, args, &ctx)? {
            Value::Nil => Ok(None),
            Value::String(s) => Ok(Some(s.to_string_lossy())),
            other => {
                let msg = format!(
                    "R.why_not returned {}, expected a string or nil",
                    described(&other)
                );
                Err(self.error_at(Some(hook.clone()), msg, "why_not"))
            }
        }
    }
}

/// An error on one line: its location and message, then where in the flow it happened.
fn first_line(e: &GameError) -> String {
    let text = e.to_string();
    let mut lines = text.lines().map(str::trim);
    let first = lines.next().unwrap_or_default().to_string();
    match lines.next() {
        Some(note) if note.starts_with("in ") => format!("{first} · {note}"),
        _ => first,
    }
}
