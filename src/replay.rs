//! Records of play: the game, its file hash, the config, who sat where, every decision with the
//! state hash after it, and (in a save file) the snapshot to resume from with the ids it is
//! indexed by and the last lines of its log. Re-running a record reproduces every state or reports the first divergence. A
//! record read from a file is checked against itself and against the game before it is used,
//! each problem a diagnostic naming the field. Files are written atomically and synced.

use crate::core::action::Action;
use crate::core::grid::GridState;
use crate::def::board::Layout;
use crate::def::Package;
use crate::diag::Diagnostic;
use crate::engine::{Game, GameConfig, GameError, Snapshot};
use crate::reload::remap::{remap_world, Versions};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordStep {
    pub seat: usize,
    pub action: Action,
    /// State hash after the action.
    pub hash: String,
    /// The public lines of the log the step wrote, to say in words how a replay differs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
}

/// The lines of `events` everyone is shown, choices aside: what a record keeps of a step's
/// log, and what a replay or a reload report compares.
pub fn public_lines(events: &[crate::core::event::Event]) -> Vec<String> {
    (events.iter())
        .filter(|e| !matches!(e, crate::core::event::Event::Action { .. }))
        .filter(|e| e.seen_by(None))
        .map(|e| e.to_string())
        .collect()
}

/// The first line where `was` and `now` differ, as `'was line', now 'now line'`.
fn lines_apart(was: &[String], now: &[String]) -> Option<String> {
    if was == now {
        return None;
    }
    let k = was.iter().zip(now).take_while(|(x, y)| x == y).count();
    let said = |l: Option<&String>| l.map_or("nothing more".to_string(), |l| format!("'{l}'"));
    Some(format!("{}, now {}", said(was.get(k)), said(now.get(k))))
}

/// A live reload: after which step, and the content hash of the files from then on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReloadMark {
    pub after_step: usize,
    pub files_hash: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub format: u32,
    pub game: String,
    /// The game folder it was played from (absolute), tried before looking the id up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_dir: Option<String>,
    pub version: String,
    pub files_hash: String,
    pub config: GameConfig,
    /// Who sat in each seat (`human`, `ai`, …).
    pub players: Vec<String>,
    pub start_hash: String,
    pub steps: Vec<RecordStep>,
    /// Where the rules were edited live (`meeple play` watching the files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reloads: Vec<ReloadMark>,
    /// After which steps the position was changed by hand (`meeple console` entries): the
    /// steps replay up to the first, and a save goes on from its snapshot.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<usize>,
    /// Present in save files: where to resume.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<Snapshot>,
    /// In save files: the ids the snapshot's world is indexed by (spaces, cards, counters,
    /// zones), so that it can follow a map or manifest edited since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// In save files of grid games: the cell filled last (0-based row and column), the last
    /// move the window marks, which is not part of the snapshot's position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filled: Option<(usize, usize)>,
    /// In save files: the last lines of the log (`BACKLOG` at most), which a game resumed from
    /// its snapshot shows again (its steps may not replay: the rules changed since).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backlog: Vec<crate::core::event::Event>,
}

/// How many lines of its log a save keeps, and a resumed game shows.
pub const BACKLOG: usize = 12;

/// What a file that is no record is told.
const NOT_A_RECORD: &str = "not a replay or save file (meeple writes them as JSON: play --record \
                            FILE, or save FILE at the prompt)";

/// A record from its JSON text, or what is wrong and where (line, column): a syntax error,
/// or the field that is missing or holds the wrong kind of value, by its path.
fn read_json(text: &str) -> Result<Record, (String, usize, usize)> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let (path, inner) = (e.path().to_string(), e.inner());
        let what = inner.to_string();
        let what = what.split(" at line ").next().unwrap_or(&what).to_string();
        let msg = match inner.classify() {
            serde_json::error::Category::Data if path != "." => {
                format!("not a record meeple can read: {path}: {what}")
            }
            serde_json::error::Category::Data => format!("not a record meeple can read: {what}"),
            _ => what,
        };
        (msg, inner.line(), inner.column())
    })
}

impl Record {
    pub fn new(game: &Game, players: Vec<String>, start_hash: String) -> Record {
        Record {
            format: FORMAT,
            game: game.pkg.id.clone(),
            game_dir: folder_of(&game.pkg.root),
            version: game.pkg.version.clone(),
            files_hash: game.pkg.files_hash.clone(),
            config: game.config.clone(),
            players,
            start_hash,
            steps: Vec::new(),
            reloads: Vec::new(),
            edits: Vec::new(),
            snapshot: None,
            layout: None,
            filled: None,
            backlog: Vec::new(),
        }
    }

    /// Writes to `path` atomically: to a temporary file beside it (the target's name with a
    /// suffix no other file has), synced, renamed over it, then the folder synced. The error
    /// says why `path` could not be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        write_atomically(path, text.as_bytes()).map_err(|e| format!("cannot write: {e}"))
    }

    pub fn load(path: &Path) -> Result<Record, Diagnostic> {
        let shown = path.display().to_string();
        let text = crate::def::source::read_text(path, &shown)?;
        if !text.trim_start().starts_with('{') {
            return Err(Diagnostic::error(&shown, NOT_A_RECORD));
        }
        let record: Record = read_json(&text)
            .map_err(|(msg, line, col)| Diagnostic::error(&shown, msg).at(line, col.max(1)))?;
        if record.format != FORMAT {
            let msg = format!(
                "unsupported record format {} (this meeple reads {FORMAT})",
                record.format
            );
            return Err(Diagnostic::error(&shown, msg));
        }
        Ok(record)
    }

    /// The content hash of the game's files the record's last steps were played under: those
    /// of its last live reload, else those it began with.
    pub fn files_at_end(&self) -> &str {
        self.reloads
            .last()
            .map_or(&self.files_hash, |r| &r.files_hash)
    }

    /// Notes that the steps from now on are played under the files `files_hash` (a live reload,
    /// or a saved game resumed after its files changed), so that a replay stops here.
    pub fn rules_changed_to(&mut self, files_hash: String) {
        self.reloads.push(ReloadMark {
            after_step: self.steps.len(),
            files_hash,
        });
    }

    /// Notes that the game is played from `root` from now on (a record resumed from a folder
    /// that moved), so that its later saves find it there.
    pub fn moved_to(&mut self, root: &Path) {
        self.game_dir = folder_of(root);
    }

    /// Where to find the game: the folder it was played from if it still exists, else its id.
    pub fn game_location(&self) -> String {
        match (&self.game_dir, self.game_dir_gone()) {
            (Some(dir), None) => dir.clone(),
            _ => self.game.clone(),
        }
    }

    /// The folder the game was played from, when the record names one that no longer holds it.
    pub fn game_dir_gone(&self) -> Option<&str> {
        (self.game_dir.as_deref()).filter(|dir| !Path::new(dir).join("game.toml").is_file())
    }
}

/// `bytes` into `path` through a fresh temporary file in the same folder, so that a crash
/// leaves either the old file or the new one, never a part.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.ok_or_else(|| std::io::Error::other("not a file name"))?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = folder.join(format!(".{name}.{}-{nanos}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(&folder)?.sync_all()
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A game folder as a record keeps it: absolute.
fn folder_of(root: &Path) -> Option<String> {
    root.canonicalize().ok().map(|p| p.display().to_string())
}

impl Record {
    /// Every way the record does not hold together, or is not a record of `pkg`, each naming
    /// its field; `shown` is the file as the diagnostics name it.
    pub fn check(&self, pkg: &Package, shown: &str) -> Vec<Diagnostic> {
        let mut problems = Vec::new();
        if self.game != pkg.id {
            problems.push(format!(
                "game: this is a record of game '{}', not of '{}' (the game in {})",
                self.game, pkg.id, pkg.shown
            ));
        }
        let seats = self.config.seats;
        if self.players.len() != seats {
            problems.push(format!(
                "players: {} for the {seats} seats of config.seats",
                crate::diag::plural(self.players.len(), "name")
            ));
        }
        for (i, player) in self.players.iter().enumerate() {
            if let Err(e) = crate::ai::Seat::parse(player) {
                problems.push(format!("players[{i}]: {e}"));
            }
        }
        for (i, step) in self.steps.iter().enumerate() {
            if step.seat >= seats {
                problems.push(format!(
                    "steps[{i}].seat: seat index {}, but the game has {seats} seats",
                    step.seat
                ));
            }
        }
        let mut last = 0;
        for (i, r) in self.reloads.iter().enumerate() {
            if r.after_step < last || r.after_step > self.steps.len() {
                problems.push(format!(
                    "reloads[{i}].after_step: {} is not between {last} and the {} steps",
                    r.after_step,
                    self.steps.len()
                ));
            }
            last = r.after_step;
        }
        let mut last = 0;
        for (i, e) in self.edits.iter().enumerate() {
            if *e < last || *e > self.steps.len() {
                problems.push(format!(
                    "edits[{i}]: {e} is not between {last} and the {} steps",
                    self.steps.len()
                ));
            }
            last = *e;
        }
        if !self.edits.is_empty() && self.snapshot.is_none() {
            problems.push(
                "edits: the position was edited by hand, so it can only go on from its snapshot, which is missing".into(),
            );
        }
        if let Some(snap) = &self.snapshot {
            if snap.world.seats != seats {
                problems.push(format!(
                    "snapshot.world.seats: {}, but config.seats is {seats}",
                    snap.world.seats
                ));
            }
        }
        problems
            .into_iter()
            .map(|m| Diagnostic::error(shown, m))
            .collect()
    }
}

/// The game `record` ends in, on `pkg`'s files: its snapshot (a save file) or its steps played
/// out (a replay). A save under unchanged files must replay to its snapshot; under changed
/// files its world is matched onto them by id (as a live reload does) and must then fit.
/// Every problem is a diagnostic on `shown` naming the field, or on the game file that no
/// longer fits.
pub fn resume(pkg: Arc<Package>, record: &Record, shown: &str) -> Result<Game, Vec<Diagnostic>> {
    let problems = record.check(&pkg, shown);
    if !problems.is_empty() {
        return Err(problems);
    }
    let config_flags = ["--map", "--players", "--set"];
    let mut game = Game::new(pkg, record.config.clone()).map_err(|d| {
        (d.into_iter())
            .map(|mut d| {
                if config_flags.contains(&d.path.as_str()) {
                    d.path = shown.to_string();
                }
                d
            })
            .collect::<Vec<_>>()
    })?;
    let at = |what: String| vec![Diagnostic::error(shown, what)];
    let Some(snap) = &record.snapshot else {
        for (i, step) in record.steps.iter().enumerate() {
            (game.apply(step.seat, &step.action)).map_err(|e| at(format!("steps[{i}]: {e}")))?;
        }
        return Ok(game);
    };
    match fitted(&game, record, snap, shown)? {
        Fitted::Replayed(replayed) => Ok(replayed),
        Fitted::Snapshot(snap) => {
            game.restore(&snap)
                .map_err(|e| at(format!("snapshot: {e}")))?;
            // The fresh start's log is not this game's: the save's own last lines are.
            game.drain_events();
            game.put_events(record.backlog.clone());
            Ok(game)
        }
    }
}

/// A saved game as it goes on.
enum Fitted {
    /// Its steps replayed under the files it was played with: the game with its log.
    Replayed(Game),
    /// Its snapshot, matched onto the files as they are now.
    Snapshot(Snapshot),
}

/// The saved game `snap` as it can go on in `game`: matched onto the files as they are now
/// when they changed since it was saved and checked to fit; under the files it was played
/// with, its steps replayed, and checked to lead to it.
fn fitted(
    game: &Game,
    record: &Record,
    snap: &Snapshot,
    shown: &str,
) -> Result<Fitted, Vec<Diagnostic>> {
    let at = |what: String| Diagnostic::error(shown, what);
    let same_files = record.files_at_end() == game.pkg.files_hash;
    let mut snap = snap.clone();
    if let (false, Some(old)) = (same_files, &record.layout) {
        let board = game.board().map_err(|e| vec![at(e)])?;
        let versions = Versions {
            old,
            new_pkg: &game.pkg,
            new_board: board,
            new_settings: &game.settings,
        };
        snap.world = remap_world(&snap.world, &snap.state, &versions)?;
    }
    let problems = game.check_snapshot(&snap);
    if !problems.is_empty() {
        let mut diags: Vec<Diagnostic> = (problems.into_iter())
            .map(|p| at(format!("snapshot.{p}")))
            .collect();
        if !same_files && record.layout.is_none() {
            diags.push(at(
                "the game's files changed since this save, which keeps no ids to follow them by (it is older than this meeple): resume it under the files it was made with".into(),
            ));
        }
        return Err(diags);
    }
    if same_files && record.reloads.is_empty() && record.edits.is_empty() {
        let (v, replayed) = rerun(game.pkg.clone(), record, None, true)?;
        if let Some(d) = v.divergence {
            return Err(vec![at(format!(
                "steps: {d}; the save does not hold together (edited or damaged?)"
            ))]);
        }
        let end = record.steps.last().map_or(&record.start_hash, |s| &s.hash);
        if snap.hash() != *end {
            return Err(vec![at(
                "snapshot: it is not the position its steps lead to (edited or damaged?)".into(),
            )]);
        }
        return Ok(Fitted::Replayed(replayed));
    }
    Ok(Fitted::Snapshot(snap))
}

/// The outcome of re-running a record.
#[derive(Debug, PartialEq)]
pub struct Verified {
    pub steps: usize,
    /// Set when the game's files changed since the record was made.
    pub files_changed: bool,
    pub divergence: Option<String>,
    /// Verification stopped here: later steps ran under rules edited live.
    pub stopped_at: Option<ReloadMark>,
    /// Verification stopped here instead: after this step the position was edited by hand.
    pub edited_at: Option<usize>,
}

/// Re-runs `record` on `pkg` up to its first live reload or edit by hand, and compares every
/// state hash.
pub fn verify(pkg: Arc<Package>, record: &Record) -> Result<Verified, Vec<Diagnostic>> {
    let reload = record.reloads.first();
    let edit = (record.edits.first().copied()).filter(|e| reload.is_none_or(|r| *e < r.after_step));
    let limit = edit.or(reload.map(|r| r.after_step));
    let (mut v, _) = rerun(pkg, record, limit, false)?;
    if v.divergence.is_none() {
        v.edited_at = edit;
        v.stopped_at = reload.cloned().filter(|_| edit.is_none());
    }
    Ok(v)
}

/// How the game `record` holds would go under the rules of `new` rather than `old`, in words:
/// the record is played under both side by side, and the first step whose log, or whose
/// position after it, differs is said (`step 12 (P2: roll): 'P2 pays ¥40 rent to P1', now
/// 'P2 pays ¥60 rent to P1'`), as is a step that is no longer legal or now fails. `None` when
/// every step goes as before. Steps after a position edited by hand are not compared.
pub fn differences(old: Arc<Package>, new: Arc<Package>, record: &Record) -> Option<String> {
    let secret = new.hides_piles();
    let game = |pkg: Arc<Package>| Game::new(pkg, record.config.clone());
    let (mut was, mut now) = match (game(old), game(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (_, Err(d)) => return Some(format!("it would not start: {}", crate::diag::render(&d))),
        (Err(_), Ok(_)) => return None,
    };
    if let Some(d) = position_difference(&was, &now, secret) {
        return Some(format!("at the start, {d}"));
    }
    was.drain_events();
    now.drain_events();
    let edited = record.edits.first().copied().unwrap_or(usize::MAX);
    for (i, step) in record.steps.iter().take(edited).enumerate() {
        // Where hands are hidden a move may be secret (a pass of three cards): only its seat.
        let who = match secret {
            true => format!("step {} (P{}'s move)", i + 1, step.seat + 1),
            false => format!("step {} (P{}: {})", i + 1, step.seat + 1, step.action),
        };
        if was.apply(step.seat, &step.action).is_err() {
            return None; // the old rules did not go on either
        }
        match now.apply(step.seat, &step.action) {
            Err(GameError::Rejected(_)) if secret => {
                return Some(format!("{who} is no longer legal"))
            }
            Err(GameError::Rejected(r)) => return Some(format!("{who} is no longer legal: {r}")),
            Err(GameError::Script(e)) => return Some(format!("{who} now fails: {e}")),
            Ok(()) => {}
        }
        // The public lines: the report is shown to whoever plays, so it quotes no told line.
        let (a, b) = (
            public_lines(&was.drain_events()),
            public_lines(&now.drain_events()),
        );
        if let Some(d) = lines_apart(&a, &b) {
            return Some(format!("{who}: {d}"));
        }
        if let Some(d) = position_difference(&was, &now, secret) {
            return Some(format!("after {who}, {d}"));
        }
    }
    None
}

/// The first thing a player would see differ between two positions of one game, in words
/// (the state, whose turn it is, a counter, the board's size, a token, an owner or level, a
/// pile's size), or `None` when they are the same; `secret`: the game hides piles (see
/// `differences`).
fn position_difference(was: &Game, now: &Game, secret: bool) -> Option<String> {
    let (a, b) = (was.snapshot().ok()?, now.snapshot().ok()?);
    if a.hash() == b.hash() {
        return None;
    }
    let (wa, wb) = (&a.world, &b.world);
    if a.state != b.state {
        return Some(format!(
            "the game was in state '{}', now '{}'",
            a.state, b.state
        ));
    }
    if wa.current != wb.current {
        return Some(format!(
            "it was P{}'s turn, now P{}'s",
            wa.current + 1,
            wb.current + 1
        ));
    }
    let names = &now.pkg.counters;
    for (c, name) in names.iter().enumerate() {
        let (x, y) = (wa.counters.get(c)?, wb.counters.get(c)?);
        if let Some(p) = (0..x.len().min(y.len())).find(|p| x[*p] != y[*p]) {
            return Some(format!("P{}'s {name} was {}, now {}", p + 1, x[p], y[p]));
        }
    }
    let board = now.board().ok()?;
    let space = |i: usize| {
        board
            .spaces
            .get(i)
            .map_or(i.to_string(), |s| s.name.clone())
    };
    let (ba, bb) = (&wa.board, &wb.board);
    if ba.owners.len() != bb.owners.len() {
        let had = crate::diag::plural(ba.owners.len(), "space");
        return Some(format!("the board had {had}, now {}", bb.owners.len()));
    }
    if let Some(p) =
        (0..ba.tokens.len().min(bb.tokens.len())).find(|p| ba.tokens[*p] != bb.tokens[*p])
    {
        return Some(format!(
            "P{} stood on {}, now on {}",
            p + 1,
            space(ba.tokens[p]),
            space(bb.tokens[p])
        ));
    }
    let whose = |o: Option<usize>| o.map_or("nobody's".to_string(), |p| format!("P{}'s", p + 1));
    if let Some(i) =
        (0..ba.owners.len().min(bb.owners.len())).find(|i| ba.owners[*i] != bb.owners[*i])
    {
        return Some(format!(
            "{} was {}, now {}",
            space(i),
            whose(ba.owners[i]),
            whose(bb.owners[i])
        ));
    }
    if let Some(i) =
        (0..ba.levels.len().min(bb.levels.len())).find(|i| ba.levels[*i] != bb.levels[*i])
    {
        return Some(format!(
            "{} was at level {}, now {}",
            space(i),
            ba.levels[i],
            bb.levels[i]
        ));
    }
    for (z, spec) in now.pkg.zones.iter().enumerate() {
        let (pa, pb) = (wa.zones.get(z)?, wb.zones.get(z)?);
        for p in 0..pa.len().min(pb.len()) {
            let pile = match spec.per_seat {
                true => format!("P{}'s {}", p + 1, spec.name),
                false => spec.name.clone(),
            };
            if pa[p].len() != pb[p].len() {
                return Some(format!(
                    "{pile} held {} items, now {}",
                    pa[p].len(),
                    pb[p].len()
                ));
            }
        }
    }
    if wa.outcome != wb.outcome {
        let said = |o: &Option<crate::core::event::Outcome>| {
            o.as_ref().map_or("going on".to_string(), |o| o.to_string())
        };
        return Some(format!(
            "the game was {}, now {}",
            said(&wa.outcome),
            said(&wb.outcome)
        ));
    }
    if let Some((path, was, now)) = first_difference("G", &a.g, &b.g) {
        // Where hands are hidden (`secret`), G may hold what a seat cannot see: its path only.
        return Some(match secret {
            true => format!("{path} differs"),
            false => format!("{path} was {was}, now {now}"),
        });
    }
    if let (Some(ga), Some(gb)) = (&wa.grid, &wb.grid) {
        let stone = |v: u8| match v {
            0 => "empty".to_string(),
            p => format!("P{p}'s stone"),
        };
        let cells = ga.cells.iter().zip(&gb.cells);
        if let Some((i, (x, y))) = cells.enumerate().find(|(_, (x, y))| x != y) {
            let (r, c) = (i / ga.cols + 1, i % ga.cols + 1);
            return Some(format!(
                "cell ({r}, {c}) held {}, now {}",
                stone(*x),
                stone(*y)
            ));
        }
        let marked = |g: &GridState, i: usize| g.level(i / g.cols, i % g.cols);
        if let Some(i) = (0..ga.cells.len()).find(|i| marked(ga, *i) != marked(gb, *i)) {
            let (r, c) = (i / ga.cols + 1, i % ga.cols + 1);
            let (x, y) = (marked(ga, i), marked(gb, i));
            return Some(format!("the stone on ({r}, {c}) was marked {x}, now {y}"));
        }
    }
    Some("the position differs (a pile's order, a deck, the generator or a tally)".into())
}

/// The first place where JSON values `a` and `b` differ, by key in order (keys missing on one
/// side count as null): its path from `path` (`G.players[2].cash`) and both values there.
fn first_difference(path: &str, a: &Value, b: &Value) -> Option<(String, String, String)> {
    const NULL: Value = Value::Null;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let (va, vb) = (x.get(k).unwrap_or(&NULL), y.get(k).unwrap_or(&NULL));
                first_difference(&format!("{path}.{k}"), va, vb)
            })
        }
        (Value::Array(x), Value::Array(y)) => (x.iter().zip(y))
            .enumerate()
            .find_map(|(i, (va, vb))| first_difference(&format!("{path}[{}]", i + 1), va, vb))
            .or_else(|| {
                let items = |n: usize| crate::diag::plural(n, "item");
                let (was, now) = (items(x.len()), items(y.len()));
                (x.len() != y.len()).then(|| (format!("#{path}"), was, now))
            }),
        _ if a == b => None,
        _ => Some((path.to_string(), short(a), short(b))),
    }
}

/// A JSON value as a message quotes it: at most 40 characters.
fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Re-runs `record`'s steps (the first `limit`) on a fresh game of `pkg`, logging its events
/// when `log`, and compares every state hash: the outcome, and the game where it stopped.
fn rerun(
    pkg: Arc<Package>,
    record: &Record,
    limit: Option<usize>,
    log: bool,
) -> Result<(Verified, Game), Vec<Diagnostic>> {
    let files_changed = pkg.files_hash != record.files_hash;
    let mut game = Game::new(pkg, record.config.clone())?;
    // A record that kept its steps' lines is compared with them when a step differs (each
    // step's lines are taken as it is played, so only where the game's log is not kept).
    let compare = !log && record.steps.iter().any(|s| !s.log.is_empty());
    game.set_record_events(log || compare);
    game.drain_events();
    let mut verified = Verified {
        steps: 0,
        files_changed,
        divergence: None,
        stopped_at: None,
        edited_at: None,
    };
    let start = game.snapshot().map(|s| s.hash()).unwrap_or_default();
    if start != record.start_hash {
        verified.divergence = Some(format!(
            "it would start differently (a setting, the map, the setup or the flow's states changed; start state \
             recorded {}, now {start})",
            record.start_hash
        ));
        return Ok((verified, game));
    }
    for (i, step) in record
        .steps
        .iter()
        .take(limit.unwrap_or(usize::MAX))
        .enumerate()
    {
        let n = i + 1;
        let problem = match game.apply(step.seat, &step.action) {
            Err(GameError::Rejected(r)) => Some(format!(
                "step {n}: P{} '{}' is no longer legal: {r}",
                step.seat + 1,
                step.action
            )),
            Err(GameError::Script(e)) => Some(format!(
                "step {n}: P{} '{}' fails: {e}",
                step.seat + 1,
                step.action
            )),
            Ok(()) => {
                let lines = compare.then(|| public_lines(&game.drain_events()));
                match game.snapshot() {
                    Ok(s) if s.hash() == step.hash => None,
                    Ok(s) => {
                        let who = format!("step {n} (P{}: {})", step.seat + 1, step.action);
                        let hashes = format!("recorded {}, now {}", step.hash, s.hash());
                        Some(match lines.map(|l| lines_apart(&step.log, &l)) {
                            Some(Some(d)) => format!("{who}: {d}"),
                            Some(None) => format!(
                                "{who} writes the same log but leaves another position ({hashes})"
                            ),
                            None => format!(
                                "step {n}: P{} '{}' leads to a different state ({hashes})",
                                step.seat + 1,
                                step.action
                            ),
                        })
                    }
                    Err(e) => Some(format!("step {n}: {e}")),
                }
            }
        };
        if problem.is_some() {
            verified.divergence = problem;
            return Ok((verified, game));
        }
        verified.steps = n;
    }
    Ok((verified, game))
}

#[cfg(test)]
mod tests {
    use super::first_difference;
    use serde_json::json;

    #[test]
    fn the_first_difference_in_g_is_named_by_its_path() {
        let at = |a, b| first_difference("G", &a, &b);
        let said = |p: &str, a: &str, b: &str| Some((p.into(), a.into(), b.into()));
        assert_eq!(at(json!({"a": 1}), json!({"a": 1})), None);
        assert_eq!(
            at(json!({"moves": 0}), json!({"moves": 10})),
            said("G.moves", "0", "10")
        );
        let (a, b) = (
            json!({"p": [{"cash": 5}, {"cash": 7}]}),
            json!({"p": [{"cash": 5}, {"cash": 9}]}),
        );
        assert_eq!(at(a, b), said("G.p[2].cash", "7", "9"));
        assert_eq!(
            at(json!({"a": 1}), json!({"a": 1, "b": true})),
            said("G.b", "null", "true")
        );
        assert_eq!(
            at(json!({"l": [1]}), json!({"l": [1, 2]})),
            said("#G.l", "1 item", "2 items")
        );
        assert_eq!(
            at(json!({"l": [1, 3]}), json!({"l": [2]})),
            said("G.l[1]", "1", "2")
        );
        let long = json!({"s": "x".repeat(50)});
        let (path, was, now) = at(json!({}), long).unwrap();
        assert_eq!((path.as_str(), was.as_str()), ("G.s", "null"));
        assert_eq!(now, format!("\"{}…", "x".repeat(39)));
    }
}
