//! The sandboxed Lua VM of one running game: allow-listed libraries, `require` confined to the
//! game folder and the shared `scripts/`, a memory limit, an instruction budget per call, chunk
//! names that make errors read `path:line:`, and the loaded rules and AI tables.

use super::luaapi::{REMOVED, REMOVED_LIBRARIES};
use super::watchdog::Guard;
use crate::core::live::Live;
use crate::core::rules::{Decision, Policy, ScriptError};
use crate::core::world::Snapshot;
use crate::def::board::Board;
use crate::def::Package;
use crate::diag::{did_you_mean, Diagnostic};
use mlua::prelude::{LuaGcGenParams, LuaGcMode};
use mlua::{Function, IntoLuaMulti, Lua, LuaOptions, StdLib, Table, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// Instructions a call into Lua may still run once the watchdog has armed it.
pub const DEFAULT_BUDGET: u64 = 20_000_000;
/// Memory the VM may hold.
pub const MEMORY_LIMIT: usize = 256 << 20;
/// Registry key of the modules `require` has loaded.
const LOADED: &str = "meeple.loaded";

/// The rules' hooks that belong to no state, read once when the rules load (a rules table's
/// metamethods run then, under the budget, never again).
#[derive(Default, Clone)]
pub struct GameHooks {
    pub setup: Option<Function>,
    pub label: Option<Function>,
    pub spot: Option<Function>,
    pub status: Option<Function>,
    pub stats: Option<Function>,
    pub why_not: Option<Function>,
}

/// Lua handlers of one flow state.
#[derive(Default, Clone)]
pub struct StateHooks {
    pub enter: Option<Function>,
    pub options: Option<Function>,
    pub act: Option<Function>,
    /// Who a simultaneous state asks.
    pub seats: Option<Function>,
}

impl StateHooks {
    /// The hooks in a state's table `t` (R.states.<name>); a key that is no function is none.
    fn of(t: &Table) -> StateHooks {
        let get = |hook: &str| t.get::<Option<Function>>(hook).ok().flatten();
        StateHooks {
            enter: get("enter"),
            options: get("options"),
            act: get("act"),
            seats: get("seats"),
        }
    }
}

pub struct Host {
    pub lua: Lua,
    lua_state: *mut mlua::ffi::lua_State,
    budget: u64,
    pub pkg: Arc<Package>,
    pub board: Board,
    pub seats: usize,
    /// A grid map's rows and columns.
    pub grid: Option<(usize, usize)>,
    /// Decisions the driver plays per call: where the last calls settled (see `Rules::drive`).
    pub chunk: u64,
    pub rules: Table,
    pub ai: Option<Table>,
    /// `AI.styles`, by name in sorted order.
    pub styles: Vec<(String, Table)>,
    pub game: GameHooks,
    pub hooks: Vec<StateHooks>,
    /// Problems that do not stop the game (a hook the API no longer calls).
    pub warnings: Vec<Diagnostic>,
    pub ctx: Table,
    /// The components kept in Rust (generator, decks, grid, outcome, events).
    pub live: Rc<RefCell<Live>>,
    pub rules_path: String,
    /// The components kept in Lua (turn order, tokens, owners, levels, counters, zones,
    /// tallies) and the flow's state: the table `S` of the prelude and the driver.
    pub state: Table,
    /// The driver (`driver.lua`) and its record for this game (`D.new`).
    pub driver: Table,
    pub run: Table,
    pub tiebreak: super::tiebreak::TieBreak,
    /// Each state's checked hooks and flow facts as one Lua record, for the driver (see
    /// `fill_states`).
    pub states: Table,
    /// The pending decision as the engine sees it.
    pub decision: Option<Decision>,
    /// Positions a search comes back to (freed slots are `None`).
    pub marks: Vec<Option<Marked>>,
    /// The seats' policies the driver was last given (`Rules::drive`).
    pub policies: Vec<Policy>,
    /// Where `eval` (and so the console) runs: the globals an entry sets stay for the next
    /// one, out of the rules' sight; other names are read from the sandbox's globals.
    pub eval_env: Table,
    /// The prelude's `readable(v)`: what `eval` shows of a value (a read-only view such as
    /// ctx.counters, by what it holds).
    pub readable: Function,
    /// The field names the host uses often, as Lua strings.
    pub keys: super::keys::Keys,
}

/// A remembered position: its snapshot, the pending options list and seat as the driver left
/// them, and the decision as the engine saw it.
pub type Marked = (Snapshot, Value, usize, Option<Decision>);

impl Host {
    /// Builds a VM for `pkg` on `board` with `seats` seats, loads the rules and AI and checks
    /// them against the flow and the cards. Every problem found is returned.
    pub fn load(
        pkg: Arc<Package>,
        board: &Board,
        settings: &toml::Table,
        seats: usize,
        seed: u64,
    ) -> Result<Host, Vec<Diagnostic>> {
        let rules_path = pkg.file(&pkg.rules_file);
        let fail = |e: mlua::Error| {
            vec![Diagnostic::error(
                &rules_path,
                format!("cannot start Lua: {e}"),
            )]
        };
        let lua = sandbox().map_err(fail)?;
        let lua_state = main_state(&lua).map_err(fail)?;
        install_require(&lua, &pkg).map_err(fail)?;
        let live = Rc::new(RefCell::new(Live::new(seats, seed)));
        let ctx = super::api::build_ctx(&lua, board, settings, pkg.melds.as_ref(), live.clone())
            .map_err(fail)?;
        ctx.raw_set("items", pkg.items.names.clone())
            .map_err(fail)?;
        let natives = super::rawoptions::natives(&lua).map_err(fail)?;
        let prelude: Table = text_chunk(&lua, include_str!("prelude.lua"), crate::diag::PRELUDE)
            .call(&natives)
            .map_err(fail)?;
        let driver: Table = text_chunk(&lua, include_str!("driver.lua"), crate::diag::DRIVER)
            .call(&natives)
            .map_err(fail)?;
        for t in [&prelude, &driver] {
            t.raw_set("where", where_defined(&lua).map_err(fail)?)
                .map_err(fail)?;
        }
        prelude
            .raw_set("did_you_mean", near_name(&lua).map_err(fail)?)
            .map_err(fail)?;
        let (state, emit) =
            install_components(&lua, &prelude, &ctx, &pkg, board, &live, seats).map_err(fail)?;
        let tiebreak = super::tiebreak::TieBreak::install(&lua).map_err(fail)?;
        let states = lua.create_table().map_err(fail)?;
        let cap = super::rules::round_cap(settings);
        let new_run: Function = driver.raw_get("new").map_err(fail)?;
        let run: Table = new_run
            .call((
                lua.create_table().map_err(fail)?,
                &ctx,
                &state,
                Value::Nil,
                &states,
                cap.map_or(Value::Boolean(false), |c| Value::Integer(c as i64)),
                crate::core::flow::STEP_GUARD as i64,
                &tiebreak.draw,
                emit,
            ))
            .map_err(fail)?;
        let readable: Function = prelude.raw_get("readable").map_err(fail)?;
        let eval_env = lua.create_table().map_err(fail)?;
        let meta = lua.create_table().map_err(fail)?;
        meta.raw_set("__index", lua.globals()).map_err(fail)?;
        eval_env.set_metatable(Some(meta)).map_err(fail)?;
        let keys = super::keys::Keys::new(&lua).map_err(fail)?;
        let mut host = Host {
            lua,
            lua_state,
            budget: DEFAULT_BUDGET,
            pkg: pkg.clone(),
            board: board.clone(),
            seats,
            grid: board.grid_size(settings).ok().flatten(),
            chunk: super::rules::FIRST_CHUNK,
            rules: Table::clone(&ctx),
            ai: None,
            styles: Vec::new(),
            game: GameHooks::default(),
            hooks: Vec::new(),
            warnings: Vec::new(),
            ctx,
            live,
            rules_path: rules_path.clone(),
            state,
            driver,
            run,
            tiebreak,
            states,
            decision: None,
            marks: Vec::new(),
            policies: Vec::new(),
            eval_env,
            readable,
            keys,
        };
        host.rules = host.load_table(&pkg.rules_file)?;
        host.register_module(&pkg.rules_file, &host.rules)
            .map_err(fail)?;
        host.run.raw_set("R", host.rules.clone()).map_err(fail)?;
        if let Some(ai) = &pkg.ai_file {
            host.ai = Some(host.load_table(ai)?);
        }
        let mut diags = Vec::new();
        // Reading the tables may run their metamethods: under the budget.
        let (mut hooks, mut game, mut styles, mut warnings) = Default::default();
        let read = host.budgeted(|| {
            hooks = check_states(&host.rules, &pkg, &rules_path, &mut diags);
            fill_states(&host.lua, &host.states, &pkg.flow, &hooks)?;
            check_effects(&host.rules, board, &rules_path, &mut diags);
            let ai_path = (pkg.ai_file.as_ref()).map_or(String::new(), |a| pkg.file(a));
            check_ai(host.ai.as_ref(), &ai_path, &mut diags);
            game = game_hooks(&host.rules, &rules_path, &mut warnings);
            let paths = (rules_path.as_str(), ai_path.as_str());
            warnings.extend(misspelled_hooks(&host.rules, host.ai.as_ref(), paths));
            warnings.extend(unused_hooks(&pkg.flow, &hooks, &rules_path));
            styles = ai_styles(host.ai.as_ref());
            Ok(())
        });
        (host.hooks, host.game, host.styles, host.warnings) = (hooks, game, styles, warnings);
        if let Err(e) = read {
            diags.push(Diagnostic::from_lua_message(&lua_message(&e), &rules_path));
        }
        if diags.is_empty() {
            Ok(host)
        } else {
            // A misspelt hook's warning is often the reason for the error (a hook missing):
            // sorted by line, it is read beside it.
            diags.append(&mut host.warnings);
            crate::diag::sort(&mut diags);
            Err(diags)
        }
    }

    /// Whether events are recorded: `S.record`, and `ctx:log` with it (see the prelude).
    pub fn set_record(&self, on: bool) -> mlua::Result<()> {
        self.state
            .raw_get::<Function>("set_record")?
            .call::<()>(on)?;
        self.live.borrow_mut().record_events = on;
        Ok(())
    }

    /// Makes `require("<name>")` return `table` (so ai.lua shares the live rules table).
    fn register_module(&self, file: &str, table: &Table) -> mlua::Result<()> {
        let name = file.trim_end_matches(".lua").replace('/', ".");
        let loaded: Table = self.lua.named_registry_value(LOADED)?;
        loaded.raw_set(name, table.clone())
    }

    /// Runs the game's Lua file `rel` (as read with the package), which returns a table.
    fn load_table(&self, rel: &str) -> Result<Table, Vec<Diagnostic>> {
        let shown = &self.pkg.file(rel);
        let missing = || Diagnostic::error(shown, "cannot read: the file is not there");
        let (_, code) = (self.pkg.scripts.own(rel).cloned())
            .unwrap_or_else(|| Err(missing()))
            .map_err(|d| vec![d])?;
        let chunk = text_chunk(&self.lua, &code, shown);
        match self.budgeted(|| chunk.call::<Value>(())) {
            Ok(Value::Table(t)) => Ok(t),
            Ok(other) => Err(vec![Diagnostic::error(
                shown,
                format!(
                    "the script must return a table (it returned {})",
                    other.type_name()
                ),
            )]),
            Err(e) => Err(vec![Diagnostic::from_lua_message(&lua_message(&e), shown)]),
        }
    }

    /// Calls `f` under the instruction budget; errors carry `context` as a note. `context`
    /// runs after the call's guard is gone, so it may call Lua even when the call ran out of
    /// budget. An error raised inside the runtime's own Lua (the driver, which calls hooks
    /// that may raise at their caller's level) is located at the script line of the traceback.
    pub fn call<R: mlua::FromLuaMulti>(
        &self,
        f: &Function,
        args: impl IntoLuaMulti,
        context: &dyn Fn() -> String,
    ) -> Result<R, ScriptError> {
        let result = self.budgeted(|| f.call::<R>(args));
        result.map_err(|e| {
            let message = lua_message(&e);
            let diag = Diagnostic::from_lua_message(&message, &self.unlocated_path(f));
            ScriptError(at_hook(diag.note(context()), Some(f)))
        })
    }

    /// `AI.styles[name]`, an alternative strategy of the same AI script.
    pub fn style(&self, name: &str) -> Option<&Table> {
        self.styles.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// Runs `call` under the instruction budget; once the budget is spent the call fails with
    /// the budget's error, whatever became of it inside (a `pcall` that caught it).
    pub fn budgeted<R>(&self, call: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        let guard = Guard::new(self.lua_state, self.budget);
        let result = call();
        match guard.spent() {
            Some(message) => Err(mlua::Error::RuntimeError(message)),
            None => result,
        }
    }

    /// A game starts: `sim --profile` samples it from here (`profile::game_starts`).
    pub(super) fn game_starts(&self) {
        // SAFETY: the VM's main state, on its thread, between calls.
        unsafe { super::profile::game_starts(self.lua_state) }
    }

    /// Where an error found at no line of a script's is reported: the file of the function
    /// called (a hook's, an `eval` chunk's), or the rules for the runtime's own helpers.
    fn unlocated_path(&self, f: &Function) -> String {
        script_file(&f.info()).unwrap_or_else(|| self.rules_path.clone())
    }
}

/// A chunk of Lua source (never bytecode) named `@shown`, so that its errors read `shown:line:`.
pub fn text_chunk<'a>(lua: &'a Lua, code: &'a str, shown: &str) -> mlua::chunk::Chunk<'a> {
    crate::diag::note_chunk_name(shown);
    lua.load(code)
        .set_name(format!("@{shown}"))
        .set_mode(mlua::chunk::ChunkMode::Text)
}

/// The syntax errors of Lua files (each its path as shown and its text), compiled without
/// running, in a VM of their own.
pub fn syntax_problems(files: &[(String, String)]) -> Vec<Diagnostic> {
    let lua = Lua::new();
    files
        .iter()
        .filter_map(|(shown, code)| {
            text_chunk(&lua, code, shown)
                .into_function()
                .err()
                .map(|e| (shown, e))
        })
        .map(|(shown, e)| Diagnostic::from_lua_message(&lua_message(&e), shown))
        .collect()
}

/// The rules' hooks of the whole game. `R.view` was one; it is read no more (`G` is public:
/// secrets live in zones), which a warning says.
fn game_hooks(rules: &Table, path: &str, warnings: &mut Vec<Diagnostic>) -> GameHooks {
    let get = |name: &str| super::api::function_at(rules, name);
    if get("view").is_some() {
        warnings.push(Diagnostic::warning(
            path,
            "R.view is no longer called: G is public to every seat; keep what a seat may not see in zones (game.toml [zones])",
        ));
    }
    GameHooks {
        setup: get("setup"),
        label: get("label"),
        spot: get("spot"),
        status: get("status"),
        stats: get("stats"),
        why_not: get("why_not"),
    }
}

/// Warnings for the keys of `t` (a table of class `class`, written `shown` in messages,
/// read from `path`) that name no member but a function one letter off one: a hook
/// misspelled is never called (helpers the rules keep beside their hooks are further off).
/// With `closed` (a state's table holds its hooks and nothing else) every key that is not a
/// member is warned about. Each is located at its function; by key when it is none.
fn misspelled(t: &Table, class: &str, shown: &str, path: &str, closed: bool) -> Vec<Diagnostic> {
    let members = super::luaapi::member_names(class);
    let mut keys: Vec<(String, Value)> = (t.pairs::<Value, Value>().flatten())
        .filter_map(|(k, v)| match k {
            Value::String(k) => Some((k.to_string_lossy(), v)),
            _ => None,
        })
        .collect();
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (key, value) in keys {
        if members.contains(&key.as_str()) {
            continue;
        }
        let one_off = |m: &&&str| strsim::damerau_levenshtein(&key, m) == 1;
        let near = value
            .is_function()
            .then(|| members.iter().find(one_off))
            .flatten();
        let message = match near {
            Some(m) => {
                format!("{shown}.{key} is not read by the runtime; did you mean {shown}.{m}?")
            }
            None if closed => format!(
                "{shown}.{key} is not read by the runtime: a state's keys are {}",
                members.join(", ")
            ),
            None => continue,
        };
        let mut d = Diagnostic::warning(path, message);
        if let Value::Function(f) = value {
            let info = f.info();
            if file_of(&info).as_deref() == Some(path) {
                d.line = info.line_defined;
            }
        }
        out.push(d);
    }
    out
}

/// Warnings for misspelled hooks (`misspelled`) in the rules, each state and the AI tables.
fn misspelled_hooks(rules: &Table, ai: Option<&Table>, paths: (&str, &str)) -> Vec<Diagnostic> {
    let (rules_path, ai_path) = paths;
    let mut out = misspelled(rules, "meeple.Rules", "R", rules_path, false);
    if let Ok(Value::Table(states)) = rules.get::<Value>("states") {
        for (name, state) in states.pairs::<String, Value>().flatten() {
            if let Value::Table(state) = state {
                let shown = field("R.states", &name);
                out.extend(misspelled(&state, "meeple.State", &shown, rules_path, true));
            }
        }
    }
    if let Some(ai) = ai {
        out.extend(misspelled(ai, "meeple.AI", "AI", ai_path, false));
        for (name, style) in ai_styles(Some(ai)) {
            let shown = field("AI.styles", &name);
            out.extend(misspelled(&style, "meeple.AI", &shown, ai_path, false));
        }
    }
    out
}

/// `AI.styles` as (name, table) pairs in name order; entries that are not tables are skipped
/// (`check_ai` reports them).
fn ai_styles(ai: Option<&Table>) -> Vec<(String, Table)> {
    let Some(Ok(Value::Table(styles))) = ai.map(|ai| ai.get::<Value>("styles")) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Table)> = styles.pairs::<String, Table>().flatten().collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// How an error of memory spent begins.
const OUT_OF_MEMORY: &str = "out of memory";

/// Places an error Lua left on no line at the first line of `hook`, the script function it
/// happened in: a hook that ends in `return f(...)` leaves no frame of its own behind.
pub fn at_hook(mut d: Diagnostic, hook: Option<&Function>) -> Diagnostic {
    let info = match hook.map(|f| f.info()) {
        Some(info) if d.line.is_none() => info,
        _ => return d,
    };
    // (a chunk's main function, such as an `eval` entry, begins at no line)
    if let (Some(path), Some(line @ 1..)) = (script_file(&info), info.line_defined) {
        (d.path, d.line) = (path, Some(line));
        let why = match d.message.starts_with(OUT_OF_MEMORY) {
            true => "Lua names no line for running out of memory",
            false => "a call made by `return f(...)` leaves no line",
        };
        d.notes
            .push(format!("line {line} is where the hook begins: {why}"));
    }
    d
}

/// The script file a Lua function is written in, as shown; none for the runtime's own
/// (the prelude, the driver) and for chunks that are no file.
fn script_file(info: &mlua::function::FunctionInfo) -> Option<String> {
    let path = info.source.as_deref()?.strip_prefix('@')?;
    (!crate::diag::is_runtime(path)).then(|| path.to_string())
}

/// The file a Lua function is written in, as shown (its chunk's whole name: Lua shortens
/// `short_src` past 60 bytes).
pub fn file_of(info: &mlua::function::FunctionInfo) -> Option<String> {
    match info.source.as_deref().and_then(|s| s.strip_prefix('@')) {
        Some(path) => Some(path.to_string()),
        None => info.short_src.clone(),
    }
}

/// `where(f)`: `path:line` of the Lua function f's definition (the prelude's errors about what
/// a script function returned point there, as the `debug` library is not in the sandbox).
fn where_defined(lua: &Lua) -> mlua::Result<Function> {
    lua.create_function(|_, f: Function| {
        let info = f.info();
        Ok(format!(
            "{}:{}",
            file_of(&info).unwrap_or_default(),
            info.line_defined.unwrap_or(0)
        ))
    })
}

/// `did_you_mean(word, names)` for the prelude: the name in the list `names` closest to `word`,
/// or nil.
fn near_name(lua: &Lua) -> mlua::Result<Function> {
    lua.create_function(|_, (word, names): (String, Vec<String>)| {
        Ok(did_you_mean(&word, names.iter().map(String::as_str)).map(str::to_string))
    })
}

/// The prelude's live components (`S`) over `ctx`, and the functions that log their events.
fn install_components(
    lua: &Lua,
    prelude: &Table,
    ctx: &Table,
    pkg: &Package,
    board: &Board,
    live: &Rc<RefCell<Live>>,
    seats: usize,
) -> mlua::Result<(Table, Table)> {
    let spec = lua.create_table()?;
    spec.raw_set("seats", seats)?;
    spec.raw_set("spaces", board.spaces.len())?;
    spec.raw_set("looped", board.looped)?;
    spec.raw_set("counters", pkg.counters.clone())?;
    let zones = lua.create_table()?;
    for (i, z) in pkg.zones.iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("name", z.name.as_str())?;
        t.raw_set("per_seat", z.per_seat)?;
        zones.raw_set(i + 1, t)?;
    }
    spec.raw_set("zones", zones)?;
    spec.raw_set("items", item_tables(lua, &pkg.items)?)?;
    spec.raw_set("own_fields", crate::def::items::RESERVED)?;
    let emit = super::api::emit_api(lua, board, &pkg.items, live, pkg.hides_piles())?;
    let install: Function = prelude.get("install")?;
    let state: Table = install.call((ctx.clone(), spec, emit.clone()))?;
    let sizes = (seats, board.spaces.len(), !board.looped);
    let on_board = ctx.raw_get("board")?;
    super::rawboard::install(lua, &on_board, &state, emit.raw_get("move")?, live, sizes)?;
    prelude.get::<Function>("seal")?.call::<()>(ctx)?;
    Ok((state, emit))
}

/// Each item's table (1-based by code + 1): its code, name, label and fields.
fn item_tables(lua: &Lua, items: &crate::def::items::Items) -> mlua::Result<Table> {
    let list = lua.create_table()?;
    for (code, name) in items.names.iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("code", code)?;
        t.raw_set("name", name.as_str())?;
        t.raw_set("label", items.labels[code].as_str())?;
        for (field, value) in items
            .fields
            .iter()
            .zip(items.values.get(code).into_iter().flatten())
        {
            t.raw_set(field.as_str(), super::api::toml_to_lua(lua, value)?)?;
        }
        list.raw_set(code + 1, t)?;
    }
    Ok(list)
}

/// name → { enter, options, act, seats, next, auto, decide, final, forced, plain, priority,
/// default } for every state: the checked hooks beside the flow facts, the one Lua form of the
/// flow that the driver reads (`next`: each state it may move to, name → that state's record,
/// so a move costs one lookup; `auto`: neither a decision nor final; `forced`: a lone option
/// is played without asking; `priority`: a simultaneous state's verb ranks; `default`: its
/// default answer).
fn fill_states(
    lua: &Lua,
    t: &Table,
    flow: &crate::core::flow::Flow,
    hooks: &[StateHooks],
) -> mlua::Result<()> {
    let records: Vec<Table> = flow
        .states
        .iter()
        .map(|_| lua.create_table())
        .collect::<mlua::Result<_>>()?;
    for ((spec, h), st) in flow.states.iter().zip(hooks).zip(&records) {
        st.raw_set("enter", h.enter.clone())?;
        st.raw_set("options", h.options.clone())?;
        st.raw_set("act", h.act.clone())?;
        st.raw_set("seats", h.seats.clone())?;
        let next = lua.create_table()?;
        for n in &spec.next {
            next.raw_set(flow.name(*n), &records[*n])?;
        }
        st.raw_set("next", next)?;
        st.raw_set("auto", !spec.decide && !spec.terminal)?;
        st.raw_set("decide", spec.decide && !spec.terminal)?;
        st.raw_set("final", spec.terminal)?;
        st.raw_set("forced", spec.forced)?;
        // A decision state with no enter hook: entering it runs nothing.
        let plain = spec.decide && !spec.terminal && h.enter.is_none();
        st.raw_set("plain", plain && spec.simultaneous.is_none())?;
        if let Some(sim) = &spec.simultaneous {
            let priority = lua.create_table()?;
            for (verb, p) in &sim.priority {
                priority.raw_set(verb.as_str(), *p)?;
            }
            st.raw_set("priority", priority)?;
            st.raw_set("default", sim.default.as_deref())?;
        }
        t.raw_set(spec.name.as_str(), st)?;
    }
    Ok(())
}

/// The innermost message of a Lua error. An error raised in a Rust function (a bad argument
/// to a `ctx` call) has no `path:line` of its own; the traceback of the Lua code that called it
/// is kept after the message then, so that the diagnostic points at the calling line.
pub fn lua_message(e: &mlua::Error) -> String {
    use mlua::Error as E;
    match e {
        E::CallbackError { cause, traceback } => {
            let inner = lua_message(cause);
            match inner.contains("stack traceback:") {
                true => inner,
                false => format!("{inner}\n{traceback}"),
            }
        }
        E::WithContext { cause, .. } => lua_message(cause),
        // A receiver that is not a table (`This`): its own message says it all.
        E::BadArgument { cause, pos: 1, .. } if matches!(**cause, E::RuntimeError(_)) => {
            lua_message(cause)
        }
        E::RuntimeError(m) => not_a_message(m).unwrap_or_else(|| m.clone()),
        E::SyntaxError { message, .. } => message.clone(),
        E::MemoryError(m) => format!("{OUT_OF_MEMORY} ({} MiB limit): {m}", MEMORY_LIMIT >> 20),
        E::ExternalError(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// An error raised with nil or a table instead of a message (`error()`, `error({code = 1})`),
/// which Lua shows as `nil` or a table's address, said in words (the traceback kept).
fn not_a_message(m: &str) -> Option<String> {
    let (first, rest) = m.split_once('\n').unwrap_or((m, ""));
    let address = |a: &str| {
        a.len() > 2 && a.starts_with("0x") && a[2..].chars().all(|c| c.is_ascii_hexdigit())
    };
    let what = match first.strip_prefix("table: ") {
        Some(a) if address(a) => "a table",
        _ if first == "nil" => "nil",
        _ => return None,
    };
    Some(format!(
        "error() was given {what}, not a message (raise error(\"text\")){}{rest}",
        if rest.is_empty() { "" } else { "\n" }
    ))
}

/// The VM's main thread, on which every call runs (for the watchdog's hook).
fn main_state(lua: &Lua) -> mlua::Result<*mut mlua::ffi::lua_State> {
    let mut state = std::ptr::null_mut();
    // SAFETY: the closure only records the pointer.
    unsafe { lua.exec_raw::<()>((), |s| state = s)? };
    Ok(state)
}

fn sandbox() -> mlua::Result<Lua> {
    let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    lua.set_memory_limit(MEMORY_LIMIT)?;
    // Most of what scripts allocate dies young (option lists, a turn's small tables):
    // generational collection visits the old objects (rules, maps, caches) less often.
    lua.gc_set_mode(LuaGcMode::Generational(LuaGcGenParams::default()));
    let g = lua.globals();
    for name in ["dofile", "loadfile", "load", "collectgarbage"] {
        g.raw_set(name, Value::Nil)?;
    }
    // Bytecode is neither loaded nor made.
    g.raw_get::<Table>("string")?.raw_set("dump", Value::Nil)?;
    // Strings' metatable is shared by every string: scripts may not change it.
    lua.load("getmetatable('').__metatable = false")
        .set_name("=sandbox")
        .exec()?;
    let math: Table = g.get("math")?;
    math.raw_set("random", Value::Nil)?;
    math.raw_set("randomseed", Value::Nil)?;
    let print = lua.create_function(|_, args: mlua::Variadic<Value>| {
        let parts: Vec<String> = args
            .iter()
            .map(|v| v.to_string().unwrap_or_else(|_| "?".into()))
            .collect();
        eprintln!("[lua] {}", parts.join("\t"));
        Ok(())
    })?;
    g.raw_set("print", print)?;
    lua.load(XPCALL).set_name("=sandbox").exec()?;
    forbid_libraries(&lua)?;
    Ok(lua)
}

/// `xpcall` that runs its handler once the error has unwound. Lua runs a message handler at
/// the point of the error, and an error the instruction budget raises is raised from a hook,
/// where hooks are off: a handler that looped there would never be stopped. (Scripts have no
/// `debug` library, so a handler could not read the stack at the error anyway.)
const XPCALL: &str = r#"
local pcall, type = pcall, type
local function finish(handler, ok, ...)
  if ok then return true, ... end
  local handled, result = pcall(handler, (...))
  return false, result
end
function xpcall(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  return finish(handler, pcall(f, ...))
end
"#;

/// Whether global `name` is one the sandbox removes: a library or a base function
/// (`luaapi::REMOVED_LIBRARIES` and `REMOVED`, which the editor types read too).
fn removed_global(name: &str) -> bool {
    REMOVED_LIBRARIES.iter().any(|(lib, _)| *lib == name) || REMOVED.iter().any(|(n, _)| *n == name)
}

/// Whether `library.name` is a function the sandbox removes (`math.random`).
fn removed_member(library: &str, name: &str) -> bool {
    REMOVED
        .iter()
        .any(|(n, _)| n.split_once('.') == Some((library, name)))
}

/// Reading a library the sandbox leaves out (`io`, `os`, …) is an error that says so, instead
/// of a puzzling "attempt to index a nil value".
fn forbid_libraries(lua: &Lua) -> mlua::Result<()> {
    let meta = lua.create_table()?;
    let index = lua.create_function(|lua, (_, name): (Value, Value)| {
        match name
            .as_string()
            .and_then(|s| s.to_str().ok().map(|s| s.to_string()))
        {
            Some(n) if removed_global(&n) => Err(api_error(
                lua,
                format!("'{n}' is not available to game scripts (no files, processes or clocks)"),
            )),
            _ => Ok(Value::Nil),
        }
    })?;
    meta.raw_set("__index", index)?;
    lua.globals().set_metatable(Some(meta))?;
    let math_meta = lua.create_table()?;
    let math_index = lua.create_function(|lua, (_, name): (Value, Value)| {
        match name.as_string().and_then(|s| s.to_str().ok().map(|s| s.to_string())) {
            Some(n) if removed_member("math", &n) => Err(api_error(
                lua,
                format!("math.{n} is not available: use ctx.random:int(lo, hi), the game's seeded generator"),
            )),
            _ => Ok(Value::Nil),
        }
    })?;
    math_meta.raw_set("__index", math_index)?;
    lua.globals()
        .raw_get::<Table>("math")?
        .set_metatable(Some(math_meta))
}

/// `require(name)`: only `<game>/<name>.lua` or the shared `scripts/<name>.lua` (see
/// `def::shared`), names of letters, digits, `_` and `.` (a dot is a folder separator); each
/// module runs once.
fn install_require(lua: &Lua, pkg: &Arc<Package>) -> mlua::Result<()> {
    let pkg = pkg.clone();
    let loaded = lua.create_table()?;
    lua.set_named_registry_value(LOADED, loaded.clone())?;
    let require = lua.create_function(move |lua, name: String| {
        if let Some(v) = loaded.raw_get::<Option<Value>>(name.as_str())? {
            return Ok(v);
        }
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            || name.contains("..")
        {
            return Err(api_error(
                lua,
                format!("require '{name}': module names may only use letters, digits, '_' and '.'"),
            ));
        }
        let rel = format!("{}.lua", name.replace('.', "/"));
        let Some(found) = pkg.scripts.find(&rel) else {
            let (own, shared) = (pkg.file(&rel), crate::def::shared::looked(&pkg.root, &rel));
            return Err(api_error(
                lua,
                format!("module '{name}' not found (looked in {own}{shared})"),
            ));
        };
        let (path, code) = found.clone().map_err(|d| api_error(lua, d.to_string()))?;
        let value: Value = text_chunk(lua, &code, &path).call(())?;
        let value = if value.is_nil() {
            Value::Boolean(true)
        } else {
            value
        };
        loaded.raw_set(name.as_str(), value.clone())?;
        Ok(value)
    })?;
    lua.globals().raw_set("require", require)
}

/// An error raised by a `ctx` function, located at the Lua line that called it.
pub fn api_error(lua: &Lua, message: String) -> mlua::Error {
    let at = lua
        .inspect_stack(1, |d| {
            let src = d.source().short_src.map(|s| s.to_string())?;
            Some(format!("{src}:{}: ", d.current_line()?))
        })
        .flatten()
        .unwrap_or_default();
    mlua::Error::RuntimeError(format!("{at}{message}"))
}

fn check_states(
    rules: &Table,
    pkg: &Package,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<StateHooks> {
    let states: Option<Table> = rules.get("states").ok();
    let Some(states) = states else {
        diags.push(Diagnostic::error(
            path,
            "the rules table has no 'states' table (R.states = { <state> = { ... } })",
        ));
        return Vec::new();
    };
    let text = match pkg.scripts.own(&pkg.rules_file) {
        Some(Ok((_, text))) => text.as_str(),
        _ => "",
    };
    let names: Vec<&str> = pkg.flow.states.iter().map(|s| s.name.as_str()).collect();
    for (key, value) in states.pairs::<String, Value>().flatten() {
        if !names.contains(&key.as_str()) {
            let hint = crate::diag::hint(&key, names.iter().copied());
            let msg = format!("R.states.{key}: no such state in game.toml [flow]{hint}");
            let hooks = match value {
                Value::Table(t) => StateHooks::of(&t),
                _ => StateHooks::default(),
            };
            // Where `R.states.KEY =` is written, else where its hooks are, else the one
            // `KEY =` of the file (a state in the table constructor without hooks).
            let mut d = beside_hooks(&hooks, Diagnostic::error(path, msg));
            let assigned = key_line(text, &format!("states.{key}"));
            d.line = assigned.or(d.line).or_else(|| only_key_line(text, &key));
            diags.push(d);
        }
    }
    pkg.flow
        .states
        .iter()
        .map(|spec| {
            let t: Option<Table> = states.get(spec.name.as_str()).ok();
            let hooks = t.as_ref().map(StateHooks::of).unwrap_or_default();
            let needed: &[(&str, bool)] = match (spec.terminal, spec.decide) {
                (true, _) => &[],
                (false, true) if spec.simultaneous.is_some() => &[
                    ("seats", hooks.seats.is_some()),
                    ("options", hooks.options.is_some()),
                    ("act", hooks.act.is_some()),
                ],
                (false, true) => &[
                    ("options", hooks.options.is_some()),
                    ("act", hooks.act.is_some()),
                ],
                (false, false) => &[("enter", hooks.enter.is_some())],
            };
            let missing: Vec<&str> = (needed.iter())
                .filter(|(_, present)| !present)
                .map(|(hook, _)| *hook)
                .collect();
            if t.is_none() && !missing.is_empty() {
                let mut d = Diagnostic::error(
                    path,
                    format!(
                        "state '{}' of game.toml [flow] has no R.states.{} table (it needs {})",
                        spec.name,
                        spec.name,
                        missing.join(" and ")
                    ),
                );
                d.line = key_line(text, "states");
                diags.push(d);
                return hooks;
            }
            for hook in missing {
                let msg = format!(
                    "state '{}' needs a function R.states.{}.{hook}",
                    spec.name, spec.name
                );
                let d = beside_hooks(&hooks, Diagnostic::error(path, msg));
                diags.push(at_misspelling(t.as_ref(), hook, d));
            }
            for message in t.iter().flat_map(|t| bad_exits(t, spec, &pkg.flow)) {
                let mut d = beside_hooks(&hooks, Diagnostic::error(path, message));
                let at = key_line(text, &format!("states.{}", spec.name))
                    .or_else(|| only_key_line(text, &spec.name));
                d.line = at.or(d.line);
                diags.push(d);
            }
            hooks
        })
        .collect()
}

/// What is wrong with the `exits` of state table `t` (the states its hooks may move to, set
/// by a helper such as `grid.placing_turn`): a name that is no state of [flow], or a state
/// [flow] does not let `spec` move to. Found when the rules load, not when a game gets there.
fn bad_exits(
    t: &Table,
    spec: &crate::core::flow::StateSpec,
    flow: &crate::core::flow::Flow,
) -> Vec<String> {
    let name = &spec.name;
    let exits: Vec<Value> = match t.raw_get::<Value>("exits") {
        Ok(Value::Nil) => return Vec::new(),
        Ok(Value::Table(list)) => list.sequence_values().flatten().collect(),
        Ok(other) => {
            let got = super::rules::described(&other);
            return vec![format!(
                "R.states.{name}.exits: expected a list of state names, got {got}"
            )];
        }
        Err(e) => return vec![e.to_string()],
    };
    let names: Vec<&str> = flow.states.iter().map(|s| s.name.as_str()).collect();
    let next: Vec<&str> = spec.next.iter().map(|&i| names[i]).collect();
    let mut out = Vec::new();
    for (i, exit) in exits.into_iter().enumerate() {
        let to = match exit {
            Value::String(to) => to.to_string_lossy(),
            other => {
                let (at, got) = (i + 1, super::rules::described(&other));
                out.push(format!(
                    "R.states.{name}.exits[{at}]: expected a state name, got {got}"
                ));
                continue;
            }
        };
        if !names.contains(&to.as_str()) {
            let hint = crate::diag::hint(&to, names.iter().copied());
            out.push(format!(
                "state '{name}' may move to '{to}' (its exits), which is no state in game.toml \
                 [flow]{hint}"
            ));
        } else if !next.contains(&to.as_str()) {
            out.push(format!(
                "state '{name}' may move to '{to}' (its exits), which game.toml [flow] does not \
                 allow (its next states: {})",
                next.join(", ")
            ));
        }
    }
    out
}

/// Warnings for the hooks of a state that its kind never calls: `options`, `act` and `seats`
/// of an automatic or final state, `seats` of a decision that asks one seat. Each is located
/// at its function.
fn unused_hooks(
    flow: &crate::core::flow::Flow,
    hooks: &[StateHooks],
    path: &str,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (spec, h) in flow.states.iter().zip(hooks) {
        let (kind, unused): (&str, &[(&str, &Option<Function>)]) =
            match (spec.terminal, spec.decide) {
                (true, _) => (
                    "final",
                    &[
                        ("options", &h.options),
                        ("act", &h.act),
                        ("seats", &h.seats),
                    ],
                ),
                (false, false) => (
                    "automatic (decide = false)",
                    &[
                        ("options", &h.options),
                        ("act", &h.act),
                        ("seats", &h.seats),
                    ],
                ),
                (false, true) if spec.simultaneous.is_none() => (
                    "a decision of one seat (not simultaneous)",
                    &[("seats", &h.seats)],
                ),
                _ => continue,
            };
        for (hook, f) in unused {
            let Some(f) = f else { continue };
            let name = &spec.name;
            let mut d = Diagnostic::warning(
                path,
                format!("R.states.{name}.{hook} is never called: state '{name}' is {kind}"),
            );
            let info = f.info();
            if file_of(&info).as_deref() == Some(path) {
                d.line = info.line_defined;
            }
            out.push(d);
        }
    }
    out
}

/// `d` (about the rules file) located where the state's first hook written in that file is
/// defined: a missing hook belongs beside its others. Unmoved when it has none there (a
/// state made by a shared script's helper is the rules file's own business).
fn beside_hooks(hooks: &StateHooks, mut d: Diagnostic) -> Diagnostic {
    let written = [&hooks.enter, &hooks.options, &hooks.act, &hooks.seats];
    let line = (written.into_iter().flatten()).find_map(|f| {
        let info = f.info();
        (file_of(&info).as_deref() == Some(d.path.as_str())).then_some(info.line_defined?)
    });
    d.line = line.or(d.line);
    d
}

/// `d` (a missing `hook`) located at the function the state table `t` keeps under a key one
/// or two letters off the hook's name (`optoins`), the likely cause; else unmoved.
fn at_misspelling(t: Option<&Table>, hook: &str, mut d: Diagnostic) -> Diagnostic {
    let line = t.and_then(|t| misspelling_line(t, &[hook], "meeple.State", &d.path));
    d.line = line.or(d.line);
    d
}

/// The line of the function `t` keeps under a key that is no member of `class` but one or two
/// letters off one of `names` (`optoins`, `scor`), when `path` writes that function.
fn misspelling_line(t: &Table, names: &[&str], class: &str, path: &str) -> Option<usize> {
    let members = super::luaapi::member_names(class);
    let near = |k: &str| names.iter().any(|n| strsim::damerau_levenshtein(k, n) <= 2);
    let (_, f) = (t.pairs::<Value, Value>().flatten()).find_map(|(k, v)| match (k, v) {
        (Value::String(k), Value::Function(f)) => {
            let k = k.to_string_lossy();
            (!members.contains(&k.as_str()) && near(&k)).then_some((k, f))
        }
        _ => None,
    })?;
    let info = f.info();
    (file_of(&info).as_deref() == Some(path)).then_some(info.line_defined?)
}

/// The first line of the Lua `text` that gives key `key` a value (`key =`, `.key =` or
/// `["key"] =`), outside comments: where a table names what a check is about.
pub(super) fn key_line(text: &str, key: &str) -> Option<usize> {
    key_lines(text, key).first().copied()
}

/// The line of `text` that gives `key` a value when only one line does.
pub(super) fn only_key_line(text: &str, key: &str) -> Option<usize> {
    match key_lines(text, key)[..] {
        [line] => Some(line),
        _ => None,
    }
}

/// Every line of `text` that `key_line` would accept, in order.
fn key_lines(text: &str, key: &str) -> Vec<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let given = |rest: &str| {
        let rest = rest.trim_start();
        rest.starts_with('=') && !rest.starts_with("==")
    };
    let quoted = [format!("[\"{key}\"]"), format!("['{key}']")];
    (text.lines().enumerate())
        .filter(|(_, line)| {
            let code = line.split("--").next().unwrap_or_default();
            let bare = code.match_indices(key).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                !before.is_some_and(word) && given(&code[at + key.len()..])
            });
            bare || quoted.iter().any(|q| {
                code.find(q.as_str())
                    .is_some_and(|at| given(&code[at + q.len()..]))
            })
        })
        .map(|(i, _)| i + 1)
        .collect()
}

fn check_effects(rules: &Table, board: &Board, path: &str, diags: &mut Vec<Diagnostic>) {
    let effects: Option<Table> = rules.get("effects").ok();
    let mut defined: Vec<String> = effects
        .as_ref()
        .map(|t| {
            t.pairs::<String, Function>()
                .flatten()
                .map(|(k, _)| k)
                .collect()
        })
        .unwrap_or_default();
    defined.sort();
    for deck in &board.decks {
        for card in &deck.cards {
            let Some((effect, loc)) = &card.effect else {
                continue;
            };
            if !defined.contains(effect) {
                let hint = crate::diag::hint(effect, defined.iter().map(|s| s.as_str()));
                diags.push(loc.error(format!(
                    "card '{}' names effect '{effect}' that {path} does not define{hint} (R.effects has: {})",
                    card.id,
                    if defined.is_empty() { "nothing".to_string() } else { defined.join(", ") }
                )));
            }
        }
    }
}

fn check_ai(ai: Option<&Table>, path: &str, diags: &mut Vec<Diagnostic>) {
    let Some(ai) = ai else { return };
    let mut problems = check_scoring(ai, "AI", path);
    problems.extend(check_standing(ai).map(|m| Diagnostic::error(path, m)));
    if let Ok(Value::Table(styles)) = ai.get::<Value>("styles") {
        for (name, style) in styles.pairs::<Value, Value>().flatten() {
            let name = field("AI.styles", &name.to_string().unwrap_or_default());
            match style {
                Value::Table(style) => problems.extend(check_scoring(&style, &name, path)),
                other => problems.push(Diagnostic::error(
                    path,
                    format!(
                        "{name} must be a table with its own score or scores, got {}",
                        other.type_name()
                    ),
                )),
            }
        }
    }
    problems.sort_by(|a, b| a.message.cmp(&b.message));
    diags.extend(problems);
}

/// Problems of one AI table (`name`: `AI` or a style): it scores with a function `score` or
/// `scores`, and its `fixed`, when given, maps verbs to scores beside `score`.
/// A missing `score` is located at a function whose name is a letter or two off (`scor`).
fn check_scoring(ai: &Table, name: &str, path: &str) -> Vec<Diagnostic> {
    let has = |key: &str| matches!(ai.get::<Value>(key), Ok(Value::Function(_)));
    let mut problems = Vec::new();
    let mut missing = None;
    if !has("score") && !has("scores") {
        let mut d = Diagnostic::error(path, format!(
            "the AI table needs a function {name}.score(G, ctx, seat, option) or {name}.scores(G, ctx, seat, options)"
        ));
        d.line = misspelling_line(ai, &["score", "scores"], "meeple.AI", path);
        missing = Some(d);
    }
    match ai.get::<Value>("fixed") {
        Ok(Value::Nil) => {}
        Ok(Value::Table(fixed)) => {
            if has("scores") {
                problems.push(format!(
                    "{name}.fixed is read in place of {name}.score, but {name}.scores scores whole decisions: drop one of them"
                ));
            }
            let entries = fixed.pairs::<Value, Value>().flatten();
            problems.extend(entries.filter_map(|(verb, score)| fixed_problem(name, &verb, &score)));
        }
        Ok(other) => problems.push(format!(
            "{name}.fixed must be a table of verb = score, got {}",
            other.type_name()
        )),
        Err(e) => problems.push(format!("{name}.fixed cannot be read: {e}")),
    }
    let located = problems.into_iter().map(|m| Diagnostic::error(path, m));
    missing.into_iter().chain(located).collect()
}

/// The problem of `AI.standing` and `AI.horizon`, if any: a function, and a whole number of
/// decisions (at least 1) that only means something beside it.
fn check_standing(ai: &Table) -> Option<String> {
    let value = ai.raw_get::<Value>("standing").unwrap_or(Value::Nil);
    let horizon = ai.raw_get::<Value>("horizon").unwrap_or(Value::Nil);
    match (&value, &horizon) {
        (Value::Nil | Value::Function(_), Value::Nil) => None,
        (Value::Function(_), Value::Integer(n)) if *n >= 1 => None,
        (Value::Function(_), other) => Some(format!(
            "AI.horizon must be a whole number of decisions, at least 1; got {}",
            other.to_string().unwrap_or_else(|_| other.type_name().to_string())
        )),
        (Value::Nil, _) => Some(
            "AI.horizon needs AI.standing(G, ctx, seat), which judges the position where a playout stops".into(),
        ),
        (other, _) => Some(format!(
            "AI.standing must be a function(G, ctx, seat) returning 0 to 1, got {}",
            other.type_name()
        )),
    }
}

/// The problem of one entry of `<name>.fixed`, if any: its key is a verb, its score a number
/// that compares (not NaN).
fn fixed_problem(name: &str, verb: &Value, score: &Value) -> Option<String> {
    let Value::String(verb) = verb else {
        return Some(format!(
            "{name}.fixed has a key of type {}: its keys are verbs (strings)",
            verb.type_name()
        ));
    };
    let entry = field(&format!("{name}.fixed"), &verb.to_string_lossy());
    match score {
        Value::Integer(_) => None,
        Value::Number(n) if !n.is_nan() => None,
        Value::Number(_) => Some(format!("{entry} is NaN, which no score compares with")),
        other => Some(format!(
            "{entry} must be a score (a number), got {}",
            other.type_name()
        )),
    }
}

/// `table.key` as Lua would write it: `.key` for a name, `["key"]` for anything else.
pub(super) fn field(table: &str, key: &str) -> String {
    match is_lua_name(key) {
        true => format!("{table}.{key}"),
        false => format!("{table}[{key:?}]"),
    }
}

/// Whether `key` is a Lua name (a letter or `_`, then letters, digits or `_`), written bare
/// after a dot.
pub(super) fn is_lua_name(key: &str) -> bool {
    key.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
