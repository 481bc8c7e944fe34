//! A running game: a package, its script host, the world and `G`. Drives the flow (automatic
//! states run until a decision), lists the legal options, and applies an action through the
//! one `apply`: an illegal action is rejected with a reason and changes nothing.

mod live;

use crate::core::action::{Action, Arg};
use crate::core::deck::DeckState;
use crate::core::event::{Event, Outcome};
use crate::core::grid::GridState;
use crate::core::world::World;
use crate::def::board::Board;
use crate::def::settings::apply_override;
use crate::def::Package;
use crate::diag::Diagnostic;
use crate::script::convert::{from_json, to_json};
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
        self.actions.get_or_init(|| {
            (1..=self.len)
                .map(|i| {
                    self.lua_options
                        .raw_get::<Table>(i)
                        .ok()
                        .and_then(|t| read_option_table(&t).ok())
                        .unwrap_or_else(|| Action::new("?"))
                })
                .collect()
        })
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
    round_cap: Option<u64>,
    pub history: Vec<Step>,
    undo: Option<Vec<(Snapshot, usize)>>,
    /// States undone, most recent last, with the history they had: what `redo` brings back.
    redo: Vec<(Snapshot, Vec<Step>)>,
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
    Ok((board, settings))
}

/// The reserved setting `round_cap`, if the game has it.
fn round_cap(settings: &toml::Table) -> Option<u64> {
    settings
        .get("round_cap")
        .and_then(|v| v.as_integer())
        .map(|c| c.max(1) as u64)
}

/// The note on a script error: where in the flow it happened.
fn context(pkg: &Package, host: &Host, state: usize, hook: &str) -> String {
    let current: usize = host.state.raw_get("current").unwrap_or(0);
    let turn: u64 = host.state.raw_get("turn").unwrap_or(0);
    format!(
        "in state '{}' hook '{hook}' (player {current}, turn {turn})",
        pkg.flow.name(state),
    )
}

impl Game {
    pub fn new(pkg: Arc<Package>, config: GameConfig) -> Result<Game, Vec<Diagnostic>> {
        let (board, settings) = board_and_settings(&pkg, &config)?;
        let (min, max) = pkg.players;
        if config.seats < min || config.seats > max {
            let msg = format!(
                "{} takes {min} to {max} players, not {}",
                pkg.id, config.seats
            );
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
            round_cap,
            history: Vec::new(),
            undo: None,
            redo: Vec::new(),
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
        }
        self.host
            .push_world(&self.world.borrow())
            .map_err(|e| self.lua_failure(e))?;
        if let Some(setup) = crate::script::api::function_at(&self.host.rules, "setup") {
            let ctx = || "in R.setup (before the first turn)".to_string();
            let ret: Value = self.host.call(&setup, (&self.g, &self.host.ctx), &ctx)?;
            if let Value::Table(t) = ret {
                self.g = t;
            }
        }
        self.just_entered = true;
        self.settle()
    }

    pub fn set_record_events(&mut self, on: bool) {
        self.world.borrow_mut().record_events = on;
        let _ = self.host.state.raw_set("record", on);
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

    pub fn outcome(&self) -> Option<Outcome> {
        self.world.borrow().outcome.clone()
    }

    pub fn is_over(&self) -> bool {
        self.pending.is_none()
    }

    /// The world, with the live components copied in from the VM.
    pub fn world(&self) -> std::cell::Ref<'_, World> {
        self.sync_world();
        self.world.borrow()
    }

    /// Direct access to the parts of the world kept in Rust (generator, decks, tallies), for
    /// tools and tests that set up a position; change the live components through `exec`.
    pub fn world_mut(&self) -> std::cell::RefMut<'_, World> {
        self.sync_world();
        self.world.borrow_mut()
    }

    fn sync_world(&self) {
        // The live state always has the shape push_world gave it, so reading it back succeeds.
        let _ = self.host.pull_world(&mut self.world.borrow_mut());
    }

    /// The next dice rolls will show these faces, in order.
    pub fn force_dice(&mut self, faces: &[u32]) {
        self.world.borrow_mut().forced_dice.extend(faces);
    }

    /// Runs Lua that changes the position (tests, tutorials), then asks the pending decision
    /// again so its options match the new position.
    pub fn exec(&mut self, code: &str) -> Result<serde_json::Value, GameError> {
        let out = self.eval(code)?;
        if self.pending.is_some() {
            self.pending = None;
            self.ask()?;
        }
        Ok(out)
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

    /// Checks an action against the pending decision without applying it.
    pub fn check_action(&self, seat: usize, action: &Action) -> Result<usize, GameError> {
        let Some(p) = &self.pending else {
            return Err(GameError::Rejected("the game is over".into()));
        };
        if p.seat != seat {
            return Err(GameError::Rejected(format!(
                "it is P{}'s turn, not P{}'s",
                p.seat + 1,
                seat + 1
            )));
        }
        let found = p.options().iter().position(|o| same_action(o, action));
        found.ok_or_else(|| GameError::Rejected(self.why_not(seat, action)))
    }

    /// Why `action` is not an option: the rules' `why_not` hook if it has an answer, else the
    /// options there are (the first ten).
    fn why_not(&self, seat: usize, action: &Action) -> String {
        if let Some(reason) = self.rules_reason(action) {
            return format!("'{action}' is not allowed: {reason}");
        }
        let options = self
            .pending
            .as_ref()
            .map(|p| p.options())
            .unwrap_or_default();
        let mut shown: Vec<String> = options.iter().take(10).map(|o| format!("'{o}'")).collect();
        if options.len() > 10 {
            shown.push(format!("… {} more", options.len() - 10));
        }
        format!(
            "'{action}' is not a legal option for P{} in state '{}' (options: {})",
            seat + 1,
            self.state_name(),
            shown.join(", ")
        )
    }

    fn rules_reason(&self, action: &Action) -> Option<String> {
        let hook = crate::script::api::function_at(&self.host.rules, "why_not")?;
        let lua = &self.host.lua;
        let t = lua.create_table().ok()?;
        t.raw_set(1, action.verb.as_str()).ok()?;
        for (i, a) in action.args.iter().enumerate() {
            let v = match a {
                Arg::Bool(b) => Value::Boolean(*b),
                Arg::Int(n) => Value::Integer(*n),
                Arg::Num(n) => Value::Number(*n),
                Arg::Str(s) => Value::String(lua.create_string(s).ok()?),
            };
            t.raw_set(i + 2, v).ok()?;
        }
        let ctx = || String::new();
        self.host
            .call::<Option<String>>(&hook, (&self.g, &self.host.ctx, t), &ctx)
            .ok()
            .flatten()
    }

    /// Applies the pending decision's option number `index`.
    pub fn apply_index(&mut self, index: usize) -> Result<(), GameError> {
        let Some(p) = self.pending.take() else {
            return Err(GameError::Rejected("the game is over".into()));
        };
        if index >= p.len() {
            let n = p.len();
            self.pending = Some(p);
            return Err(GameError::Rejected(format!(
                "option {} does not exist (1..{n})",
                index + 1
            )));
        }
        if self.undo.is_some() {
            let snap = self.snapshot_with_pending(&p)?;
            let len = self.history.len();
            if let Some(u) = &mut self.undo {
                u.push((snap, len));
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
        let state = self.world.borrow().state;
        let act = self.host.hooks[state].act.clone().expect("checked at load");
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "act");
        let next: Option<String> = self
            .host
            .call(&act, (&self.g, &self.host.ctx, option), &ctx)?;
        match next {
            Some(name) => self.transition(state, &name, "act")?,
            None => self.just_entered = false,
        }
        self.settle()
    }

    fn transition(&mut self, from: usize, to: &str, hook: &str) -> Result<(), GameError> {
        match self.pkg.flow.check_transition(from, to) {
            Ok(t) => {
                self.world.borrow_mut().state = t;
                self.just_entered = true;
                Ok(())
            }
            Err(msg) => Err(self.flow_error(msg, hook)),
        }
    }

    fn flow_error(&self, msg: String, hook: &str) -> GameError {
        let w = self.world.borrow();
        let note = context(&self.pkg, &self.host, w.state, hook);
        let mut diag = Diagnostic::error(&self.host.rules_path, msg).note(note);
        if let Some(f) = self.hook_function(w.state, hook) {
            let info = f.info();
            if let (Some(src), Some(line)) = (info.short_src, info.line_defined) {
                diag.path = src;
                diag.line = Some(line);
            }
        }
        GameError::Script(ScriptError(diag))
    }

    /// The Lua function behind a state's hook, to point errors at its definition.
    fn hook_function(&self, state: usize, hook: &str) -> Option<mlua::Function> {
        let hooks = self.host.hooks.get(state)?;
        match hook {
            "enter" => hooks.enter.clone(),
            "options" => hooks.options.clone(),
            "act" => hooks.act.clone(),
            _ => None,
        }
    }

    /// Runs automatic states until a decision or the end.
    fn settle(&mut self) -> Result<(), GameError> {
        let mut trail: Vec<usize> = Vec::new();
        loop {
            let state = self.world.borrow().state;
            let spec = &self.pkg.flow.states[state];
            let hooks = &self.host.hooks[state];
            if self.just_entered && (spec.decide || spec.terminal) {
                self.just_entered = false;
                if let Some(enter) = hooks.enter.clone() {
                    let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "enter");
                    let next: Option<String> =
                        self.host.call(&enter, (&self.g, &self.host.ctx), &ctx)?;
                    if let Some(name) = next {
                        self.transition(state, &name, "enter")?;
                        continue;
                    }
                }
            }
            if spec.terminal {
                self.world.borrow_mut().finish(Outcome::Draw);
                self.pending = None;
                return Ok(());
            }
            if spec.decide {
                return self.ask();
            }
            trail.push(state);
            if trail.len() > STEP_GUARD {
                return Err(self.stuck(&trail));
            }
            let enter = hooks.enter.clone().expect("checked at load");
            let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "enter");
            let next: Option<String> = self.host.call(&enter, (&self.g, &self.host.ctx), &ctx)?;
            let Some(name) = next else {
                let msg = format!(
                    "automatic state '{}' must return the name of the next state",
                    spec.name
                );
                return Err(self.flow_error(msg, "enter"));
            };
            self.transition(state, &name, "enter")?;
        }
    }

    fn stuck(&self, trail: &[usize]) -> GameError {
        let tail: Vec<&str> = trail[trail.len() - 6..]
            .iter()
            .map(|s| self.pkg.flow.name(*s))
            .collect();
        let msg = format!(
            "no decision reached after {STEP_GUARD} automatic steps: the flow cycles ({} → …)",
            tail.join(" → ")
        );
        self.flow_error(msg, "enter")
    }

    fn ask(&mut self) -> Result<(), GameError> {
        let (seat, round) = self.host.turn_state().map_err(|e| self.lua_failure(e))?;
        if let Some(cap) = self.round_cap {
            if round > cap {
                self.world
                    .borrow_mut()
                    .finish(Outcome::Capped { round: cap });
                self.pending = None;
                return Ok(());
            }
        }
        let state = self.world.borrow().state;
        let options_fn = self.host.hooks[state]
            .options
            .clone()
            .expect("checked at load");
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "options");
        let list: Value = self
            .host
            .call(&options_fn, (&self.g, &self.host.ctx), &ctx)?;
        let problem: Option<String> =
            self.host
                .call(&self.host.check_options, list.clone(), &ctx)?;
        if let Some(m) = problem {
            return Err(self.flow_error(m, "options"));
        }
        let Value::Table(list) = list else {
            unreachable!("checked by check_options")
        };
        if list.raw_len() == 0 {
            let msg = format!(
                "decision state '{}' offered no options",
                self.pkg.flow.name(state)
            );
            return Err(self.flow_error(msg, "options"));
        }
        self.pending = Some(Pending::new(seat, list));
        Ok(())
    }

    pub fn snapshot(&self) -> Result<Snapshot, GameError> {
        let g = to_json(&Value::Table(self.g.clone()), "G")
            .map_err(|m| self.flow_error(m, "snapshot"))?;
        self.sync_world();
        let mut w = self.world.borrow_mut();
        let events = std::mem::take(&mut w.events);
        let world = w.clone();
        w.events = events;
        Ok(Snapshot {
            state: self.pkg.flow.name(world.state).to_string(),
            world,
            g,
        })
    }

    fn snapshot_with_pending(&mut self, p: &Pending) -> Result<Snapshot, GameError> {
        self.pending = Some(Pending::new(p.seat, p.lua_options.clone()));
        let snap = self.snapshot();
        self.pending = None;
        snap
    }

    /// Puts the game back exactly where `snap` was taken; history is cut to `history_len`.
    pub fn restore(&mut self, snap: &Snapshot) -> Result<(), GameError> {
        let Some(state) = self.pkg.flow.index(&snap.state) else {
            return Err(GameError::Rejected(format!(
                "the saved state '{}' does not exist in this game's flow",
                snap.state
            )));
        };
        let g = from_json(&self.host.lua, &snap.g).map_err(|e| self.lua_failure(e))?;
        let Value::Table(g) = g else {
            return Err(GameError::Rejected("the saved G is not a table".into()));
        };
        self.g = g;
        let record = self.world.borrow().record_events;
        let mut world = snap.world.clone();
        world.state = state;
        world.record_events = record;
        *self.world.borrow_mut() = world;
        self.host
            .push_world(&self.world.borrow())
            .map_err(|e| self.lua_failure(e))?;
        self.just_entered = false;
        self.pending = None;
        if self.world.borrow().outcome.is_some() {
            return Ok(());
        }
        self.settle()
    }

    /// Steps back one decision; false when there is nothing to undo.
    pub fn undo(&mut self) -> Result<bool, GameError> {
        let Some((snap, len)) = self.undo.as_mut().and_then(|u| u.pop()) else {
            return Ok(false);
        };
        let now = self.snapshot()?;
        self.restore(&snap)?;
        self.redo.push((now, self.history.clone()));
        self.history.truncate(len);
        Ok(true)
    }

    /// Replays the last undone decision; false when there is nothing to redo (a new decision
    /// after an undo clears what could be redone).
    pub fn redo(&mut self) -> Result<bool, GameError> {
        let Some((snap, history)) = self.redo.pop() else {
            return Ok(false);
        };
        let now = self.snapshot()?;
        if let Some(u) = &mut self.undo {
            u.push((now, self.history.len()));
        }
        self.restore(&snap)?;
        self.history = history;
        Ok(true)
    }

    /// Scores every pending option with the AI's `score` function.
    pub fn score_options(&self) -> Result<Vec<f64>, GameError> {
        self.with_ai_scores(&self.host.scores)
    }

    /// Calls a prelude helper with (AI.score, G, ctx, seat, options) for the pending decision.
    fn with_ai_scores<R: mlua::FromLuaMulti>(
        &self,
        helper: &mlua::Function,
    ) -> Result<R, GameError> {
        let (Some(ai), Some(p)) = (&self.host.ai, &self.pending) else {
            return Err(GameError::Rejected(format!(
                "game '{}' has no ai script with a score function",
                self.pkg.id
            )));
        };
        let score: mlua::Function = ai.get("score").map_err(|e| self.lua_failure(e))?;
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "ai.score");
        let args = (score, &self.g, &self.host.ctx, p.seat + 1, &p.lua_options);
        Ok(self.host.call(helper, args, &ctx)?)
    }

    /// Whether the game has an AI script (its scores can guide search).
    pub fn has_ai(&self) -> bool {
        self.host.ai.is_some()
    }

    /// Runs `f` (a search that plays ahead and restores the position) with the event log,
    /// history and undo/redo set aside, so nothing it plays is recorded.
    pub fn searching<R>(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        let (events, record) = {
            let mut w = self.world.borrow_mut();
            (std::mem::take(&mut w.events), w.record_events)
        };
        self.set_record_events(false);
        let history = std::mem::take(&mut self.history);
        let undo = self.undo.take();
        let redo = std::mem::take(&mut self.redo);
        let result = f(self);
        self.set_record_events(record);
        self.world.borrow_mut().events = events;
        self.history = history;
        self.undo = undo;
        self.redo = redo;
        result
    }

    /// Plays random moves from the pending decision to the end (or `max_steps` decisions, or
    /// the round cap) inside the VM, for search bots. Leaves the game where the playout
    /// stopped with nothing pending: restore a snapshot to go on.
    pub fn random_playout(&mut self, max_steps: usize) -> Result<(), GameError> {
        if self.pending.take().is_none() {
            return Ok(());
        }
        let state = self.world.borrow().state;
        let name = self.pkg.flow.name(state).to_string();
        let w = self.world.clone();
        let pick_rng = self
            .host
            .lua
            .create_function(move |_, n: u64| Ok(w.borrow_mut().rng.below(n.max(1)) + 1))
            .map_err(|e| self.lua_failure(e))?;
        let args = (
            &self.g,
            &self.host.ctx,
            &self.host.rules,
            &self.host.flow,
            name,
            false,
            max_steps,
            self.round_cap,
            pick_rng,
        );
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "playout");
        let (end, _steps): (String, usize) = self.host.call(&self.host.playout, args, &ctx)?;
        let index = self.pkg.flow.index(&end).unwrap_or(state);
        let mut w = self.world.borrow_mut();
        w.state = index;
        if self.pkg.flow.states[index].terminal {
            w.finish(Outcome::Draw);
        }
        Ok(())
    }

    /// The best score of the AI's `score` function and the options that reach it.
    pub fn best_options(&self) -> Result<(f64, Vec<usize>), GameError> {
        let (best, tied): (f64, mlua::Variadic<usize>) = self.with_ai_scores(&self.host.best)?;
        Ok((best, tied.iter().map(|i| i - 1).collect()))
    }

    /// A human-readable label for an option: the rules' `label` hook or the action itself.
    pub fn label(&self, index: usize) -> String {
        let Some(p) = &self.pending else {
            return String::new();
        };
        let plain = p.options()[index].to_string();
        let Some(label) = crate::script::api::function_at(&self.host.rules, "label") else {
            return plain;
        };
        let Ok(option) = p.lua_options.raw_get::<Table>(index + 1) else {
            return plain;
        };
        let ctx = || String::new();
        match self
            .host
            .call::<Option<String>>(&label, (&self.g, &self.host.ctx, option), &ctx)
        {
            Ok(Some(text)) => text,
            _ => plain,
        }
    }

    /// Lines the rules' `status` hook wants shown for `seat` (holdings, jail, …).
    pub fn status_lines(&self, seat: usize) -> Result<Vec<String>, GameError> {
        let Some(status) = crate::script::api::function_at(&self.host.rules, "status") else {
            return Ok(Vec::new());
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "status");
        let lines: Option<Vec<String>> =
            self.host
                .call(&status, (&self.g, &self.host.ctx, seat + 1), &ctx)?;
        Ok(lines.unwrap_or_default())
    }

    /// The numbers of the rules' `stats` hook, sorted by name.
    pub fn stats(&self) -> Result<Vec<(String, f64)>, GameError> {
        let Some(stats) = crate::script::api::function_at(&self.host.rules, "stats") else {
            return Ok(Vec::new());
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "stats");
        let t: Option<Table> = self.host.call(&stats, (&self.g, &self.host.ctx), &ctx)?;
        let mut out: Vec<(String, f64)> = t
            .map(|t| t.pairs::<String, f64>().flatten().collect())
            .unwrap_or_default();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// Runs a Lua chunk with `G`, `ctx` and `R` in scope and returns its result as JSON.
    pub fn eval(&self, code: &str) -> Result<serde_json::Value, GameError> {
        let lua = &self.host.lua;
        let env = lua.create_table().map_err(|e| self.lua_failure(e))?;
        let globals = lua.globals();
        let meta = lua.create_table().map_err(|e| self.lua_failure(e))?;
        meta.raw_set("__index", globals)
            .map_err(|e| self.lua_failure(e))?;
        env.set_metatable(Some(meta))
            .map_err(|e| self.lua_failure(e))?;
        for (k, v) in [
            ("G", &self.g),
            ("ctx", &self.host.ctx),
            ("R", &self.host.rules),
        ] {
            env.raw_set(k, v.clone()).map_err(|e| self.lua_failure(e))?;
        }
        let chunk = lua.load(code).set_name("@eval").set_environment(env);
        let f = chunk.into_function().map_err(|e| {
            GameError::Script(ScriptError(Diagnostic::from_lua_message(
                &crate::script::host::lua_message(&e),
                "eval",
            )))
        })?;
        let ctx = || "in eval".to_string();
        let v: Value = self.host.call(&f, (), &ctx)?;
        let json = match &v {
            Value::Function(_) | Value::UserData(_) | Value::Thread(_) => {
                serde_json::Value::String(format!("<{}>", v.type_name()))
            }
            _ => to_json(&v, "result").map_err(GameError::Rejected)?,
        };
        Ok(json)
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

fn read_option_table(t: &Table) -> Result<Action, String> {
    let mut parts = t.sequence_values::<Value>();
    let verb = match parts.next() {
        Some(Ok(Value::String(s))) => s.to_str().map_err(|e| e.to_string())?.to_string(),
        _ => return Err("the first element must be the verb (a string)".into()),
    };
    let mut action = Action::new(verb);
    for p in parts {
        let arg = match p.map_err(|e| e.to_string())? {
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
        };
        action.args.push(arg);
    }
    Ok(action)
}
