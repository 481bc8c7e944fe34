//! Snapshots (the unit of save, undo, redo and search) restored exactly and checked first, the
//! undo and redo stacks (with what each decision showed each seat), marks a search returns to,
//! and setting the history aside while a search plays ahead.

use super::{Game, GameError, Snapshot};
use crate::core::rules::MarkId;
use crate::core::world::Shape;
use crate::core::zone::ZoneState;

/// One step `undo` can take back: the position before a decision, the history's and the
/// event log's lengths then, and which seats saw an item they could not see before it (a
/// draw, a deal, a tile played from a concealed hand), something no undo makes them forget.
pub(super) struct Undo {
    snap: Snapshot,
    len: usize,
    events: usize,
    taught: Vec<bool>,
}

impl Game {
    /// Keeps the position before a decision for `undo` (when undo is kept).
    pub(super) fn keep_for_undo(&mut self) -> Result<(), GameError> {
        if self.undo.is_none() {
            return Ok(());
        }
        // The log is counted, not copied: it is moved out and back.
        let log = self.rules.drain_events();
        let events = log.len();
        self.rules.put_events(log);
        let undo = Undo {
            snap: self.snapshot()?,
            len: self.history.len(),
            events,
            taught: Vec::new(),
        };
        if let Some(u) = &mut self.undo {
            u.push(undo);
        }
        Ok(())
    }
}

/// A position a search returns to many times, with the decision it waits for (the options
/// listed then, not listed again).
pub struct Mark(MarkId);

impl Game {
    /// Runs `f` with a mark of the current position to come back to (`back_to`) as often as
    /// it likes. The mark is freed when `f` returns, whatever it returns: a search that marks
    /// every node it visits holds only the marks of the line it is on.
    pub fn marked<R>(
        &mut self,
        f: impl FnOnce(&mut Game, &Mark) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        let mark = Mark(self.rules.mark()?);
        let result = f(self, &mark);
        self.rules.forget(mark.0);
        result
    }

    /// How many marks are held now (none once every search is done).
    pub fn marks_held(&self) -> usize {
        self.rules.marks_held()
    }

    /// Puts the game back where `mark` was taken, waiting for the same decision.
    pub fn back_to(&mut self, mark: &Mark) -> Result<(), GameError> {
        self.moves += 1;
        self.rules.back_to(mark.0)
    }

    /// Puts the game back exactly where `snap` was taken and asks its pending decision. A
    /// snapshot that does not fit this game (`check_snapshot`) is refused, changing nothing.
    pub fn restore(&mut self, snap: &Snapshot) -> Result<(), GameError> {
        if let Some(problem) = self.check_snapshot(snap).into_iter().next() {
            return Err(GameError::Rejected(format!(
                "the snapshot does not fit: {problem}"
            )));
        }
        self.moves += 1;
        self.rules.restore(snap)
    }

    /// Every way `snap` does not fit this game's package, map and settings, each naming its
    /// field (`world.counters[0] holds 3, not 2 (one per seat)`).
    pub fn check_snapshot(&self, snap: &Snapshot) -> Vec<String> {
        let mut problems = snap.world.check(&self.shape());
        if self.pkg.flow.index(&snap.state).is_none() {
            let names: Vec<&str> = self
                .pkg
                .flow
                .states
                .iter()
                .map(|s| s.name.as_str())
                .collect();
            problems.insert(
                0,
                format!(
                    "state: '{}' is not a state of the flow ({})",
                    snap.state,
                    names.join(", ")
                ),
            );
        }
        problems
    }

    /// The ids this game's world is indexed by (a save keeps them).
    pub fn layout(&self) -> Option<crate::def::board::Layout> {
        let board = self.board().ok()?;
        Some(crate::def::board::Layout::of(&self.pkg, board))
    }

    /// The sizes a world of this game has.
    pub fn shape(&self) -> Shape {
        let board = self.board().ok();
        Shape {
            seats: self.config.seats,
            counters: self.pkg.counters.len(),
            spaces: board.map_or(0, |b| b.spaces.len()),
            decks: board.map_or(Vec::new(), |b| {
                b.decks.iter().map(|d| d.cards.len()).collect()
            }),
            zones: (self.pkg.zones.iter())
                .map(|z| z.piles(self.config.seats))
                .collect(),
            items: self.pkg.items.names.len(),
            grid: board.and_then(|b| b.grid_size(&self.settings).ok().flatten()),
        }
    }

    /// Steps back one decision, which `redo` can bring back; false when there is nothing to
    /// undo. When the position cannot be saved for `redo`, nothing changes.
    pub fn undo(&mut self) -> Result<bool, GameError> {
        if self.undo.as_ref().is_none_or(|u| u.is_empty()) {
            return Ok(false);
        }
        let now = self.snapshot()?;
        let history = self.history.clone();
        self.take_back()?;
        self.redo.push((now, history));
        Ok(true)
    }

    /// Takes the last decision back for good, with the lines it logged, leaving redo as it
    /// is: a move that failed, or whose position cannot be saved. False when undo is not kept
    /// or there is nothing to take back.
    pub fn take_back(&mut self) -> Result<bool, GameError> {
        let Some(Undo {
            snap, len, events, ..
        }) = self.undo.as_mut().and_then(|u| u.pop())
        else {
            return Ok(false);
        };
        self.restore(&snap)?;
        self.history.truncate(len);
        let mut log = self.rules.drain_events();
        log.truncate(events);
        self.rules.put_events(log);
        Ok(true)
    }

    /// The seats the last decision `undo` would take back showed something they could not
    /// see before (empty when there is nothing to undo, or in a game whose manifest lets undo
    /// pass over such decisions: `undo_past_reveals = true`).
    pub fn undo_would_unteach(&self) -> Vec<usize> {
        let last = self.undo.as_ref().and_then(|u| u.last());
        let taught = last.map_or(&[][..], |u| &u.taught);
        match self.pkg.undo_past_reveals {
            true => Vec::new(),
            false => (0..taught.len()).filter(|s| taught[*s]).collect(),
        }
    }

    /// Writes down, on the decision just applied, which seats it showed something new.
    pub(super) fn note_what_was_learned(&mut self) {
        let Some(before) = self.undo.as_ref().and_then(|u| u.last()) else {
            return;
        };
        if self.pkg.zones.is_empty() {
            return;
        }
        let Ok(after) = self.world() else {
            return;
        };
        let seats = before.snap.world.seats;
        let taught: Vec<bool> = (0..seats)
            .map(|s| self.learned(s, &before.snap.world.zones, &after.zones))
            .collect();
        if let Some(last) = self.undo.as_mut().and_then(|u| u.last_mut()) {
            last.taught = taught;
        }
    }

    /// Whether `seat` sees an item now that it did not see in `before` and that was then in
    /// a pile hidden from it (counting copies). An item that was nowhere before (a die's face
    /// the rules add to a public pile) was made, not revealed: undo plays it again alike.
    fn learned(&self, seat: usize, before: &ZoneState, after: &ZoneState) -> bool {
        let items = |zones: &ZoneState, seen: bool| {
            let mut items: Vec<i64> = (self.pkg.zones.iter().zip(zones))
                .flat_map(|(spec, piles)| {
                    (piles.iter().enumerate()).flat_map(move |(p, items)| {
                        let unseen = spec.unseen(p, items.len(), Some(seat));
                        items[if seen { unseen } else { 0 }..].iter().copied()
                    })
                })
                .collect();
            items.sort_unstable();
            items
        };
        let was_seen = items(before, true);
        let hidden = minus(&items(before, false), &was_seen);
        let new = minus(&items(after, true), &was_seen);
        minus(&new, &hidden).len() < new.len()
    }

    /// Replays the last undone decision; false when there is nothing to redo (a new decision
    /// after an undo clears what could be redone).
    pub fn redo(&mut self) -> Result<bool, GameError> {
        let Some((snap, history)) = self.redo.pop() else {
            return Ok(false);
        };
        self.keep_for_undo()?;
        self.restore(&snap)?;
        self.history = history;
        self.note_what_was_learned();
        Ok(true)
    }

    /// Runs `f`, a search that plays ahead from the position, with the event log, history and
    /// undo/redo set aside, so nothing it plays is recorded; `f` gets the position's mark to
    /// return to between its tries, and the position is put back when it is done (or fails).
    pub fn searching<R>(
        &mut self,
        f: impl FnOnce(&mut Game, &Mark) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        let events = self.rules.drain_events();
        let record = self.rules.recording();
        self.rules.set_recording(false);
        let history = std::mem::take(&mut self.history);
        let undo = self.undo.take();
        let redo = std::mem::take(&mut self.redo);
        let result = self.marked(|g, root| {
            let found = f(g, root);
            let back = g.back_to(root);
            found.and_then(|r| back.map(|_| r))
        });
        self.rules.set_recording(record);
        self.rules.put_events(events);
        self.history = history;
        self.undo = undo;
        self.redo = redo;
        result
    }
}

/// The sorted multiset `a` less the sorted multiset `b` (a copy in `b` takes one copy away).
fn minus(a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut b = b.iter().peekable();
    (a.iter())
        .filter(|x| {
            while b.next_if(|y| *y < *x).is_some() {}
            b.next_if(|y| *y == *x).is_none()
        })
        .copied()
        .collect()
}
