//! A running game: a package, its script host, the world and `G`. Drives the flow (automatic
//! states run until a decision), lists the legal options, and applies an action through the
//! one `apply`: an illegal action is rejected with a reason and changes nothing.

mod autoplay;
pub use autoplay::VmSeat;
mod claim;
mod drive;
mod history;
pub use history::Mark;
mod hooks;
mod live;
mod shown;
pub use shown::Shown;
mod view;

use crate::core::action::{Action, Arg};
use crate::core::deck::DeckState;
use crate::core::event::{Event, Outcome};
use crate::core::grid::GridState;
use crate::core::world::World;
use crate::def::board::Board;
use crate::def::settings::apply_override;
use crate::def::Package;
use crate::diag::Diagnostic;

use crate::script::{Host, ScriptError};
use mlua::{Table, Value};
use serde::{Deserialize, Serialize};
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// Automatic steps allowed between two decisions before the flow is declared stuck.
pub const STEP_GUARD: usize = 10_000;

/// How to start a game.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct GameConfig {
    pub map: Option<String>,
    pub seats: usize,
    pub seed: u64,
    /// `key=value` overrides of the game's settings, in order.
    #[serde(default)]
    pub settings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GameError {
    /// The action was not accepted; nothing changed.
    Rejected(String),
    /// A script failed; the message is located and has its context.
    Script(ScriptError),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Rejected(r) => write!(f, "rejected: {r}"),
            GameError::Script(e) => e.fmt(f),
        }
    }
}

impl From<ScriptError> for GameError {
    fn from(e: ScriptError) -> Self {
        GameError::Script(e)
    }
}

/// The decision the game waits for. Options stay Lua tables until something needs them as
/// `Action`s (display, replays, checking a typed action).
pub struct Pending {
    pub seat: usize,
    len: usize,
    lua_options: Table,
    actions: OnceCell<Vec<Action>>,
}

impl Pending {
    fn new(seat: usize, lua_options: Table) -> Pending {
        Pending {
            seat,
            len: lua_options.raw_len(),
            lua_options,
            actions: OnceCell::new(),
        }
    }

    /// Number of options (at least one).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The options as actions, in the order the rules listed them.
    pub fn options(&self) -> &[Action] {
        self.actions.get_or_init(|| options_of(&self.lua_options))
    }
}

/// One applied decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub seat: usize,
    pub action: Action,
}

/// Everything needed to resume a game exactly: `G`, the world and the flow state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub state: String,
    pub world: World,
    pub g: serde_json::Value,
}

impl Snapshot {
    pub fn hash(&self) -> String {
        let bytes = serde_json::to_vec(self).expect("snapshots serialize");
        blake3::hash(&bytes).to_hex()[..16].to_string()
    }
}

pub struct Game {
    pub pkg: Arc<Package>,
    pub config: GameConfig,
    pub settings: toml::Table,
    host: Host,
    world: Rc<RefCell<World>>,
    g: Table,
    pending: Option<Pending>,
    just_entered: bool,
    /// Whether each options list is checked (off while a search plays ahead).
    check_listed: bool,
    round_cap: Option<u64>,
    pub history: Vec<Step>,
    undo: Option<Vec<history::Undo>>,
    /// States undone, most recent last, with the history they had: what `redo` brings back.
    redo: Vec<(Snapshot, Vec<Step>)>,
    /// Decisions in the in-VM driver's first chunk: where the last chunks settled on this VM.
    chunk: u64,
    /// Counts the changes of position (a decision, a restore, a script run), so that texts
    /// computed for a position are kept until it changes.
    moves: u64,
    /// The texts last shown: the position (`moves`) and viewer they are for.
    shown: std::cell::RefCell<Option<(u64, Option<usize>, Shown)>>,
}

/// The board a config plays on, and the settings in force: the game's, then the board's, then
/// the `--set` overrides.
fn board_and_settings(
    pkg: &Package,
    config: &GameConfig,
) -> Result<(Board, toml::Table), Vec<Diagnostic>> {
    let board = pkg
        .map(config.map.as_deref())
        .map_err(|e| vec![Diagnostic::error("--map", e)])?
        .clone();
    let mut settings = board.settings.clone();
    for s in &config.settings {
        apply_override(&mut settings, s).map_err(|e| vec![Diagnostic::error("--set", e)])?;
    }
    board
        .grid_size(&settings)
        .map_err(|e| vec![Diagnostic::error("--set", e)])?;
    if let Some(cap) = settings.get("round_cap").and_then(|v| v.as_integer()) {
        if cap < 1 {
            // Where the value came from: the command line, the map or the manifest.
            let from = if config.settings.iter().any(|s| {
                s.split_once('=')
                    .is_some_and(|(k, _)| k.trim() == "round_cap")
            }) {
                "--set".to_string()
            } else if pkg.settings.get("round_cap") != board.settings.get("round_cap") {
                board.path.clone()
            } else {
                pkg.file("game.toml")
            };
            let msg = format!("round_cap must be at least 1 (the round after which a game stops, unfinished); got {cap}");
            return Err(vec![Diagnostic::error(from, msg)]);
        }
    }
    Ok((board, settings))
}

/// The reserved setting `round_cap`, if the game has it (at least 1: `board_and_settings`).
fn round_cap(settings: &toml::Table) -> Option<u64> {
    settings
        .get("round_cap")
        .and_then(|v| v.as_integer())
        .map(|c| c as u64)
}

/// The note on a script error: where in the flow it happened.
fn context(pkg: &Package, host: &Host, state: usize, hook: &str) -> String {
    let current: usize = host.state.raw_get("current").unwrap_or(0);
    let turn: u64 = host.state.raw_get("turn").unwrap_or(0);
    let state = pkg.flow.name(state);
    match GAME_HOOKS.contains(&hook) {
        // A hook of the whole game, run while the game is in `state`.
        true => format!("in hook 'R.{hook}' (state '{state}', player {current}, turn {turn})"),
        false => format!("in state '{state}' hook '{hook}' (player {current}, turn {turn})"),
    }
}

/// The rules' hooks that belong to no state (`R.label`, …), named as such in an error's context.
const GAME_HOOKS: &[&str] = &["label", "spot", "status", "stats", "why_not"];

impl Game {
    pub fn new(pkg: Arc<Package>, config: GameConfig) -> Result<Game, Vec<Diagnostic>> {
        let (board, settings) = board_and_settings(&pkg, &config)?;
        let (min, max) = pkg.players;
        if config.seats < min || config.seats > max {
            let counts = pkg.player_counts();
            let msg = format!("{} takes {counts} players, not {}", pkg.id, config.seats);
            return Err(vec![Diagnostic::error("--players", msg)]);
        }
        let world = World::new(
            config.seats,
            pkg.counters.len(),
            board.spaces.len(),
            config.seed,
        );
        let world = Rc::new(RefCell::new(world));
        let host = Host::load(&pkg, &board, &settings, world.clone())?;
        let g = host
            .lua
            .create_table()
            .map_err(|e| vec![Diagnostic::error(&host.rules_path, e.to_string())])?;
        let round_cap = round_cap(&settings);
        let mut game = Game {
            pkg,
            config,
            settings,
            host,
            world,
            g,
            pending: None,
            just_entered: true,
            check_listed: true,
            round_cap,
            history: Vec::new(),
            undo: None,
            redo: Vec::new(),
            chunk: autoplay::FIRST_CHUNK,
            moves: 0,
            shown: Default::default(),
        };
        game.start().map_err(|e| match e {
            GameError::Script(s) => vec![s.0],
            GameError::Rejected(r) => vec![Diagnostic::error(game_path(&game), r)],
        })?;
        Ok(game)
    }

    /// Starts over with a new seed on the same VM (used by batch simulation).
    pub fn restart(&mut self, seed: u64) -> Result<(), GameError> {
        let record = self.world.borrow().record_events;
        let (seats, counters, spaces) = {
            let w = self.world.borrow();
            (w.seats, w.counters.len(), w.board.len())
        };
        *self.world.borrow_mut() = World::new(seats, counters, spaces, seed);
        self.world.borrow_mut().record_events = record;
        self.config.seed = seed;
        self.history.clear();
        if let Some(u) = &mut self.undo {
            u.clear();
        }
        self.g = self
            .host
            .lua
            .create_table()
            .map_err(|e| self.lua_failure(e))?;
        self.start()
    }

    fn lua_failure(&self, e: mlua::Error) -> GameError {
        GameError::Script(ScriptError(Diagnostic::error(
            &self.host.rules_path,
            e.to_string(),
        )))
    }

    fn start(&mut self) -> Result<(), GameError> {
        self.moves += 1;
        {
            let board = self
                .pkg
                .map(self.config.map.as_deref())
                .map_err(GameError::Rejected)?;
            let mut w = self.world.borrow_mut();
            let w = &mut *w;
            w.decks = board
                .decks
                .iter()
                .map(|d| DeckState::new(d.cards.len(), &mut w.rng))
                .collect();
            w.state = self.pkg.flow.start;
            w.grid = board
                .grid_size(&self.settings)
                .map_err(GameError::Rejected)?
                .map(|(rows, cols)| GridState::new(rows, cols));
            w.zones = crate::core::zone::empty(&self.pkg.zones, w.seats);
        }
        self.host
            .push_world(&self.world.borrow())
            .map_err(|e| self.lua_failure(e))?;
        if let Some(setup) = self.host.game.setup.clone() {
            let ctx = || "in R.setup (before the first turn)".to_string();
            let ret: Value = self.host.call(&setup, (&self.g, &self.host.ctx), &ctx)?;
            if let Value::Table(t) = ret {
                self.g = t;
            }
        }
        // Stones the set-up placed are not a move.
        if let Some(grid) = self.world.borrow_mut().grid.as_mut() {
            grid.filled = None;
        }
        self.just_entered = true;
        self.settle()
    }

    pub fn set_record_events(&mut self, on: bool) {
        self.world.borrow_mut().record_events = on;
        let _ = self.host.set_record(on);
    }

    /// Keeps a snapshot before every decision so `undo` can step back.
    pub fn enable_undo(&mut self) {
        self.undo.get_or_insert_with(Vec::new);
    }

    pub fn set_budget(&mut self, instructions: u64) {
        self.host.set_budget(instructions);
    }

    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// The pending decision, or the rejection every caller gives when there is none.
    pub fn decision(&self) -> Result<&Pending, GameError> {
        self.pending
            .as_ref()
            .ok_or_else(|| GameError::Rejected("the game is over".into()))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.world.borrow().outcome.clone()
    }

    pub fn is_over(&self) -> bool {
        self.pending.is_none()
    }

    /// The world, with the live components copied in from the VM.
    pub fn world(&self) -> std::cell::Ref<'_, World> {
        let _ = self.sync_world();
        self.world.borrow()
    }

    /// Direct access to the parts of the world kept in Rust (generator, decks, tallies), for
    /// tools and tests that set up a position; change the live components through `exec`.
    pub fn world_mut(&self) -> std::cell::RefMut<'_, World> {
        let _ = self.sync_world();
        self.world.borrow_mut()
    }

    /// Reads the live components back into the world. Reading fails only on a value the ctx
    /// functions never store (it stops there, keeping what it read before): `snapshot` reports
    /// that (and `determinize`, which writes the world back), so nothing out of place is saved
    /// or restored; `world` and `world_mut` show what was read.
    fn sync_world(&self) -> Result<(), GameError> {
        let pulled = self.host.pull_world(&mut self.world.borrow_mut());
        pulled.map_err(|e| self.lua_failure(e))
    }

    /// Gives the game's generator a fresh seed (the generator lives outside the VM, so nothing
    /// is read back from it).
    pub fn reseed(&mut self, seed: u64) {
        self.world.borrow_mut().rng = crate::core::rng::GameRng::from_seed(seed);
    }

    /// The grid cell filled last (0-based row and column), which the window marks as the last
    /// move: not part of the position, so a save keeps it beside the snapshot.
    pub fn last_cell(&self) -> Option<(usize, usize)> {
        self.world.borrow().grid.as_ref().and_then(|g| g.filled)
    }

    pub fn set_last_cell(&mut self, cell: Option<(usize, usize)>) {
        if let Some(grid) = self.world.borrow_mut().grid.as_mut() {
            grid.filled = cell;
        }
    }

    /// The next dice rolls will show these faces, in order.
    pub fn force_dice(&mut self, faces: &[u32]) {
        self.world.borrow_mut().forced_dice.extend(faces);
    }

    pub fn state_name(&self) -> String {
        self.pkg.flow.name(self.world.borrow().state).to_string()
    }

    pub fn host(&self) -> &Host {
        &self.host
    }

    pub fn g(&self) -> &Table {
        &self.g
    }

    /// Takes the events logged since the last call.
    pub fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.world.borrow_mut().events)
    }

    pub fn events(&self) -> Vec<Event> {
        self.world.borrow().events.clone()
    }

    /// Applies `action` for `seat`; rejected actions change nothing.
    pub fn apply(&mut self, seat: usize, action: &Action) -> Result<(), GameError> {
        let index = self.check_action(seat, action)?;
        self.apply_index(index)
    }

    /// Checks an action against the pending decision without applying it; a refusal says why
    /// (`why_not`).
    pub fn check_action(&mut self, seat: usize, action: &Action) -> Result<usize, GameError> {
        let p = self.decision()?;
        if p.seat != seat {
            return Err(GameError::Rejected(format!(
                "it is P{}'s turn, not P{}'s",
                p.seat + 1,
                seat + 1
            )));
        }
        match p.options().iter().position(|o| same_action(o, action)) {
            Some(i) => Ok(i),
            None => Err(GameError::Rejected(self.why_not(seat, action))),
        }
    }

    /// Applies the pending decision's option number `index`.
    /// The index of option number `n` as listed (from 1) in the pending decision.
    pub fn option_number(&self, n: usize) -> Result<usize, GameError> {
        let len = self.decision()?.len();
        match n {
            1.. if n <= len => Ok(n - 1),
            _ => Err(GameError::Rejected(format!(
                "option {n} does not exist (1..{len})"
            ))),
        }
    }

    pub fn apply_index(&mut self, index: usize) -> Result<(), GameError> {
        self.option_number(index + 1)?;
        self.moves += 1;
        let p = self.pending.take().expect("checked by option_number");
        if self.undo.is_some() {
            let snap = self.snapshot_with_pending(&p)?;
            let len = self.history.len();
            if let Some(u) = &mut self.undo {
                u.push(history::Undo::new(snap, len));
            }
            self.redo.clear();
        }
        let option: Table = p
            .lua_options
            .raw_get(index + 1)
            .map_err(|e| self.lua_failure(e))?;
        let record = {
            let mut w = self.world.borrow_mut();
            w.decisions += 1;
            w.record_events
        };
        let state = self.world.borrow().state;
        if self.is_simultaneous(state) {
            let action = action_of(&option);
            if record {
                self.history.push(Step {
                    seat: p.seat,
                    action: action.clone(),
                });
            }
            self.answer_claim(state, action)?;
            self.note_what_was_learned();
            return Ok(());
        }
        if record {
            let action = p.options()[index].clone();
            self.world.borrow_mut().log(Event::Action {
                seat: p.seat,
                action: action.clone(),
            });
            self.history.push(Step {
                seat: p.seat,
                action,
            });
        }
        let act = self.host.hooks[state].act.clone().expect("checked at load");
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "act");
        let args = (&self.g, &self.host.ctx, option, p.seat + 1);
        let next = self.host.call(&act, args, &ctx)?;
        match self.next_name(next, "act")? {
            Some(name) => self.transition(state, &name, "act")?,
            None => self.just_entered = false,
        }
        self.settle()?;
        self.note_what_was_learned();
        Ok(())
    }
}

fn game_path(game: &Game) -> String {
    game.pkg.file("game.toml")
}

fn same_action(a: &Action, b: &Action) -> bool {
    a.verb == b.verb
        && a.args.len() == b.args.len()
        && a.args.iter().zip(&b.args).all(|(x, y)| match (x, y) {
            (Arg::Int(i), Arg::Num(n)) | (Arg::Num(n), Arg::Int(i)) => *i as f64 == *n,
            _ => x == y,
        })
}

/// A checked options list as actions.
fn options_of(list: &Table) -> Vec<Action> {
    (1..=list.raw_len())
        .map(|i| match list.raw_get::<Table>(i) {
            Ok(t) => action_of(&t),
            Err(_) => Action::new("?"),
        })
        .collect()
}

/// A checked option table as an action.
fn action_of(option: &Table) -> Action {
    read_option_table(option).unwrap_or_else(|_| Action::new("?"))
}

fn read_option_table(t: &Table) -> Result<Action, String> {
    let mut parts = t.sequence_values::<Value>();
    let verb = match parts.next() {
        Some(Ok(Value::String(s))) => s.to_str().map_err(|e| e.to_string())?.to_string(),
        _ => return Err("the first element must be the verb (a string)".into()),
    };
    let mut action = Action::new(verb);
    for p in parts {
        action.args.push(arg_of(p.map_err(|e| e.to_string())?)?);
    }
    Ok(action)
}

/// One argument of an option (or of a place `R.spot` names) as an action's argument.
fn arg_of(value: Value) -> Result<Arg, String> {
    Ok(match value {
        Value::Integer(i) => Arg::Int(i),
        Value::Number(n) => Arg::Num(n),
        Value::Boolean(b) => Arg::Bool(b),
        Value::String(s) => Arg::Str(s.to_str().map_err(|e| e.to_string())?.to_string()),
        other => {
            return Err(format!(
                "argument of type {} (use numbers, strings or booleans)",
                other.type_name()
            ))
        }
    })
}
