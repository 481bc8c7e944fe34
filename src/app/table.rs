//! The window's game table: the play session (the same one the terminal drives: same
//! `apply`, bots, saves and records), the look, animations, messages, the reload overlay and
//! the bot panel; and what clicks, keys, bot answers and file edits do to it.

use super::anim::Anim;
use super::layout::{Layout, Rect};
use super::paint::Painter;
use super::scene::Scene;
use super::view::{self, action_for, BoardKind, Spot};
use super::worker::{Question, Thought, Worker};
use crate::ai::Seat;
use crate::cli::play::{self, Session};
use crate::core::event::Event;
use crate::def::board::Board;
use crate::def::style::{load_style, Style};
use crate::diag::Diagnostic;
use crate::engine::GameError;
use crate::reload::watch::WatchHandle;
use crate::reload::{ReloadRequest, Watcher};
use crate::replay::ReloadMark;
use macroquad::texture::Texture2D;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::mpsc::Receiver;

/// Lines kept in the event log.
const LOG_LINES: usize = 200;
/// Seconds a reload flash stays.
const FLASH: f64 = 3.0;
/// Seconds between two bot moves, so people can follow.
const BOT_PACE: f64 = 0.35;

pub struct Table {
    pub s: Session,
    pub p: Painter,
    pub style: Style,
    pub image: Option<Texture2D>,
    pub anim: Anim,
    pub log: VecDeque<String>,
    /// Why a click did nothing, what a key did.
    pub message: Option<String>,
    /// A successful reload: what changed, and when.
    pub flash: Option<(String, f64)>,
    /// Spaces a reload changed.
    pub changed: Vec<usize>,
    /// A failed reload's diagnostics, shown until a reload succeeds.
    pub overlay: Vec<Diagnostic>,
    /// The last bot decision (or advice) with its candidates.
    pub panel: Option<Thought>,
    /// Option buttons drawn this frame: where, and which option.
    pub buttons: Vec<(Rect, usize)>,
    /// A spot with several options, whose options are offered as buttons.
    pub picked: Option<Spot>,
    worker: Option<Worker>,
    /// Counts position changes; a bot answer for an older position is dropped.
    generation: u64,
    asked: Option<u64>,
    next_bot_move: f64,
    requests: Option<Receiver<ReloadRequest>>,
    _watching: Option<WatchHandle>,
    pub save_to: String,
    /// A person is at the window (hover effects); false in scripted screenshots.
    pub interactive: bool,
    scene: Option<Rc<Scene>>,
}

impl Table {
    /// A table for `s`; with `threaded` bots think on a worker, else they move at once.
    pub fn new(
        s: Session,
        watcher: Option<Watcher>,
        threaded: bool,
    ) -> Result<Table, Vec<Diagnostic>> {
        let p = Painter::new().map_err(|e| vec![Diagnostic::error("assets/fonts", e)])?;
        let (style, image) = look(&s)?;
        let anim = Anim::new(&s.game.world());
        let worker = threaded.then(|| {
            let seed = s.game.config.seed ^ s.record.steps.len() as u64;
            Worker::start(s.seats.clone(), seed)
        });
        let (watching, requests) = match watcher.map(|w| w.split()) {
            Some((h, r)) => (Some(h), Some(r)),
            None => (None, None),
        };
        let save_to = format!("{}-save.json", s.game.pkg.id);
        let mut t = Table {
            s,
            p,
            style,
            image,
            anim,
            log: VecDeque::new(),
            message: None,
            flash: None,
            changed: Vec::new(),
            overlay: Vec::new(),
            panel: None,
            buttons: Vec::new(),
            picked: None,
            worker,
            generation: 0,
            asked: None,
            next_bot_move: 0.0,
            requests,
            _watching: watching,
            save_to,
            interactive: threaded,
            scene: None,
        };
        t.absorb_events(0.0);
        Ok(t)
    }

    pub fn board(&self) -> Option<&Board> {
        self.s.game.pkg.map(self.s.game.config.map.as_deref()).ok()
    }

    pub fn kind(&self) -> BoardKind {
        self.board().map(BoardKind::of).unwrap_or(BoardKind::Track)
    }

    /// Moves the game's new events into the log and the animations.
    pub fn absorb_events(&mut self, now: f64) {
        let events = self.s.game.drain_events();
        let Some(board) = self.s.game.pkg.map(self.s.game.config.map.as_deref()).ok() else {
            return;
        };
        for e in &events {
            self.anim.on_event(e, board, now);
            if !matches!(e, Event::Action { .. }) {
                self.log.push_back(e.to_string());
            }
        }
        self.anim.settle(&self.s.game.world());
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }

    /// After anything that changes the position: bots think again, old answers are dropped,
    /// the scene is read again.
    fn moved(&mut self) {
        self.generation += 1;
        self.asked = None;
        self.picked = None;
        self.scene = None;
    }

    /// The scene of the current position.
    pub fn scene(&mut self) -> Rc<Scene> {
        if let Some(s) = &self.scene {
            return s.clone();
        }
        let seats: Vec<String> = self.s.seats.iter().map(|s| s.to_string()).collect();
        let human = self.human_to_move();
        let scene = Rc::new(Scene::read(&self.s.game, self.picked, &seats, human));
        self.scene = Some(scene.clone());
        scene
    }

    /// Applies option `index` for whoever must decide, through the session's one `apply`.
    pub fn play_option(&mut self, index: usize, now: f64) -> Result<(), String> {
        let seat = self.s.game.decision().map_err(|e| e.to_string())?.seat;
        let done = play::apply(&mut self.s, seat, index);
        self.absorb_events(now);
        self.moved();
        match done {
            Ok(()) => {
                self.message = None;
                Ok(())
            }
            Err(GameError::Rejected(r)) => Err(r),
            Err(GameError::Script(e)) => {
                let _ = self.s.game.undo();
                self.s.record.steps.truncate(self.s.game.history.len());
                self.anim.sync(&self.s.game.world());
                Err(format!("{e}\nthe rules failed on that move; it was undone"))
            }
        }
    }

    /// Whether the seat to move is a person at this window.
    pub fn human_to_move(&self) -> bool {
        self.s
            .game
            .pending()
            .is_some_and(|p| self.s.bots.get(p.seat).is_some_and(|b| b.is_none()))
    }

    /// A click at a window position: an option button, or a spot on the board.
    pub fn click(&mut self, pos: (f32, f32), now: f64) -> Option<String> {
        if let Some(index) = self
            .buttons
            .iter()
            .find(|(r, _)| r.contains(pos))
            .map(|b| b.1)
        {
            return Some(self.play_clicked(index, now));
        }
        let layout = Layout::new(
            macroquad::window::screen_width(),
            macroquad::window::screen_height(),
        );
        self.click_board(&layout, pos, now)
    }

    /// A click on the board: the one option on that spot is played; several are offered as
    /// buttons; none: the rules say why not.
    pub fn click_board(&mut self, layout: &Layout, pos: (f32, f32), now: f64) -> Option<String> {
        let board = self.board()?.clone();
        let scene = self.scene();
        let spot = view::spot_at(self.kind(), layout, &board, &scene.world, &self.style, pos)?;
        let here: Vec<usize> = scene
            .options
            .iter()
            .copied()
            .filter(|(_, s)| *s == Some(spot))
            .map(|(i, _)| i)
            .collect();
        let text = match here[..] {
            [index] if self.human_to_move() => self.play_clicked(index, now),
            [_, _, ..] if self.human_to_move() => {
                self.picked = Some(spot);
                self.scene = None;
                "several options here: pick one on the right".into()
            }
            _ => self.why_not(spot, &board),
        };
        self.message = Some(text.clone());
        Some(text)
    }

    fn play_clicked(&mut self, index: usize, now: f64) -> String {
        if !self.human_to_move() {
            return self.not_your_turn();
        }
        let label = self.s.game.label(index);
        match self.play_option(index, now) {
            Ok(()) => {
                self.message = None;
                format!("played: {label}")
            }
            Err(e) => {
                self.message = Some(e.clone());
                e
            }
        }
    }

    fn not_your_turn(&self) -> String {
        match self.s.game.pending() {
            Some(p) => format!(
                "it is P{}'s turn ({} is thinking)",
                p.seat + 1,
                self.s.seats[p.seat]
            ),
            None => "the game is over".into(),
        }
    }

    /// Why a click on `spot` does nothing, asked of the rules when it is a person's turn.
    fn why_not(&mut self, spot: Spot, board: &Board) -> String {
        let Some(p) = self.s.game.pending() else {
            return "the game is over".into();
        };
        if !self.human_to_move() {
            return self.not_your_turn();
        }
        let seat = p.seat;
        let scene = self.scene();
        let p = self.s.game.pending().expect("checked above");
        let verb = scene
            .options
            .iter()
            .find(|(_, s)| s.is_some())
            .map(|(i, _)| p.options()[*i].verb.clone());
        match (verb, spot) {
            (Some(verb), _) => match self
                .s
                .game
                .check_action(seat, &action_for(spot, board, &verb))
            {
                Err(e) => e.to_string(),
                Ok(_) => "that is allowed; click it again".into(),
            },
            (None, Spot::Space(i)) => format!(
                "nothing to do on {} now; use the buttons on the right",
                board.spaces.get(i).map(|s| s.name.as_str()).unwrap_or("?")
            ),
            (None, Spot::Cell(r, c)) => format!("nothing to do at ({}, {}) now", r + 1, c + 1),
        }
    }

    pub fn undo(&mut self) {
        self.message = Some(play::undo(&mut self.s));
        self.after_jump();
    }

    pub fn redo(&mut self) {
        self.message = Some(play::redo(&mut self.s));
        self.after_jump();
    }

    fn after_jump(&mut self) {
        self.anim.sync(&self.s.game.world());
        self.panel = None;
        self.moved();
    }

    pub fn save(&mut self) {
        let file = self.save_to.clone();
        self.message = Some(play::save(&mut self.s, &file));
    }

    /// Asks the heuristic bot what it would do for the seat to move (shown in the panel).
    pub fn advise(&mut self) {
        if !self.human_to_move() {
            self.message = Some(self.not_your_turn());
            return;
        }
        self.ask(Some(Seat::Heuristic));
        self.message = Some("asking the ai…".into());
    }

    fn ask(&mut self, advisor: Option<Seat>) {
        let Some(p) = self.s.game.pending() else {
            return;
        };
        let seat = p.seat;
        let (Some(worker), Ok(snap)) = (&self.worker, self.s.game.snapshot()) else {
            return;
        };
        worker.ask(Question {
            id: self.generation,
            pkg: self.s.game.pkg.clone(),
            config: self.s.game.config.clone(),
            snap,
            seat,
            advisor,
        });
        self.asked = Some(self.generation);
    }

    /// Bots: ask the worker about a bot's turn, play its answer when the animations are done.
    pub fn bots(&mut self, now: f64) {
        let Some(worker) = &self.worker else {
            return;
        };
        let mut answers = Vec::new();
        while let Ok(a) = worker.answers.try_recv() {
            answers.push(a);
        }
        for a in answers.into_iter().filter(|a| a.id == self.generation) {
            match a.result {
                Ok(t) if t.to_play => self.panel = Some(t),
                Ok(t) => {
                    self.message = Some(format!("{} would play: {}", t.who, t.label));
                    self.panel = Some(t);
                }
                Err(e) => self.message = Some(e),
            }
        }
        let bot_turn = self.s.game.pending().is_some() && !self.human_to_move();
        if bot_turn && self.asked != Some(self.generation) {
            self.ask(None);
        }
        let ready = self
            .panel
            .as_ref()
            .filter(|t| t.to_play && self.asked == Some(self.generation))
            .filter(|t| self.s.game.pending().is_some_and(|p| p.seat == t.seat))
            .map(|t| t.action.clone());
        if let (Some(action), true) = (ready, bot_turn) {
            if self.anim.busy(now) || now < self.next_bot_move {
                return;
            }
            let seat = self.s.game.pending().map(|p| p.seat).unwrap_or(0);
            let played = self
                .s
                .game
                .check_action(seat, &action)
                .map_err(|e| e.to_string())
                .and_then(|i| self.play_option(i, now));
            if let Err(e) = played {
                self.message = Some(e);
            }
            self.next_bot_move = now + BOT_PACE;
        }
    }

    /// Bots move at once, in this thread, until a person must decide (scripted runs).
    pub fn bots_now(&mut self, now: f64) -> Result<(), String> {
        while let Some(seat) = self.s.game.pending().map(|p| p.seat) {
            let Some(bot) = self.s.bots[seat].as_mut() else {
                return Ok(());
            };
            let choice = bot.explain(&mut self.s.game).map_err(|e| e.to_string())?;
            let candidates = choice
                .candidates
                .iter()
                .take(8)
                .map(|(i, score)| (self.s.game.label(*i), *score))
                .collect();
            let action =
                self.s.game.decision().map_err(|e| e.to_string())?.options()[choice.index].clone();
            self.panel = Some(Thought {
                seat,
                who: self.s.seats[seat].to_string(),
                label: self.s.game.label(choice.index),
                action,
                candidates,
                to_play: true,
            });
            self.play_option(choice.index, now)?;
        }
        Ok(())
    }

    /// Reload requests from the watcher.
    pub fn watch(&mut self, now: f64) {
        let requests: Vec<ReloadRequest> = match &self.requests {
            Some(r) => r.try_iter().collect(),
            None => return,
        };
        if let Some(last) = requests.last() {
            let names = self.shown_paths(last);
            self.reload(&names, now);
        }
    }

    fn shown_paths(&self, r: &ReloadRequest) -> String {
        let root = self.s.game.pkg.root.canonicalize().unwrap_or_default();
        let names: Vec<String> = r
            .paths
            .iter()
            .map(|p| {
                let p = p.canonicalize().unwrap_or_else(|_| p.clone());
                p.strip_prefix(&root).unwrap_or(&p).display().to_string()
            })
            .collect();
        names.join(", ")
    }

    /// Reloads the rules and the look; on success flashes what changed, on failure shows every
    /// diagnostic until a reload succeeds while the last good game stays playable.
    pub fn reload(&mut self, names: &str, now: f64) {
        let before = self.board().cloned();
        match self
            .s
            .game
            .try_reload()
            .and_then(|r| look(&self.s).map(|l| (r, l)))
        {
            Ok((r, (style, image))) => {
                self.style = style;
                self.image = image;
                self.overlay.clear();
                self.s.record.reloads.push(ReloadMark {
                    after_step: self.s.record.steps.len(),
                    files_hash: r.files_hash,
                });
                self.changed = match (&before, self.board()) {
                    (Some(a), Some(b)) => changed_spaces(a, b),
                    _ => Vec::new(),
                };
                let ms = r.took.as_secs_f64() * 1000.0;
                let spaces = match self.changed.len() {
                    0 => String::new(),
                    n => format!(" · {n} space(s) changed"),
                };
                self.flash = Some((format!("reloaded {names} ({ms:.0} ms){spaces}"), now));
                self.absorb_events(now);
                self.after_jump();
            }
            Err(diags) => self.overlay = diags,
        }
    }

    /// The reload flash, while it shows.
    pub fn flash(&self, now: f64) -> Option<(&str, f32)> {
        let (text, at) = self.flash.as_ref()?;
        let left = FLASH - (now - at);
        (left > 0.0).then(|| (text.as_str(), (left / FLASH).min(1.0) as f32))
    }
}

/// The style and image for the session's map.
fn look(s: &Session) -> Result<(Style, Option<Texture2D>), Vec<Diagnostic>> {
    let pkg = &s.game.pkg;
    let map = s.game.config.map.clone().unwrap_or(pkg.default_map.clone());
    let style = load_style(&pkg.root, &pkg.shown, &map)?;
    let image = match &style.image {
        Some(file) => Some(load_image(&pkg.root, &pkg.shown, file)?),
        None => None,
    };
    Ok((style, image))
}

/// An image from the game folder, else from the shared `assets/`.
fn load_image(
    root: &std::path::Path,
    shown: &str,
    file: &str,
) -> Result<Texture2D, Vec<Diagnostic>> {
    let in_game = root.join(file);
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(file);
    let path = if in_game.is_file() { in_game } else { shared };
    let fail = |e: String| vec![Diagnostic::error(format!("{shown}/style.toml"), e)];
    let bytes = std::fs::read(&path).map_err(|e| fail(format!("image '{file}': {e}")))?;
    let image = macroquad::texture::Image::from_file_with_format(&bytes, None)
        .map_err(|e| fail(format!("image '{file}': {e}")))?;
    Ok(Texture2D::from_image(&image))
}

/// Spaces whose name, kind, group or data differ between two versions of a map.
fn changed_spaces(a: &Board, b: &Board) -> Vec<usize> {
    b.spaces
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            a.spaces.get(*i).is_none_or(|o| {
                o.id != s.id
                    || o.name != s.name
                    || o.kind != s.kind
                    || o.group != s.group
                    || o.data != s.data
            })
        })
        .map(|(i, _)| i)
        .collect()
}
