//! What the rules only show: an option's label (`R.label`), where it is played (`R.spot`), a
//! player's status (`R.status`) and why an action is refused (`R.why_not`), each computed on
//! the position as its viewer may know it (`as_seen_by`), so no text holds what the viewer
//! cannot see. Read leniently where shown (a failing hook is said once per position), strictly
//! by `check_shown`, which `meeple check` runs at every decision.

use super::{Game, GameError};
use crate::core::action::{Action, Arg};
use crate::core::rng::splitmix64;
use crate::core::world::World;
use crate::core::zone::Seen;

/// The texts of one position for one viewer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// Each pending option's label: `R.label`'s, or the action as typed.
    pub labels: Vec<String>,
    /// Where each pending option is played: `R.spot`'s place, or else the option's arguments
    /// on a grid or a track and nowhere (a button) on a table.
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
    /// things). Labels and spots are of the pending options, whoever is asked (the rules
    /// place another seat's options only where nothing is hidden from the viewer). Computed once
    /// per position and viewer (a failing hook costs its budget once).
    pub fn shown(&mut self, viewer: Option<usize>) -> Shown {
        if let Some((_, _, kept)) = (self.shown.borrow().as_ref())
            .filter(|(at, seen_by, _)| (*at, *seen_by) == (self.moves, viewer))
        {
            return kept.clone();
        }
        // Where another seat's options are played depends on what it holds, which a viewer
        // the game hides things from only guesses: the rules are not asked (`default_spot`).
        let deciding = self.pending().map(|p| p.seat);
        let place = deciding == viewer || !self.hides_from(viewer);
        let shown = match self.as_seen_by(viewer, |g| g.shown_here(false, place)) {
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
        let seed = splitmix64(SHOWN_SEED ^ self.decisions());
        self.searching(|g, _| {
            g.determinize_for(viewer, seed)?;
            Ok(f(g))
        })
    }

    /// Texts when the position could not be re-dealt (`G` not plain data, say): the actions
    /// as typed, and the problem.
    fn unshown(&self, e: GameError) -> Shown {
        let p = self.pending();
        Shown {
            labels: p.map_or(Vec::new(), |p| {
                p.options().iter().map(|o| o.to_string()).collect()
            }),
            spots: p.map_or(Vec::new(), |p| {
                p.options().iter().map(|o| self.default_spot(o)).collect()
            }),
            status: vec![Vec::new(); self.config.seats],
            problem: Some(first_line(&e)),
            spot_error: None,
        }
    }

    /// The texts of the position as it is. Strict: the first failing hook is the error;
    /// lenient: it is noted once and its hook is not called again for this position.
    fn shown_here(&self, strict: bool, place: bool) -> Result<Shown, GameError> {
        let mut shown = Shown::default();
        let failed = |e: GameError, into: &mut Option<String>| match strict {
            true => Err(e),
            false => {
                into.get_or_insert_with(|| first_line(&e));
                Ok(())
            }
        };
        if let Some(p) = self.pending() {
            // `check` holds R.spot to the items the seat holds (the world read once).
            let world = if strict { Some(self.world()?) } else { None };
            for (i, action) in p.options().iter().enumerate() {
                let label = match shown.problem {
                    Some(_) => Ok(None),
                    None => self.rules.label(i),
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
                    None if !place => Ok(None),
                    None => self.rules.spot(i),
                };
                let spot = match (spot, &world) {
                    (Ok(Some(place)), Some(world)) => {
                        match self.unheld(world, p.seat, action, &place) {
                            Some(problem) => return Err(self.rules.hook_error("spot", problem)),
                            None => Some(place),
                        }
                    }
                    (Ok(spot), _) => spot,
                    (Err(e), _) => {
                        failed(e, &mut shown.spot_error)?;
                        None
                    }
                };
                shown
                    .spots
                    .push(spot.unwrap_or_else(|| self.default_spot(action)));
            }
        }
        // The status hook's own problem: a failing label hook does not hide it.
        let mut status_problem = None;
        let in_play = self.rules.in_play()?;
        for (seat, playing) in in_play.into_iter().enumerate() {
            let lines = match (playing, &status_problem) {
                (true, None) => self.rules.status(seat),
                _ => Ok(Vec::new()),
            };
            let lines = match lines {
                Ok(lines) => lines,
                Err(e) => {
                    failed(e, &mut status_problem)?;
                    Vec::new()
                }
            };
            shown.status.push(lines);
        }
        shown.problem = match (shown.problem, status_problem) {
            (Some(label), Some(status)) => Some(format!("{label}\n{status}")),
            (label, status) => label.or(status),
        };
        Ok(shown)
    }

    /// What is wrong with a place `R.spot` gives `action` of `seat`'s decision that names
    /// items in a per-seat zone (`"hand", 3, 17`) of `world`: the seat must hold them all in
    /// its own pile, a code twice being two copies. Only a pile the seat sees the items of is
    /// checked: a hidden one would tell the seat what it holds.
    pub fn unheld(
        &self,
        world: &World,
        seat: usize,
        action: &Action,
        place: &[Arg],
    ) -> Option<String> {
        let [Arg::Str(zone), codes @ ..] = place else {
            return None;
        };
        let z = (self.pkg.zones.iter()).position(|s| &s.name == zone && s.per_seat)?;
        let items = world.zones.get(z)?.get(seat)?;
        let Seen::Items(held) = self.pkg.zones[z].seen(seat, items, Some(seat)) else {
            return None;
        };
        let codes: Vec<i64> = (codes.iter())
            .filter_map(|c| match c {
                Arg::Int(c) => Some(*c),
                _ => None,
            })
            .collect();
        let missing = crate::core::zone::missing(&held, &codes);
        if missing.is_empty() {
            return None;
        }
        let label = |c: &i64| self.pkg.item_label(*c);
        let labels: Vec<String> = codes.iter().map(label).collect();
        let numbers: Vec<String> = codes.iter().map(i64::to_string).collect();
        let copies = match codes.len() > 1 {
            true => " (a code given twice needs two copies)",
            false => "",
        };
        Some(format!(
            "R.spot places '{action}' on {} (code{} {}) in '{zone}', but P{}'s '{zone}' lacks {}{copies}",
            labels.join(" "),
            if codes.len() > 1 { "s" } else { "" },
            numbers.join(", "),
            seat + 1,
            missing.iter().map(label).collect::<Vec<_>>().join(" ")
        ))
    }

    /// Where an option is played when the rules do not say (`R.spot`): by its arguments on a
    /// grid or a track; nowhere on a table, where a number may be anything, not only an item.
    fn default_spot(&self, action: &Action) -> Vec<Arg> {
        let map = self.board();
        match map.is_ok_and(|m| m.kind == "table") {
            true => Vec::new(),
            false => action.args.clone(),
        }
    }

    /// Runs what the rules only show, strictly, as the seat asked sees it: `R.label` and
    /// `R.spot` for every option of the pending decision and `R.status` for every seat in
    /// play; the first that fails, or returns something other than text, is the error.
    pub fn check_shown(&mut self) -> Result<(), GameError> {
        let seat = self.pending().map(|p| p.seat);
        self.as_seen_by(seat, |g| g.shown_here(true, true))?
            .map(|_| ())
    }

    /// Why `seat` may not play `action` here, computed on what `seat` may know: the rules'
    /// `why_not(G, ctx, action, seat)` if it gives a reason, else the options there are (the
    /// first ten); a failing hook is shown with its file and line.
    pub fn why_not(&mut self, seat: usize, action: &Action) -> String {
        match self.reason(seat, action) {
            Ok(Some(reason)) => {
                let shown = self.pkg.items.shown(action);
                format!("'{shown}' is not allowed: {reason}")
            }
            Ok(None) => self.not_an_option(seat, action),
            Err(e) => format!(
                "{} (R.why_not failed: {})",
                self.not_an_option(seat, action),
                first_line(&e)
            ),
        }
    }

    fn not_an_option(&self, seat: usize, action: &Action) -> String {
        let options = self.pending().map_or(&[][..], |p| p.options());
        let shown = |a: &Action| self.pkg.items.shown(a);
        let mut listed: Vec<String> = (options.iter().take(10))
            .map(|o| format!("'{}'", shown(o)))
            .collect();
        if options.len() > 10 {
            listed.push(format!("… {} more", options.len() - 10));
        }
        format!(
            "'{}' is not a legal option for P{} in state '{}' (options: {})",
            shown(action),
            seat + 1,
            self.state_name(),
            listed.join(", ")
        )
    }

    /// The rules' `why_not` answer for `seat`'s `action` on what `seat` may know, if the hook
    /// exists and gives one. Its items are named as the options name them (`Items::named`).
    pub fn reason(&mut self, seat: usize, action: &Action) -> Result<Option<String>, GameError> {
        let action = self.pkg.items.named(action);
        self.as_seen_by(Some(seat), |g| g.rules.why_not(seat, &action))?
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
