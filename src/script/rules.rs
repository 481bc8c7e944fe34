//! The Lua host as the engine's `Rules`: positions put into the VM and read back, the flow run
//! by the one driver (`driver.lua`) and what it stops for turned into decisions and located
//! errors, and the rules' other hooks (texts, AI scores, statistics, `eval`) called under the
//! budget with their context.

use super::convert::{from_json, to_json};
use super::host::{lua_message, text_chunk, Host};
use crate::core::action::{Action, Arg};
use crate::core::deck::DeckState;
use crate::core::event::{Event, Outcome};
use crate::core::grid::GridState;
use crate::core::rng::GameRng;
use crate::core::rules::{Decision, GameError, MarkId, Policy, Rules, ScriptError};
use crate::core::world::{Claim, Snapshot, World};
use crate::core::zone::ZoneState;
use crate::diag::Diagnostic;
use mlua::{ffi, Function, LuaString, MultiValue, Table, Value};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The reserved setting `round_cap`, if the game has it (at least 1: the engine checks).
pub fn round_cap(settings: &toml::Table) -> Option<u64> {
    settings
        .get("round_cap")
        .and_then(|v| v.as_integer())
        .map(|c| c as u64)
}

/// What the driver stopped for: its reason and up to two values.
type Stop = (String, Value, Value);

/// The rules' hooks that belong to no state, named as such in an error's context.
const GAME_HOOKS: &[&str] = &["label", "spot", "status", "stats", "why_not"];

/// Decisions a drive plays per call into the VM at first; later calls aim at `CHUNK_TIME`,
/// far below the watchdog's arming time, so that a long batch never looks like a loop.
pub(super) const FIRST_CHUNK: u64 = 1;
const MAX_CHUNK: u64 = 1 << 16;
const CHUNK_TIME: Duration = Duration::from_millis(20);

impl Host {
    fn lua_failure(&self, e: mlua::Error) -> GameError {
        GameError::Script(ScriptError(Diagnostic::error(
            &self.rules_path,
            lua_message(&e),
        )))
    }

    fn driver_fn(&self, name: &LuaString) -> Result<Function, GameError> {
        self.driver.raw_get(name).map_err(|e| self.lua_failure(e))
    }

    fn g(&self) -> Value {
        self.run.raw_get(&self.keys.g).unwrap_or(Value::Nil)
    }

    /// The line of the rules file that sets what a snapshot error names (`G.stock: …`): the
    /// one line setting that path (`G.stock =`), else the one line setting its last field.
    fn line_setting(&self, message: &str) -> Option<usize> {
        let path = message.split_once(": ")?.0;
        let Some(Ok((_, text))) = self.pkg.scripts.own(&self.pkg.rules_file) else {
            return None;
        };
        let last = path.rsplit('.').next()?.split('[').next()?;
        let only = |key: &str| super::host::only_key_line(text, key);
        only(path).or_else(|| only(last))
    }

    fn s_int(&self, key: &LuaString) -> i64 {
        self.state.raw_get(key).unwrap_or(0)
    }

    /// The note on a script error: where in the flow it happened.
    pub fn context(&self, hook: &str) -> String {
        self.context_at(
            hook,
            self.s_int(&self.keys.current),
            self.s_int(&self.keys.turn),
        )
    }

    /// The note on a script error in `hook`, called for `player` on `turn`.
    fn context_at(&self, hook: &str, player: i64, turn: i64) -> String {
        let state = self.state_name();
        if hook == "snapshot" {
            return format!(
                "saving the position in state '{state}' (player {player}, turn {turn})"
            );
        }
        match GAME_HOOKS.contains(&hook) {
            true => format!("in hook 'R.{hook}' (state '{state}', player {player}, turn {turn})"),
            false => format!("in state '{state}' hook '{hook}' (player {player}, turn {turn})"),
        }
    }

    /// The note for an error the driver met: the hook it was running then, and the seat and
    /// turn it was called for (an act or enter hook may pass the turn before it fails).
    fn driver_context(&self) -> String {
        let hook: String = self.run.raw_get(&self.keys.hook).unwrap_or_default();
        let seat = self.run.raw_get(&self.keys.seat).unwrap_or(0);
        match hook.as_str() {
            "setup" => "in R.setup (before the first turn)".into(),
            "act" | "enter" => {
                self.context_at(&hook, seat, self.run.raw_get(&self.keys.turn).unwrap_or(0))
            }
            hook => self.context_at(hook, seat, self.s_int(&self.keys.turn)),
        }
    }

    /// Calls the driver's `name` with `args` under the budget: what it stopped for.
    fn drive_call(
        &self,
        name: &LuaString,
        args: impl mlua::IntoLuaMulti,
    ) -> Result<Stop, GameError> {
        let f = self.driver_fn(name)?;
        let ctx = || self.driver_context();
        self.call(&f, args, &ctx).map_err(|e| {
            let hook: String = self.run.raw_get(&self.keys.hook).unwrap_or_default();
            let f = self.hook_function(&self.state_name(), &hook);
            GameError::Script(ScriptError(super::host::at_hook(e.0, f.as_ref())))
        })
    }

    /// The pending decision after the driver stopped to ask, or what else it stopped for.
    fn after(&mut self, (why, a, b): Stop) -> Result<(), GameError> {
        self.decision = None;
        match why.as_str() {
            "ask" => {
                self.decision = Some(self.read_decision()?);
                Ok(())
            }
            "final" => {
                self.live.borrow_mut().finish(Outcome::Draw);
                Ok(())
            }
            "capped" => {
                let round = round_cap_of(self);
                self.live.borrow_mut().finish(Outcome::Capped { round });
                Ok(())
            }
            _ => Err(self.flow_failure(&why, a, b)),
        }
    }

    /// The decision the driver left pending in S.
    fn read_decision(&self) -> Result<Decision, GameError> {
        let fail = |e| self.lua_failure(e);
        let list: Table = self.state.raw_get(&self.keys.pending).map_err(fail)?;
        let seat: usize = self.state.raw_get(&self.keys.pending_seat).map_err(fail)?;
        let waiting = match self
            .state
            .raw_get::<Option<Table>>(&self.keys.claim)
            .map_err(fail)?
        {
            Some(claim) => {
                let seats: Vec<usize> = claim.raw_get(&self.keys.seats).map_err(fail)?;
                let answered = claim
                    .raw_get::<Table>(&self.keys.answers)
                    .map_err(fail)?
                    .raw_len();
                seats[answered.min(seats.len())..]
                    .iter()
                    .map(|s| s - 1)
                    .collect()
            }
            None => Vec::new(),
        };
        let (lua, len) = (self.lua.clone(), list.raw_len());
        let read = Rc::new(move || actions_of(&lua, &list));
        Ok(Decision::listed(seat - 1, len, waiting, read))
    }

    /// Puts `world` (in state `state`) into the VM and Rust's live components; nothing pending.
    fn put(&mut self, world: &World, state: &str, entered: bool) -> Result<(), GameError> {
        let fail = |e| self.lua_failure(e);
        {
            let mut live = self.live.borrow_mut();
            live.rng = world.rng.clone();
            live.decks = world.decks.clone();
            let filled = live.grid.as_ref().and_then(|g| g.filled);
            live.grid = world.grid.clone();
            if let Some(g) = live.grid.as_mut() {
                g.filled = filled;
            }
            live.outcome = world.outcome.clone();
            live.acting = Some(world.current);
        }
        let claim = match &world.claim {
            Some(c) => Value::Table(self.claim_table(c)?),
            None => Value::Nil,
        };
        let flow = super::sync::Flow {
            state,
            entered,
            claim,
        };
        super::sync::push(&self.lua, &self.state, world, Some(flow)).map_err(fail)?;
        self.decision = None;
        Ok(())
    }

    fn claim_table(&self, c: &Claim) -> Result<Table, GameError> {
        let lua = &self.lua;
        let fail = |e| self.lua_failure(e);
        let t = lua.create_table().map_err(fail)?;
        let seats: Vec<usize> = c.seats.iter().map(|s| s + 1).collect();
        let named: Vec<bool> = match c.named.len() == c.seats.len() {
            true => c.named.clone(),
            false => vec![true; c.seats.len()],
        };
        t.raw_set(&self.keys.seats, seats).map_err(fail)?;
        t.raw_set(&self.keys.named, named).map_err(fail)?;
        t.raw_set(&self.keys.answers, self.option_tables(&c.answers)?)
            .map_err(fail)?;
        Ok(t)
    }

    fn option_tables(&self, actions: &[Action]) -> Result<Table, GameError> {
        let fail = |e| self.lua_failure(e);
        let tables = actions
            .iter()
            .map(|a| action_table(&self.lua, a))
            .collect::<mlua::Result<Vec<_>>>()
            .map_err(fail)?;
        self.lua.create_sequence_from(tables).map_err(fail)
    }

    /// Sets each seat's policy for the driver (`false`: ask the caller), unless they are set.
    fn set_policies(&mut self, policies: &[Policy]) -> Result<(), GameError> {
        if self.policies == policies {
            return Ok(());
        }
        let fail = |e| self.lua_failure(e);
        let t = self.lua.create_table().map_err(fail)?;
        for (i, p) in policies.iter().enumerate() {
            let v = match p {
                Policy::Ask => Value::Boolean(false),
                Policy::Random => Value::String(self.lua.create_string("random").map_err(fail)?),
                Policy::Playout => Value::String(self.lua.create_string("playout").map_err(fail)?),
                Policy::Heuristic(style) => Value::Table(self.ai_table(style.as_deref())?),
            };
            t.raw_set(i + 1, v).map_err(fail)?;
        }
        self.run.raw_set("policies", t).map_err(fail)?;
        self.policies = policies.to_vec();
        Ok(())
    }

    /// The hook a bot's scoring runs, as errors name it: `AI.scores` when the AI (or its
    /// style) has one to rate a whole list (as the driver tests it), else `AI.score`.
    fn score_hook(ai: &Table) -> &'static str {
        match ai.get::<Value>("scores") {
            Ok(Value::Nil | Value::Boolean(false)) | Err(_) => "AI.score",
            Ok(_) => "AI.scores",
        }
    }

    /// The AI table, or one of its styles.
    fn ai_table(&self, style: Option<&str>) -> Result<Table, GameError> {
        let Some(ai) = &self.ai else {
            return Err(GameError::Rejected(format!(
                "game '{}' has no ai script with a score function",
                self.pkg.id
            )));
        };
        let Some(name) = style else {
            return Ok(ai.clone());
        };
        if let Some(t) = self.style(name) {
            return Ok(t.clone());
        }
        let names = self.ai_styles();
        Err(GameError::Rejected(format!(
            "the ai script of '{}' has no style '{name}' ({})",
            self.pkg.id,
            match names.is_empty() {
                true => "it defines no AI.styles".to_string(),
                false => format!("AI.styles has: {}", names.join(", ")),
            }
        )))
    }

    /// The pending option `index` as the rules listed it.
    fn option(&self, index: usize) -> Result<Table, GameError> {
        let list: Table = self
            .state
            .raw_get(&self.keys.pending)
            .map_err(|e| self.lua_failure(e))?;
        list.raw_get(index + 1).map_err(|e| self.lua_failure(e))
    }

    fn pending_list(&self) -> Result<(usize, Table), GameError> {
        let d = (self.decision.as_ref())
            .ok_or_else(|| GameError::Rejected("the game is over".into()))?;
        let list = self
            .state
            .raw_get(&self.keys.pending)
            .map_err(|e| self.lua_failure(e))?;
        Ok((d.seat, list))
    }

    /// A flow error the driver stopped for (`why`, with what it reported).
    fn flow_failure(&self, why: &str, a: Value, b: Value) -> GameError {
        let state = self.state_name();
        let text = |v: &Value| v.to_string().unwrap_or_default();
        match why {
            "next" => {
                let hook = text(&a);
                let to = match &b {
                    Value::String(s) => s.to_string_lossy(),
                    other => {
                        let msg = format!(
                            "hook '{hook}' returned {}, not the name of a state",
                            described(other)
                        );
                        let f = self.hook_function(&state, &hook);
                        let line = f.as_ref().and_then(|f| returning_value_line(f, other));
                        return at_line(self.error_at(f, msg, &hook), line);
                    }
                };
                let from = self.pkg.flow.index(&state).unwrap_or(0);
                let msg = match self.pkg.flow.check_transition(from, &to) {
                    Err(msg) => msg,
                    Ok(_) => format!("state '{to}' was refused"),
                };
                let f = self.hook_function(&state, &hook);
                let line = f.as_ref().and_then(|f| returning_line(f, &to));
                at_line(self.error_at(f, msg, &hook), line)
            }
            "none" => self.hook_error(
                "enter",
                format!("automatic state '{state}' must return the name of the next state"),
            ),
            "stuck" => {
                let trail: Vec<String> = match &a {
                    Value::Table(t) => t.sequence_values::<String>().flatten().collect(),
                    _ => Vec::new(),
                };
                let guard = crate::core::flow::STEP_GUARD;
                let forced =
                    (self.pkg.flow.states.iter()).any(|s| s.name == state && s.decide && s.forced);
                // Stuck in a forced decision: its act keeps the game there (returns nil).
                if forced && trail.iter().all(|s| *s == state) {
                    let msg = format!(
                        "no decision reached after {guard} steps: state '{state}' is forced, and \
                         its lone option was played again and again: does its act return nil \
                         (ask again) where it should name the next state?"
                    );
                    return self.hook_error("act", msg);
                }
                let msg = format!(
                    "no decision reached after {guard} automatic steps: the flow cycles ({} → …)",
                    trail.join(" → ")
                );
                self.hook_error("enter", msg)
            }
            "options" => {
                let msg = match &a {
                    Value::String(problem) => problem.to_string_lossy(),
                    _ => format!("decision state '{state}' offered no options"),
                };
                let line = self.option_line(&state, &msg, &b);
                at_line(self.hook_error("options", msg), line)
            }
            "seats" => self.hook_error("seats", text(&a)),
            "over" => {
                let result = (self.live.borrow().outcome.as_ref())
                    .map_or("recorded".into(), |o| o.to_string());
                let finals: Vec<&str> = (self.pkg.flow.states.iter())
                    .filter(|s| s.terminal)
                    .map(|s| s.name.as_str())
                    .collect();
                let msg = format!(
                    "the game's result is recorded ({result}), yet the flow went on to decision \
                     state '{state}': return a final state ({}) from the hook that records it",
                    finals.join(", ")
                );
                self.hook_error(&text(&a), msg)
            }
            other => self.hook_error("act", format!("the driver stopped for '{other}'")),
        }
    }

    /// The line of state `state`'s options hook that makes the option a problem names
    /// (`option 3: …`) in `list`: the one line of the hook that quotes its verb.
    fn option_line(&self, state: &str, problem: &str, list: &Value) -> Option<usize> {
        let n: usize = problem
            .strip_prefix("option ")?
            .split(':')
            .next()?
            .parse()
            .ok()?;
        let Value::Table(list) = list else {
            return None;
        };
        let verb = match list.raw_get::<Value>(n).ok()? {
            Value::Table(option) => option.raw_get::<String>(1).ok()?,
            Value::String(verb) => verb.to_str().ok()?.to_string(),
            _ => return None,
        };
        let f = self.hook_function(state, "options")?;
        let quoted = [format!("\"{verb}\""), format!("'{verb}'")];
        let lines = lines_in_function(&f, |l| {
            let code = l.split("--").next().unwrap_or_default();
            quoted.iter().any(|q| code.contains(q.as_str()))
        })?;
        (lines.len() == 1).then(|| lines[0])
    }

    /// An error about what the script function `f` (the hook `hook`) did, located at its
    /// definition, with the flow's context as its note.
    pub fn error_at(&self, f: Option<Function>, msg: String, hook: &str) -> GameError {
        // The hook the driver ran last was called for the seat it noted (an act hook may have
        // passed the turn since).
        let last = self
            .run
            .raw_get::<String>(&self.keys.hook)
            .is_ok_and(|h| h == hook);
        let context = if last {
            self.driver_context()
        } else {
            self.context(hook)
        };
        let mut diag = Diagnostic::error(&self.rules_path, msg).note(context);
        if let Some(info) = f.map(|f| f.info()) {
            if let (Some(src), Some(line)) = (super::host::file_of(&info), info.line_defined) {
                diag.path = src;
                diag.line = Some(line);
            }
        }
        GameError::Script(ScriptError(diag))
    }

    /// The Lua function behind a state's hook, to point errors at its definition.
    fn hook_function(&self, state: &str, hook: &str) -> Option<Function> {
        if hook == "spot" {
            return self.game.spot.clone();
        }
        let hooks = self.hooks.get(self.pkg.flow.index(state)?)?;
        match hook {
            "enter" => hooks.enter.clone(),
            "options" => hooks.options.clone(),
            "act" => hooks.act.clone(),
            "seats" => hooks.seats.clone(),
            _ => None,
        }
    }

    /// Runs the driver from a settled or unsettled position with every seat asked (a limit of
    /// no decisions asks whatever the seats' policies).
    fn settle(&mut self) -> Result<(), GameError> {
        let stop = self.drive_call(&self.keys.drive, (&self.run, 0))?;
        self.after(stop)
    }

    /// What `R.spot` returned is a place on this board, or the error saying why not.
    fn off_board(&self, place: &[Arg]) -> Option<String> {
        let shown: Vec<String> = (place.iter())
            .map(|a| match a {
                Arg::Str(s) => format!("'{s}'"),
                other => other.to_string(),
            })
            .collect();
        let got = format!("R.spot returned ({})", shown.join(", "));
        if let Some(grid) = &self.live.borrow().grid {
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
        if self.board.kind == "table" {
            return self.off_table(place, &got);
        }
        match place {
            [Arg::Str(id)] if self.board.space_index(id).is_some() => None,
            [Arg::Str(id)] => Some(format!(
                "{got}: map '{}' has no space '{id}'",
                self.board.id
            )),
            _ => Some(format!("{got}, expected one space id of the track")),
        }
    }

    /// What is wrong with a place `R.spot` gives on a table (`got` says what it returned): a
    /// shared zone's name, or a per-seat zone's name and one item code in it, or several
    /// (items picked together).
    fn off_table(&self, place: &[Arg], got: &str) -> Option<String> {
        let zones = &self.pkg.zones;
        let names: Vec<&str> = zones.iter().map(|z| z.name.as_str()).collect();
        let codes: Option<Vec<i64>> = (place.iter().skip(1))
            .map(|a| match a {
                Arg::Int(c) => Some(*c),
                _ => None,
            })
            .collect();
        let (Some(Arg::Str(name)), Some(codes)) = (place.first(), codes) else {
            let items = &self.pkg.items.names;
            let named = (place.iter().skip(1)).find_map(|a| match a {
                Arg::Str(s) => items.iter().position(|n| n == s).map(|c| (s, c)),
                _ => None,
            });
            let hint = match named {
                Some((s, c)) => format!("; '{s}' is an item's name: return its code ({c})"),
                None => String::new(),
            };
            return Some(format!(
                "{got}, expected a zone's name (and item codes in it){hint}"
            ));
        };
        let Some(zone) = zones.iter().find(|z| &z.name == name) else {
            let hint = crate::diag::hint(name, names.iter().copied());
            return Some(format!(
                "{got}: no zone '{name}'{hint} (zones: {})",
                names.join(", ")
            ));
        };
        let items = self.pkg.items.names.len() as i64;
        let unknown = codes.iter().find(|c| items > 0 && !(0..items).contains(c));
        match (zone.per_seat, &codes[..], unknown) {
            (false, [], _) => None,
            (false, _, _) => Some(format!(
                "{got}: '{name}' is one shared pile, played as a whole: return its name alone"
            )),
            (true, [], _) => Some(format!(
                "{got}: '{name}' has a pile per seat: return its name and an item code in it"
            )),
            (true, _, Some(c)) => Some(format!(
                "{got}: no item code {c} (game.toml names {items} items: 0..{})",
                items - 1
            )),
            (true, _, None) => None,
        }
    }

    /// A hook returning text or nothing, called with `args`; anything else is an error at it.
    fn text_hook(
        &self,
        hook: &Function,
        name: &str,
        args: impl mlua::IntoLuaMulti,
    ) -> Result<Option<String>, GameError> {
        let ctx = || self.context(name);
        match self.call(hook, args, &ctx)? {
            Value::Nil => Ok(None),
            Value::String(s) => Ok(Some(s.to_string_lossy())),
            other => {
                let expected = if name == "why_not" {
                    "a string or nil"
                } else {
                    "a string"
                };
                let msg = format!(
                    "R.{name} returned {}, expected {expected}",
                    described(&other)
                );
                Err(self.error_at(Some(hook.clone()), msg, name))
            }
        }
    }
}

/// The round cap of the host's game, or 0.
fn round_cap_of(host: &Host) -> u64 {
    host.run
        .raw_get::<Option<u64>>("cap")
        .ok()
        .flatten()
        .unwrap_or(0)
}

impl Rules for Host {
    fn restart(&mut self, seed: u64) -> Result<(), GameError> {
        self.game_starts();
        let pkg = self.pkg.clone();
        let mut world = World::new(
            self.seats,
            pkg.counters.len(),
            self.board.spaces.len(),
            seed,
        );
        let rng = &mut world.rng;
        world.decks = (self.board.decks.iter())
            .map(|d| DeckState::new(d.cards.len(), rng))
            .collect();
        world.grid = self.grid.map(|(rows, cols)| GridState::new(rows, cols));
        world.zones = crate::core::zone::empty(&pkg.zones, self.seats);
        {
            let mut live = self.live.borrow_mut();
            live.events.clear();
            live.forced_dice.clear();
            if let Some(g) = live.grid.as_mut() {
                g.filled = None;
            }
        }
        self.put(&world, pkg.flow.name(pkg.flow.start), true)?;
        let fail = |e| self.lua_failure(e);
        let begin = self.driver_fn(&self.keys.begin)?;
        let g: Table = begin.call(&self.run).map_err(fail)?;
        // The set-up's rolls and draws are the table's; from then on, the first player's.
        self.live.borrow_mut().acting = None;
        if let Some(setup) = self.game.setup.clone() {
            let ctx = || "in R.setup (before the first turn)".to_string();
            match self.call::<Value>(&setup, (&g, &self.ctx), &ctx)? {
                Value::Nil => {}
                Value::Table(t) => self.run.raw_set(&self.keys.g, t).map_err(fail)?,
                other => {
                    let msg = format!(
                        "R.setup returned {}, expected nothing (fill G) or a table that becomes G",
                        described(&other)
                    );
                    return Err(self.error_at(Some(setup), msg, "setup"));
                }
            }
        }
        let first: usize = self.state.raw_get(&self.keys.current).map_err(fail)?;
        let mut live = self.live.borrow_mut();
        live.acting = first.checked_sub(1);
        // Stones the set-up placed are not a move.
        if let Some(grid) = live.grid.as_mut() {
            grid.filled = None;
        }
        drop(live);
        self.settle()
    }

    fn decision(&self) -> Option<&Decision> {
        self.decision.as_ref()
    }

    fn play(&mut self, index: usize) -> Result<(), GameError> {
        let n = self.decision.as_ref().map_or(0, |d| d.len());
        if index >= n {
            return Err(GameError::Rejected(format!(
                "option {} does not exist (1..{n})",
                index + 1
            )));
        }
        self.decision = None;
        let stop = self.drive_call(&self.keys.apply, (&self.run, index + 1))?;
        self.after(stop)
    }

    fn drive(
        &mut self,
        policies: &[Policy],
        generators: &mut [GameRng],
        limit: u64,
    ) -> Result<(), GameError> {
        self.set_policies(policies)?;
        self.tiebreak.load(generators.iter());
        let mut left = limit;
        let result = loop {
            let chunk = self.chunk.min(left);
            let started = Instant::now();
            let before = self.decisions()?;
            let stop = self.drive_call(&self.keys.drive, (&self.run, chunk));
            let played = self.decisions()? - before;
            left -= played.min(left);
            self.chunk = match started.elapsed() {
                t if t < CHUNK_TIME / 8 => (self.chunk * 8).min(MAX_CHUNK),
                t if t < CHUNK_TIME / 2 => (self.chunk * 2).min(MAX_CHUNK),
                t if t > CHUNK_TIME * 2 => (self.chunk / 2).max(1),
                _ => self.chunk,
            };
            let stop = match stop {
                Ok(stop) => stop,
                Err(e) => {
                    // A policy that failed choosing leaves its decision pending.
                    let pending = self.state.raw_get::<Value>(&self.keys.pending);
                    let pending = pending.is_ok_and(|v| !v.is_nil());
                    self.decision = pending.then(|| self.read_decision().ok()).flatten();
                    break Err(e);
                }
            };
            let asked = stop.0 == "ask";
            if let Err(e) = self.after(stop) {
                break Err(e);
            }
            let seat = self.decision.as_ref().map(|d| d.seat);
            let ask_seat = seat.is_none_or(|s| policies.get(s).is_none_or(|p| *p == Policy::Ask));
            if !asked || ask_seat || left == 0 {
                break Ok(());
            }
        };
        self.tiebreak.store(generators.iter_mut());
        result
    }

    fn snapshot(&self) -> Result<Snapshot, GameError> {
        let g = to_json(&self.lua, &self.g(), "G").map_err(|m| {
            let line = self.line_setting(&m);
            at_line(self.hook_error("snapshot", m), line)
        })?;
        Ok(Snapshot {
            state: self.state_name(),
            world: self.world()?,
            g,
        })
    }

    fn restore(&mut self, snap: &Snapshot) -> Result<(), GameError> {
        self.put(&snap.world, &snap.state, false)?;
        let g = from_json(&self.lua, &snap.g).map_err(|e| self.lua_failure(e))?;
        if !matches!(g, Value::Table(_)) {
            return Err(GameError::Rejected("the saved G is not a table".into()));
        }
        self.run
            .raw_set(&self.keys.g, g)
            .map_err(|e| self.lua_failure(e))?;
        match snap.world.outcome {
            Some(_) => Ok(()),
            None => self.settle(),
        }
    }

    fn mark(&mut self) -> Result<MarkId, GameError> {
        let snap = self.snapshot()?;
        let list: Value = self
            .state
            .raw_get(&self.keys.pending)
            .map_err(|e| self.lua_failure(e))?;
        let seat: usize = self
            .state
            .raw_get::<Option<usize>>("pending_seat")
            .ok()
            .flatten()
            .unwrap_or(0);
        let kept = Some((snap, list, seat, self.decision.clone()));
        match self.marks.iter().position(Option::is_none) {
            Some(i) => {
                self.marks[i] = kept;
                Ok(i)
            }
            None => {
                self.marks.push(kept);
                Ok(self.marks.len() - 1)
            }
        }
    }

    fn back_to(&mut self, mark: MarkId) -> Result<(), GameError> {
        let Some(Some((snap, list, seat, decision))) = self.marks.get(mark).cloned() else {
            return Err(GameError::Rejected(format!(
                "no position {mark} to go back to"
            )));
        };
        self.put(&snap.world, &snap.state, false)?;
        let fail = |e| self.lua_failure(e);
        let g = from_json(&self.lua, &snap.g).map_err(fail)?;
        self.run.raw_set(&self.keys.g, g).map_err(fail)?;
        self.state.raw_set(&self.keys.pending, list).map_err(fail)?;
        let seat = (decision.is_some()).then_some(seat);
        self.state
            .raw_set(&self.keys.pending_seat, seat)
            .map_err(fail)?;
        self.decision = decision;
        Ok(())
    }

    fn forget(&mut self, mark: MarkId) {
        if let Some(m) = self.marks.get_mut(mark) {
            *m = None;
        }
    }

    fn marks_held(&self) -> usize {
        self.marks.iter().flatten().count()
    }

    fn world(&self) -> Result<World, GameError> {
        let pkg = &self.pkg;
        let mut w = World::new(self.seats, pkg.counters.len(), self.board.spaces.len(), 0);
        w.zones = crate::core::zone::empty(&pkg.zones, self.seats);
        let kinds = pkg.items.names.len();
        super::sync::pull(&self.lua, &self.state, &mut w, &pkg.zones, kinds)
            .map_err(|e| self.lua_failure(e))?;
        {
            let live = self.live.borrow();
            w.rng = live.rng.clone();
            w.decks = live.decks.clone();
            w.grid = live.grid.clone();
            w.outcome = live.outcome.clone();
        }
        w.claim = self.claim()?;
        Ok(w)
    }

    fn decisions(&self) -> Result<u64, GameError> {
        (self.state.raw_get(&self.keys.decisions)).map_err(|e| self.lua_failure(e))
    }

    fn in_play(&self) -> Result<Vec<bool>, GameError> {
        let fail = |e| self.lua_failure(e);
        let t: Table = self.state.raw_get("in_play").map_err(fail)?;
        (1..=self.seats)
            .map(|s| t.raw_get(s).map_err(fail))
            .collect()
    }

    fn claim(&self) -> Result<Option<Claim>, GameError> {
        let fail = |e| self.lua_failure(e);
        let Some(t) = self
            .state
            .raw_get::<Option<Table>>(&self.keys.claim)
            .map_err(fail)?
        else {
            return Ok(None);
        };
        let seats: Vec<usize> = t.raw_get(&self.keys.seats).map_err(fail)?;
        let named: Vec<bool> = t.raw_get(&self.keys.named).map_err(fail)?;
        let answers: Table = t.raw_get(&self.keys.answers).map_err(fail)?;
        Ok(Some(Claim {
            seats: seats.into_iter().map(|s| s - 1).collect(),
            named,
            answers: actions_of(&self.lua, &answers),
        }))
    }

    fn set_zones(&mut self, zones: &ZoneState) -> Result<(), GameError> {
        let mut w = self.world()?;
        w.zones = zones.clone();
        super::sync::push(&self.lua, &self.state, &w, None).map_err(|e| self.lua_failure(e))
    }

    fn set_answers(&mut self, answers: &[Action]) -> Result<(), GameError> {
        let fail = |e| self.lua_failure(e);
        let Some(claim) = self
            .state
            .raw_get::<Option<Table>>(&self.keys.claim)
            .map_err(fail)?
        else {
            return Ok(());
        };
        claim
            .raw_set(&self.keys.answers, self.option_tables(answers)?)
            .map_err(fail)
    }

    fn answers_of(&self, seat: usize) -> Result<Vec<Action>, GameError> {
        let f = self.driver_fn(&self.keys.options_of)?;
        let ctx = || self.context("options");
        let list: Table = self.call(&f, (&self.run, seat + 1), &ctx)?;
        Ok(actions_of(&self.lua, &list))
    }

    fn state_name(&self) -> String {
        self.state.raw_get(&self.keys.state).unwrap_or_default()
    }

    fn entered(&self) -> Vec<String> {
        let Ok(entered) = self.run.raw_get::<Table>(&self.keys.entered) else {
            return Vec::new();
        };
        let pairs = entered.pairs::<String, bool>().flatten();
        let mut names: Vec<String> = pairs.map(|(name, _)| name).collect();
        names.sort();
        names
    }

    fn forced(&self) -> Vec<(String, String)> {
        let Ok(forced) = self.run.raw_get::<Table>(&self.keys.forced) else {
            return Vec::new();
        };
        let mut out: Vec<(String, String)> = (forced.pairs::<String, Table>().flatten())
            .flat_map(|(state, verbs)| {
                let verbs: Vec<String> = verbs
                    .pairs::<String, bool>()
                    .flatten()
                    .map(|v| v.0)
                    .collect();
                verbs.into_iter().map(move |v| (state.clone(), v))
            })
            .collect();
        out.sort();
        out
    }

    fn reseed(&mut self, seed: u64) {
        let live = &mut *self.live.borrow_mut();
        live.rng = GameRng::from_seed(seed);
        for deck in &mut live.decks {
            deck.forget_order(&mut live.rng);
        }
    }

    fn force_dice(&mut self, faces: &[u32]) {
        self.live.borrow_mut().forced_dice.extend(faces);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.live.borrow().outcome.clone()
    }

    fn set_recording(&mut self, on: bool) {
        let _ = self.set_record(on);
    }

    fn set_ask_forced(&mut self, on: bool) {
        let _ = self.run.raw_set("ask_forced", on);
    }

    fn recording(&self) -> bool {
        self.live.borrow().record_events
    }

    fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.live.borrow_mut().events)
    }

    fn put_events(&mut self, events: Vec<Event>) {
        self.live.borrow_mut().events = events;
    }

    fn events_since(&self, from: usize) -> Vec<Event> {
        let live = self.live.borrow();
        live.events.get(from..).unwrap_or_default().to_vec()
    }

    fn event_count(&self) -> usize {
        self.live.borrow().events.len()
    }

    fn last_cell(&self) -> Option<(usize, usize)> {
        self.live.borrow().grid.as_ref().and_then(|g| g.filled)
    }

    fn set_last_cell(&mut self, cell: Option<(usize, usize)>) {
        if let Some(grid) = self.live.borrow_mut().grid.as_mut() {
            grid.filled = cell;
        }
    }

    fn label(&self, index: usize) -> Result<Option<String>, GameError> {
        let Some(label) = &self.game.label else {
            return Ok(None);
        };
        let option = self.option(index)?;
        self.text_hook(label, "label", (self.g(), &self.ctx, option))
    }

    fn spot(&self, index: usize) -> Result<Option<Vec<Arg>>, GameError> {
        let Some(spot) = &self.game.spot else {
            return Ok(None);
        };
        let option = self.option(index)?;
        let ctx = || self.context("spot");
        let values: MultiValue = self.call(spot, (self.g(), &self.ctx, option), &ctx)?;
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
                "R.spot returned {got}, expected a row and column (a grid), a space id (a track) or a zone (a table)"
            ),
        };
        // At the line that returns the place, when it is written out (`return 99, c`).
        let line = values.front().and_then(|v| returning_value_line(spot, v));
        Err(at_line(
            self.error_at(Some(spot.clone()), problem, "spot"),
            line,
        ))
    }

    fn status(&self, seat: usize) -> Result<Vec<String>, GameError> {
        let Some(status) = &self.game.status else {
            return Ok(Vec::new());
        };
        let ctx = || self.context("status");
        let bad = |got: String| {
            let msg = format!("R.status returned {got}, expected a string or a list of strings");
            self.error_at(Some(status.clone()), msg, "status")
        };
        match self.call(status, (self.g(), &self.ctx, seat + 1), &ctx)? {
            Value::Nil => Ok(Vec::new()),
            Value::String(s) => Ok(vec![s.to_string_lossy()]),
            Value::Table(t) => (t.sequence_values::<String>().collect::<Result<Vec<_>, _>>())
                .map_err(|_| bad("a list with something other than strings in it".into())),
            other => Err(bad(described(&other))),
        }
    }

    fn why_not(&self, seat: usize, action: &Action) -> Result<Option<String>, GameError> {
        let Some(hook) = &self.game.why_not else {
            return Ok(None);
        };
        let t = action_table(&self.lua, action).map_err(|e| self.lua_failure(e))?;
        self.text_hook(hook, "why_not", (self.g(), &self.ctx, t, seat + 1))
    }

    fn places_options(&self) -> bool {
        self.game.spot.is_some()
    }

    fn has_ai(&self) -> bool {
        self.ai.is_some()
    }

    fn ai_styles(&self) -> Vec<String> {
        self.styles.iter().map(|(n, _)| n.clone()).collect()
    }

    fn ai_fixed(&self) -> Vec<(String, String, Option<usize>)> {
        let text = (self.pkg.ai_file.as_ref())
            .and_then(|f| self.pkg.scripts.own(f))
            .and_then(|found| found.as_ref().ok())
            .map_or("", |(_, text)| text.as_str());
        let styles = (self.styles.iter()).map(|(n, t)| (super::host::field("AI.styles", n), t));
        let tables = self.ai.iter().map(|t| ("AI".to_string(), t)).chain(styles);
        let mut out = Vec::new();
        for (name, table) in tables {
            let Ok(Value::Table(fixed)) = table.raw_get::<Value>("fixed") else {
                continue;
            };
            for (verb, _) in fixed.pairs::<Value, Value>().flatten() {
                if let Value::String(verb) = verb {
                    let verb = verb.to_string_lossy();
                    let shown = super::host::field(&format!("{name}.fixed"), &verb);
                    out.push((shown, verb.clone(), super::host::key_line(text, &verb)));
                }
            }
        }
        out.sort();
        out
    }

    fn scores(&self, style: Option<&str>) -> Result<Vec<f64>, GameError> {
        let ai = self.ai_table(style)?;
        let (seat, list) = self.pending_list()?;
        let f = self.driver_fn(&self.keys.scores)?;
        let hook = Self::score_hook(&ai);
        let ctx = || self.context(hook);
        Ok(self.call(&f, (ai, self.g(), &self.ctx, seat + 1, list), &ctx)?)
    }

    fn best(&self, style: Option<&str>) -> Result<(f64, Vec<usize>), GameError> {
        let ai = self.ai_table(style)?;
        let (seat, list) = self.pending_list()?;
        let f = self.driver_fn(&self.keys.best)?;
        let hook = Self::score_hook(&ai);
        let ctx = || self.context(hook);
        let (best, tied): (f64, mlua::Variadic<usize>) =
            self.call(&f, (ai, self.g(), &self.ctx, seat + 1, list), &ctx)?;
        Ok((best, tied.iter().map(|i| i - 1).collect()))
    }

    fn playout_horizon(&self) -> Option<u64> {
        let ai = self.ai.as_ref()?;
        let Ok(Value::Function(_)) = ai.raw_get::<Value>("standing") else {
            return None;
        };
        match ai.raw_get::<Value>("horizon") {
            Ok(Value::Integer(n)) if n >= 1 => Some(n as u64),
            _ => Some(crate::core::rules::DEFAULT_HORIZON),
        }
    }

    fn standings(&self) -> Result<Vec<f64>, GameError> {
        let value: Function = (self.ai.as_ref())
            .and_then(|ai| ai.raw_get("standing").ok())
            .ok_or_else(|| GameError::Rejected("the AI script has no AI.standing".into()))?;
        let ctx = || self.context("AI.standing");
        (0..self.seats)
            .map(|seat| {
                let v: Value = self.call(&value, (self.g(), &self.ctx, seat + 1), &ctx)?;
                match v {
                    Value::Integer(n) if (0..=1).contains(&n) => Ok(n as f64),
                    Value::Number(x) if (0.0..=1.0).contains(&x) => Ok(x),
                    other => Err(self.error_at(
                        Some(value.clone()),
                        format!(
                            "AI.standing returned {} for P{}, expected a number from 0 (lost) to 1 (won)",
                            described(&other),
                            seat + 1
                        ),
                        "AI.standing",
                    )),
                }
            })
            .collect()
    }

    fn stats(&self) -> Result<Vec<(String, f64)>, GameError> {
        let Some(stats) = self.game.stats.clone() else {
            return Ok(Vec::new());
        };
        let ctx = || self.context("stats");
        let bad = |msg: String| self.error_at(Some(stats.clone()), msg, "stats");
        let t = match self.call(&stats, (self.g(), &self.ctx), &ctx)? {
            Value::Nil => return Ok(Vec::new()),
            Value::Table(t) => t,
            other => {
                let got = described(&other);
                return Err(bad(format!(
                    "R.stats returned {got}, expected a table of name = number"
                )));
            }
        };
        let mut out = Vec::new();
        for pair in t.pairs::<Value, Value>() {
            let (k, v) = pair.map_err(|e| self.lua_failure(e))?;
            let name = match k {
                Value::String(s) => s.to_string_lossy(),
                other => {
                    return Err(bad(format!(
                        "R.stats: a key is {}, expected a name",
                        described(&other)
                    )))
                }
            };
            let n = match v {
                Value::Integer(i) => i as f64,
                Value::Number(n) if n.is_finite() => n,
                other @ Value::Number(_) => {
                    return Err(bad(format!(
                        "R.stats: '{name}' is {}, expected a finite number",
                        described(&other)
                    )))
                }
                other => {
                    return Err(bad(format!(
                        "R.stats: '{name}' is {}, expected a number",
                        described(&other)
                    )))
                }
            };
            out.push((name, n));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    fn eval(&self, code: &str) -> Result<serde_json::Value, GameError> {
        Ok(self.run_chunk(code)?.unwrap_or(serde_json::Value::Null))
    }

    fn exec(&mut self, code: &str) -> Result<Option<serde_json::Value>, GameError> {
        let out = self.run_chunk(code)?;
        // The decision is asked again, and so is one the rules failed to ask (an entry may
        // have mended what they failed on: failing again is no news); a final state asks
        // nothing.
        let terminal = (self.pkg.flow.state(&self.state_name())).is_some_and(|s| s.terminal);
        let asked = self.decision.is_some();
        if asked || !terminal {
            let fail = |e| self.lua_failure(e);
            self.state
                .raw_set(&self.keys.pending, Value::Nil)
                .map_err(fail)?;
            self.state
                .raw_set(&self.keys.entered, false)
                .map_err(fail)?;
            match self.settle() {
                Err(e) if asked => return Err(e),
                _ => {}
            }
        }
        Ok(out)
    }

    fn warnings(&self) -> Vec<Diagnostic> {
        self.warnings.clone()
    }

    fn hook_error(&self, hook: &str, msg: String) -> GameError {
        let f = self.hook_function(&self.state_name(), hook);
        self.error_at(f, msg, hook)
    }
}

impl Host {
    /// Runs a chunk in the game's sandbox (`G`, `ctx` and `R` in scope): its first result as
    /// JSON, or None when it returned nothing.
    fn run_chunk(&self, code: &str) -> Result<Option<serde_json::Value>, GameError> {
        let lua = &self.lua;
        let fail = |e| self.lua_failure(e);
        let env = &self.eval_env;
        env.raw_set(&self.keys.g, self.g()).map_err(fail)?;
        env.raw_set("ctx", &self.ctx).map_err(fail)?;
        env.raw_set("R", &self.rules).map_err(fail)?;
        let chunk = text_chunk(lua, code, "eval").set_environment(env.clone());
        let f = chunk.into_function().map_err(|e| {
            GameError::Script(ScriptError(Diagnostic::from_lua_message(
                &lua_message(&e),
                "eval",
            )))
        })?;
        let ctx = || "in eval".to_string();
        let values: MultiValue = self.call(&f, (), &ctx)?;
        let Some(v) = values.front().cloned() else {
            return Ok(None);
        };
        let v: Value = self.readable.call(v).map_err(|e| self.lua_failure(e))?;
        to_json(&self.lua, &v, "result")
            .map(Some)
            .map_err(GameError::Rejected)
    }
}

/// `e` placed at `line` of its file, when a line is known and `e` is a script error.
fn at_line(mut e: GameError, line: Option<usize>) -> GameError {
    if let (GameError::Script(ScriptError(d)), Some(line)) = (&mut e, line) {
        d.line = Some(line);
    }
    e
}

/// An action as the Lua option table `{verb, args...}`.
pub fn action_table(lua: &mlua::Lua, action: &Action) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set(1, action.verb.as_str())?;
    for (i, a) in action.args.iter().enumerate() {
        let v = match a {
            Arg::Bool(b) => Value::Boolean(*b),
            Arg::Int(n) => Value::Integer(*n),
            Arg::Num(n) => Value::Number(*n),
            Arg::Str(s) => Value::String(lua.create_string(s)?),
        };
        t.raw_set(i + 2, v)?;
    }
    Ok(t)
}

/// A checked options list as actions, read on the Lua stack in one call (a decision is read
/// at every stop). An entry that is no longer an option (a hook changed it since the driver
/// checked it) reads as "?", which no rules accept.
fn actions_of(lua: &mlua::Lua, list: &Table) -> Vec<Action> {
    let mut out = Vec::new();
    // SAFETY: reads the list passed as the one argument and the values in it; raises nothing.
    let read = unsafe {
        lua.exec_raw::<()>(list, |l| {
            if ffi::lua_checkstack(l, 4) == 0 {
                return;
            }
            let n = ffi::lua_rawlen(l, 1) as i64;
            for i in 1..=n {
                ffi::lua_rawgeti(l, 1, i);
                out.push(action_at(l).unwrap_or_else(|| Action::new("?")));
                ffi::lua_settop(l, 1);
            }
        })
    };
    if read.is_err() {
        out.clear();
    }
    out
}

/// The option at stack index 2 as an action, or None when it is not an option.
unsafe fn action_at(l: *mut ffi::lua_State) -> Option<Action> {
    if ffi::lua_type(l, 2) != ffi::LUA_TTABLE {
        return None;
    }
    let n = ffi::lua_rawlen(l, 2) as i64;
    ffi::lua_rawgeti(l, 2, 1);
    let mut action = Action::new(string_at(l)?);
    for j in 2..=n {
        ffi::lua_settop(l, 2);
        let arg = match ffi::lua_rawgeti(l, 2, j) {
            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, 3) != 0 => Arg::Int(ffi::lua_tointeger(l, 3)),
            ffi::LUA_TNUMBER => Arg::Num(ffi::lua_tonumber(l, 3)),
            ffi::LUA_TBOOLEAN => Arg::Bool(ffi::lua_toboolean(l, 3) != 0),
            ffi::LUA_TSTRING => Arg::Str(string_at(l)?),
            _ => return None,
        };
        action.args.push(arg);
    }
    Some(action)
}

/// The string at the top of the stack (index 3), when it is UTF-8.
unsafe fn string_at(l: *mut ffi::lua_State) -> Option<String> {
    if ffi::lua_type(l, 3) != ffi::LUA_TSTRING {
        return None;
    }
    let mut len = 0;
    let p = ffi::lua_tolstring(l, 3, &mut len);
    let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
    std::str::from_utf8(bytes).ok().map(str::to_string)
}

pub fn read_option_table(t: &Table) -> Result<Action, String> {
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

/// The first line of the script function `f` that holds the state name `to` as a string
/// literal (`return "to"`): where a hook returned it, read from the function's file; else the
/// one line of that file that holds it (a helper the hook called returned it).
fn returning_line(f: &Function, to: &str) -> Option<usize> {
    let quoted = [format!("\"{to}\""), format!("'{to}'")];
    let holds = |l: &str| {
        let code = l.split("--").next().unwrap_or_default();
        quoted.iter().any(|q| code.contains(q.as_str()))
    };
    line_in_function(f, holds).or_else(|| {
        let lines = lines_in_file(f, holds)?;
        (lines.len() == 1).then(|| lines[0])
    })
}

/// The line of `f` that returns `value` when it is written out (`return 42`, `return {`,
/// `return "jail"`), for a hook that returned no state name or a bad place.
fn returning_value_line(f: &Function, value: &Value) -> Option<usize> {
    let written = match value {
        Value::Integer(i) => vec![i.to_string()],
        Value::Number(n) => vec![n.to_string()],
        Value::Boolean(b) => vec![b.to_string()],
        Value::Table(_) => vec!["{".to_string()],
        Value::String(s) => {
            let s = s.to_string_lossy();
            vec![format!("\"{s}\""), format!("'{s}'")]
        }
        _ => return None,
    };
    let returns: Vec<String> = written.iter().map(|w| format!("return {w}")).collect();
    // `return 1` is not `return 12`; a comment returns nothing; two candidates are one too many.
    let writes = |l: &str| {
        let code = l.split("--").next().unwrap_or_default();
        returns.iter().any(|r| {
            code.match_indices(r.as_str()).any(|(at, _)| {
                let next = code[at + r.len()..].chars().next();
                let closed = r.ends_with(['{', '"', '\'']);
                closed || !next.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            })
        })
    };
    let lines = lines_in_function(f, writes)?;
    (lines.len() == 1).then(|| lines[0])
}

/// The first line of the Lua function `f`'s source that `found` accepts.
fn line_in_function(f: &Function, found: impl Fn(&str) -> bool) -> Option<usize> {
    lines_in_function(f, found)?.first().copied()
}

/// The lines of the Lua function `f`'s source that `found` accepts (None: no source to read).
fn lines_in_function(f: &Function, found: impl Fn(&str) -> bool) -> Option<Vec<usize>> {
    let info = f.info();
    let (first, last) = (info.line_defined?, info.last_line_defined?);
    lines_where(f, first..=last, found)
}

/// The lines of the file the Lua function `f` is written in that `found` accepts.
fn lines_in_file(f: &Function, found: impl Fn(&str) -> bool) -> Option<Vec<usize>> {
    lines_where(f, 1..=usize::MAX, found)
}

/// The lines numbered within `range` of the file `f` is written in that `found` accepts
/// (None: no source to read).
fn lines_where(
    f: &Function,
    range: std::ops::RangeInclusive<usize>,
    found: impl Fn(&str) -> bool,
) -> Option<Vec<usize>> {
    let path = f.info().source?.strip_prefix('@')?.to_string();
    let text = crate::def::source::read_text(std::path::Path::new(&path), &path).ok()?;
    let numbered = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    Some(
        numbered
            .filter(|(n, l)| range.contains(n) && found(l))
            .map(|(n, _)| n)
            .collect(),
    )
}

/// A Lua value as an error message names it: `a number (42)`, `a boolean (true)`, `a table`.
pub fn described(value: &Value) -> String {
    match value {
        Value::Integer(i) => format!("a number ({i})"),
        Value::Number(n) => format!("a number ({n})"),
        Value::Boolean(b) => format!("a boolean ({b})"),
        Value::Nil => "nil".to_string(),
        other => format!("a {}", other.type_name()),
    }
}
