//! The window's game table: the play session (the same one the terminal drives: same
//! `apply`, bots, saves and records), the look, animations, messages, the reload overlay and
//! the bot panel; and what clicks and keys do to it. Bots are in `bots`, reloads in `live`.

use super::anim::Anim;
use super::hud;
use super::layout::{Layout, Rect};
use super::live::image;
use super::paint::Painter;
use super::scene::Scene;
use super::view::{self, action_for, within, BoardKind, Spot};
use super::worker::{Thought, Worker};
use crate::core::action::{Action, Arg};
use crate::core::event::Event;
use crate::def::board::Board;
use crate::def::style::Style;
use crate::diag::Diagnostic;
use crate::engine::GameError;
use crate::reload::watch::WatchHandle;
use crate::reload::{ReloadRequest, Watcher};
use crate::session::Session;
use macroquad::texture::Texture2D;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::mpsc::Receiver;

/// Lines kept in the event log.
const LOG_LINES: usize = 200;

pub struct Table {
    pub s: Session,
    pub p: Painter,
    pub style: Style,
    pub image: Option<Texture2D>,
    pub anim: Anim,
    /// The log's lines, each with the seat it is told to alone (None: everyone's).
    pub log: VecDeque<(Option<usize>, String)>,
    /// Why a click did nothing, what a key did.
    pub message: Option<String>,
    /// A successful reload: what changed, and when.
    pub flash: Option<(String, f64)>,
    /// Spaces a reload changed.
    pub changed: Vec<usize>,
    /// A failed reload's diagnostics, shown until a reload succeeds, and what failed.
    pub overlay: Vec<Diagnostic>,
    pub overlay_title: String,
    /// The last bot decision (or advice) with its candidates.
    pub panel: Option<Thought>,
    /// Buttons drawn this frame: where, and what each does.
    pub buttons: Vec<(Rect, Button)>,
    /// Which page of option buttons is shown, and of which options: a decision with more
    /// options than fit shows them a page at a time, and keeps its page while the same
    /// options are offered (as when another seat answers a simultaneous decision).
    pub page: (Vec<(usize, String)>, usize),
    /// The spots picked so far, each with its position in its pile (a tile's; else 0): a
    /// spot with several options (offered as buttons), or tiles toward an option played with
    /// several (two copies of a tile are two entries).
    pub picked: Vec<(Spot, usize)>,
    pub(super) worker: Option<Worker>,
    /// Counts position changes; a bot answer for an older position is dropped.
    pub(super) generation: u64,
    pub(super) asked: Option<u64>,
    pub(super) next_bot_move: f64,
    /// A person's simultaneous decision on the clock: its position (`generation`) and when it
    /// was asked; and what the clock says while it runs.
    pub(super) clock: Option<(u64, f64)>,
    pub clock_text: Option<String>,
    /// When the position last changed (tiles that joined a pile slide from then).
    moved_at: f64,
    pub(super) requests: Option<Receiver<ReloadRequest>>,
    _watching: Option<WatchHandle>,
    pub save_to: String,
    /// A person is at the window (hover effects); false in scripted screenshots.
    pub interactive: bool,
    scene: Option<Rc<Scene>>,
}

/// What a button in the HUD does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Button {
    /// Plays option `index` of the pending decision.
    Option(usize),
    /// Shows the next page of options.
    More,
}

impl Table {
    /// A table for `s`. `interactive`: a person is at the window, so bots think on a worker
    /// and moves animate; else (a scripted screenshot) bots move at once and moves show
    /// finished. `style` is the map's, read before the window opened.
    pub fn new(
        s: Session,
        watcher: Option<Watcher>,
        interactive: bool,
        style: Style,
    ) -> Result<Table, Vec<Diagnostic>> {
        let p = Painter::new().map_err(|e| vec![Diagnostic::error("assets/fonts", e)])?;
        let image = image(&s, &style)?;
        let mut anim = Anim::new(&s.game.shown_world());
        anim.instant = !interactive;
        let worker = interactive
            .then(|| Worker::start(s.seats.clone(), s.game.config.seed, s.record.steps.len()));
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
            overlay_title: String::new(),
            panel: None,
            buttons: Vec::new(),
            page: (Vec::new(), 0),
            picked: Vec::new(),
            worker,
            generation: 0,
            asked: None,
            next_bot_move: 0.0,
            clock: None,
            clock_text: None,
            moved_at: 0.0,
            requests,
            _watching: watching,
            save_to,
            interactive,
            scene: None,
        };
        t.absorb_events(0.0);
        Ok(t)
    }

    pub fn board(&self) -> Option<&Board> {
        self.s.game.board().ok()
    }

    pub fn kind(&self) -> Option<BoardKind> {
        self.board().map(BoardKind::of)
    }

    /// Moves the game's new events into the log and the animations.
    pub fn absorb_events(&mut self, now: f64) {
        self.moved_at = now;
        let events = self.s.drain_log();
        let Some(board) = self.s.game.board().ok() else {
            return;
        };
        for e in &events {
            self.anim.on_event(e, board, now);
            if !matches!(e, Event::Action { .. }) {
                self.log.push_back((e.told_to(), e.to_string()));
            }
        }
        self.anim.settle(&self.s.game.shown_world());
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }

    /// After anything that changes the position: bots think again, old answers are dropped,
    /// the scene is read again.
    pub(super) fn moved(&mut self) {
        self.generation += 1;
        self.asked = None;
        self.picked.clear();
        self.scene = None;
    }

    /// The scene of the current position.
    pub fn scene(&mut self) -> Rc<Scene> {
        if let Some(s) = &self.scene {
            return s.clone();
        }
        let seats: Vec<String> = self.s.seats.iter().map(|s| s.to_string()).collect();
        let human = self.s.human_turn();
        let viewer = self.s.viewer();
        let mut scene = Scene::read(&mut self.s.game, &self.picked, &seats, human, viewer);
        if let (Some(seed), true) = (self.s.secret_seed, self.s.game.is_over()) {
            scene.state.push_str(&format!(" · seed {seed}"));
        }
        let scene = Rc::new(scene);
        if let Some(view) = &scene.table {
            self.anim.on_table(view, self.moved_at);
        }
        if let Some(e) = scene.spot_error.as_ref().or(scene.problem.as_ref()) {
            self.message = Some(e.clone());
        }
        self.scene = Some(scene.clone());
        scene
    }

    /// Applies option `index` for whoever must decide, through the session's one `apply`.
    pub fn play_option(&mut self, index: usize, now: f64) -> Result<(), String> {
        let seat = self.s.game.decision().map_err(|e| e.to_string())?.seat;
        let done = self.s.apply(seat, index);
        self.absorb_events(now);
        self.moved();
        match done {
            Ok(()) => {
                self.message = None;
                Ok(())
            }
            Err(GameError::Rejected(r)) => Err(r),
            Err(GameError::Script(e)) => {
                let said = crate::session::failed(&e);
                self.anim.sync(&self.s.game.shown_world());
                Err(said)
            }
        }
    }

    /// Whether the window may show what `seat`'s bot weighed: always, unless some zone hides
    /// something from the viewer and the seat is not the viewer's.
    pub fn shows_thoughts_of(&self, seat: usize) -> bool {
        let game = &self.s.game;
        let viewer = self.s.viewer();
        viewer == Some(seat) || !game.hides_from(viewer)
    }

    /// A click at a window position: a button, or a spot on the board.
    pub fn click(&mut self, pos: (f32, f32), now: f64) -> Option<String> {
        if let Some(button) = self.buttons.iter().find(|(r, _)| r.contains(pos)) {
            return Some(self.press(button.1, now));
        }
        let layout = Layout::new(
            macroquad::window::screen_width(),
            macroquad::window::screen_height(),
        );
        self.click_board(&layout, pos, now)
    }

    /// The `n`-th button (0-based), as if clicked.
    pub fn press_button(&mut self, n: usize, now: f64) {
        if let Some(button) = self.buttons.get(n) {
            self.press(button.1, now);
        }
    }

    /// What a button does: play its option, or show the next page of options.
    fn press(&mut self, button: Button, now: f64) -> String {
        match button {
            Button::Option(index) => self.play_clicked(index, now),
            Button::More => {
                self.next_page();
                "more options".into()
            }
        }
    }

    /// Shows the next page of option buttons (the hud goes round to the first after the last).
    pub fn next_page(&mut self) {
        let options = self.scene().buttons.clone();
        let page = hud::shown_page(&self.page, &options) + 1;
        self.page = (options, page);
    }

    /// A click on the board: the one option on that spot is played; several are offered as
    /// buttons; a tile of options played with several is picked (or put back when picked);
    /// none: the rules say why not.
    fn click_board(&mut self, layout: &Layout, pos: (f32, f32), now: f64) -> Option<String> {
        let board = self.board()?.clone();
        let scene = self.scene();
        let (spot, at) = view::spot_at(
            self.kind()?,
            layout,
            &board,
            &scene.world,
            &self.style,
            scene.table.as_ref().map(|t| (t, &scene.picked[..])),
            pos,
        )?;
        let text = match scene.human {
            true => self.pick(&scene, spot, at, now),
            false => None,
        };
        // A rules error that turned the options into buttons explains a click that does nothing.
        let text = text.unwrap_or_else(|| match &scene.spot_error {
            Some(e) => format!("{}; {e}", self.why_not(spot, &board)),
            None => self.why_not(spot, &board),
        });
        self.message = Some(text.clone());
        Some(text)
    }

    /// A person's click on `spot` (at position `at` of its pile, for a tile): what it did,
    /// or None when no option takes it.
    fn pick(&mut self, scene: &Scene, spot: Spot, at: usize, now: f64) -> Option<String> {
        let here = (spot, at);
        if let Some(k) = self.picked.iter().position(|p| *p == here) {
            // A picked tile goes back; a spot with several options is offered again.
            if scene.together {
                self.picked.remove(k);
                self.scene = None;
                return Some(format!("put back {}", spot_name(scene, &spot)));
            }
            self.picked.clear();
        }
        let mut more: Vec<Spot> = self.picked.iter().map(|p| p.0).collect();
        more.push(spot);
        let fitting: Vec<&(usize, Vec<Spot>)> = (scene.options.iter())
            .filter(|(_, s)| within(&more, s))
            .collect();
        let one_spot = fitting.iter().all(|(_, s)| s.len() == 1);
        let same_pile = self.picked.first().is_some_and(|p| same_pile(&p.0, &spot));
        match (&fitting[..], one_spot) {
            ([], _) if self.picked.is_empty() => None,
            // Tiles picked toward an option of several stay until put back.
            ([], _) if scene.together && same_pile => Some(format!(
                "no option takes {} with {}; click a picked one to put it back",
                spot_name(scene, &spot),
                names(scene, &more[..more.len() - 1])
            )),
            // Another place: start again from there.
            ([], _) => {
                self.picked.clear();
                self.scene = None;
                let scene = self.scene();
                self.pick(&scene, spot, at, now)
            }
            ([(index, _)], true) => Some(self.play_clicked(*index, now)),
            (_, true) => {
                self.picked = vec![here];
                self.scene = None;
                Some("several options here: pick one on the right".into())
            }
            (fitting, false) => {
                self.picked.push(here);
                self.scene = None;
                Some(picked_text(scene, &more, fitting))
            }
        }
    }

    fn play_clicked(&mut self, index: usize, now: f64) -> String {
        if !self.s.human_turn() {
            return self.not_your_turn();
        }
        let label = self.s.label(index);
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

    pub(super) fn not_your_turn(&self) -> String {
        match self.s.game.pending() {
            Some(_) => format!("not your turn: {}", self.s.thinking()),
            None => self.s.thinking(),
        }
    }

    /// Why a click on `spot` does nothing, asked of the rules when it is a person's turn.
    fn why_not(&mut self, spot: Spot, board: &Board) -> String {
        let Some(p) = self.s.game.pending() else {
            return "the game is over".into();
        };
        if !self.s.human_turn() {
            return self.not_your_turn();
        }
        let seat = p.seat;
        let scene = self.scene();
        let p = self.s.game.pending().expect("checked above");
        // Options the rules place themselves (`R.spot`) cannot be read back from a cell or a
        // space, nor can an option of another shape than a click makes (`move 6 1 5 2` from
        // a cell); a tile can, by an option placed on another tile of the same pile.
        let placed = self.s.game.places_options();
        let clicked = |verb: &str| action_for(spot, board, verb);
        let action = match spot {
            Spot::Tile { .. } => {
                tile_action(&scene, p.options(), spot, &self.s.game.pkg.items.names)
            }
            _ if placed => None,
            _ => (scene.options.iter())
                .filter(|(_, s)| !s.is_empty())
                .map(|(i, _)| clicked(&p.options()[*i].verb))
                .find(|a| {
                    (p.options().iter()).any(|o| o.verb == a.verb && o.args.len() == a.args.len())
                }),
        };
        match (action, spot) {
            (Some(action), _) => match self.s.game.check_action(seat, &action) {
                Err(e) => e.to_string(),
                // Legal, yet not offered at this spot: it is played where it is shown.
                Ok(i) => format!(
                    "'{}' is played where it is shown, not here",
                    self.s.label(i)
                ),
            },
            (None, Spot::Space(i)) => format!(
                "nothing to do on {} now; use the buttons on the right",
                board.spaces.get(i).map(|s| s.name.as_str()).unwrap_or("?")
            ),
            (None, Spot::Cell(r, c)) if placed && !scene.targets.is_empty() => format!(
                "nothing to play at ({}, {}); the cells that play are marked",
                r + 1,
                c + 1
            ),
            (None, Spot::Cell(r, c)) => format!("nothing to do at ({}, {}) now", r + 1, c + 1),
            (None, Spot::Tile { code, .. }) => {
                format!(
                    "nothing to play with {} now",
                    self.s.game.pkg.item_label(code)
                )
            }
            (None, Spot::Pile(_)) => "nothing to do with that pile now".into(),
        }
    }

    pub fn undo(&mut self) {
        let (said, _) = self.s.undo();
        self.jumped(said);
    }

    pub fn redo(&mut self) {
        let (said, _) = self.s.redo();
        self.jumped(said);
    }

    /// After undo or redo: says so in the message line and the log.
    fn jumped(&mut self, said: String) {
        self.log.push_back((None, said.clone()));
        self.message = Some(said);
        self.after_jump();
    }

    pub(super) fn after_jump(&mut self) {
        self.anim.sync(&self.s.game.shown_world());
        self.panel = None;
        self.moved();
    }

    pub fn save(&mut self) {
        let file = self.save_to.clone();
        self.message = Some(self.s.save(&file));
    }
}

/// The action a click on tile `spot` means, to ask the rules why it is not allowed: an option
/// played on one other tile of the same pile, with that tile's code (or name, as `play QS`
/// names a card) swapped for the clicked one's.
fn tile_action(scene: &Scene, options: &[Action], spot: Spot, names: &[String]) -> Option<Action> {
    let Spot::Tile { code, .. } = spot else {
        return None;
    };
    let name = |c: i64| usize::try_from(c).ok().and_then(|c| names.get(c));
    (scene.options.iter()).find_map(|(i, spots)| {
        let [Spot::Tile { code: own, .. }] = spots[..] else {
            return None;
        };
        if !same_pile(&spots[0], &spot) {
            return None;
        }
        let option = &options[*i];
        let at = (option.args.iter()).position(|a| match a {
            Arg::Int(c) => *c == own,
            Arg::Str(n) => name(own) == Some(n),
            _ => false,
        })?;
        let mut action = option.clone();
        action.args[at] = match (&option.args[at], name(code)) {
            (Arg::Str(_), Some(n)) => Arg::Str(n.clone()),
            _ => Arg::Int(code),
        };
        Some(action)
    })
}

/// How a picked spot is named: a tile by its label, anything else by nothing.
fn spot_name(scene: &Scene, spot: &Spot) -> String {
    match (spot, &scene.table) {
        (Spot::Tile { code, .. }, Some(t)) => t.name(*code),
        _ => String::new(),
    }
}

fn names(scene: &Scene, spots: &[Spot]) -> String {
    let names: Vec<String> = spots.iter().map(|s| spot_name(scene, s)).collect();
    names.join(" ")
}

/// Whether two spots are tiles of one pile.
fn same_pile(a: &Spot, b: &Spot) -> bool {
    match (a, b) {
        (
            Spot::Tile { zone, seat, .. },
            Spot::Tile {
                zone: z, seat: t, ..
            },
        ) => (zone, seat) == (z, t),
        _ => false,
    }
}

/// What picking `picked` (the tiles so far, the last just now) says: the button that plays
/// them, or how many options take them.
fn picked_text(scene: &Scene, picked: &[Spot], fitting: &[&(usize, Vec<Spot>)]) -> String {
    let named = names(scene, picked);
    let exact = fitting.iter().any(|(_, s)| s.len() == picked.len());
    match (exact, fitting.len()) {
        (true, 1) => format!("picked {named}: its button plays it"),
        (true, _) => format!("picked {named}: a button plays them, or pick more"),
        (false, n) => format!(
            "picked {named}: {} take them; pick more",
            crate::diag::plural(n, "option")
        ),
    }
}
