//! Driving the flow: automatic states run until a decision, every transition is checked
//! against the whitelist, a decision lists its options, and flow errors are located at the
//! hook that caused them. Also the in-VM random playout used by search bots.

use super::{context, Game, GameError, Pending, STEP_GUARD};
use crate::core::event::Outcome;
use crate::diag::Diagnostic;
use crate::script::ScriptError;
use mlua::Value;

impl Game {
    pub(super) fn transition(
        &mut self,
        from: usize,
        to: &str,
        hook: &str,
    ) -> Result<(), GameError> {
        match self.pkg.flow.check_transition(from, to) {
            Ok(t) => {
                self.world.borrow_mut().state = t;
                self.just_entered = true;
                Ok(())
            }
            // Located at the line returning the name, else at the hook.
            Err(msg) => {
                let f = self.hook_function(from, hook);
                let line = f.as_ref().and_then(|f| returning_line(f, to));
                let mut e = self.error_at(f, msg, hook);
                if let (GameError::Script(ScriptError(d)), Some(line)) = (&mut e, line) {
                    d.line = Some(line);
                }
                Err(e)
            }
        }
    }

    pub(super) fn flow_error(&self, msg: String, hook: &str) -> GameError {
        let state = self.world.borrow().state;
        self.error_at(self.hook_function(state, hook), msg, hook)
    }

    /// An error about what the script function `f` (the hook `hook`) did, located at its
    /// definition, with the flow's context as its note.
    pub(super) fn error_at(&self, f: Option<mlua::Function>, msg: String, hook: &str) -> GameError {
        let note = context(&self.pkg, &self.host, self.world.borrow().state, hook);
        let mut diag = Diagnostic::error(&self.host.rules_path, msg).note(note);
        if let Some(info) = f.map(|f| f.info()) {
            if let (Some(src), Some(line)) = (info.short_src, info.line_defined) {
                diag.path = src;
                diag.line = Some(line);
            }
        }
        GameError::Script(ScriptError(diag))
    }

    /// A hook's result read as the state to go to: nil stays, a string names the state, and
    /// anything else is an error located at the hook.
    pub(super) fn next_name(&self, value: Value, hook: &str) -> Result<Option<String>, GameError> {
        let shown = match &value {
            Value::Nil => return Ok(None),
            Value::String(s) => return Ok(Some(s.to_string_lossy())),
            other => described(other),
        };
        let msg = format!("hook '{hook}' returned {shown}, not the name of a state");
        Err(self.flow_error(msg, hook))
    }

    /// The Lua function behind a state's hook, to point errors at its definition.
    pub(super) fn hook_function(&self, state: usize, hook: &str) -> Option<mlua::Function> {
        let hooks = self.host.hooks.get(state)?;
        match hook {
            "enter" => hooks.enter.clone(),
            "options" => hooks.options.clone(),
            "act" => hooks.act.clone(),
            "seats" => hooks.seats.clone(),
            _ => None,
        }
    }

    /// Runs automatic states until a decision or the end.
    pub(super) fn settle(&mut self) -> Result<(), GameError> {
        let mut trail: Vec<usize> = Vec::new();
        loop {
            let state = self.world.borrow().state;
            let spec = &self.pkg.flow.states[state];
            let hooks = &self.host.hooks[state];
            if self.just_entered && (spec.decide || spec.terminal) {
                self.just_entered = false;
                if let Some(enter) = hooks.enter.clone() {
                    let next = self.enter(&enter)?;
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
            let Some(name) = self.enter(&enter)? else {
                let msg = format!(
                    "automatic state '{}' must return the name of the next state",
                    spec.name
                );
                return Err(self.flow_error(msg, "enter"));
            };
            self.transition(state, &name, "enter")?;
        }
    }

    /// Runs a state's `enter` hook with the seat whose turn it is; returns the next state.
    fn enter(&self, enter: &mlua::Function) -> Result<Option<String>, GameError> {
        let (seat, _) = self.host.turn_state().map_err(|e| self.lua_failure(e))?;
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "enter");
        let args = (&self.g, &self.host.ctx, seat + 1);
        let next = self.host.call(enter, args, &ctx)?;
        self.next_name(next, "enter")
    }

    pub(super) fn stuck(&self, trail: &[usize]) -> GameError {
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

    pub(super) fn ask(&mut self) -> Result<(), GameError> {
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
        let (seat, list) = if self.is_simultaneous(state) {
            match self.claim_seat(state, seat)? {
                Some(seat) => (seat, self.claim_options(state, seat)?),
                None => return self.resolve_claim(state),
            }
        } else {
            let options_fn = self.host.hooks[state]
                .options
                .clone()
                .expect("checked at load");
            let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "options");
            let list: Value =
                self.host
                    .call(&options_fn, (&self.g, &self.host.ctx, seat + 1), &ctx)?;
            (seat, list)
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "options");
        // Inside a search the lists go unchecked (a game checks every position it reaches),
        // but bare string options are made into tables.
        let check = if self.check_listed {
            &self.host.check_options
        } else {
            &self.host.unbare
        };
        let problem: Option<String> = self.host.call(check, list.clone(), &ctx)?;
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

    /// Plays random moves from the pending decision to the end (or `max_steps` decisions, or
    /// the round cap) inside the VM, for search bots. Leaves the game where the playout
    /// stopped with nothing pending: restore a snapshot to go on.
    pub fn random_playout(&mut self, max_steps: usize) -> Result<(), GameError> {
        // Finish an open simultaneous decision here: its answers so far live in the world.
        while self.world.borrow().claim.is_some() {
            let Some(n) = self.pending.as_ref().map(|p| p.len()) else {
                return Ok(());
            };
            let index = self.world.borrow_mut().rng.below(n as u64) as usize;
            self.apply_index(index)?;
        }
        if self.pending.take().is_none() {
            return Ok(());
        }
        let state = self.world.borrow().state;
        let name = self.pkg.flow.name(state).to_string();
        let args = (
            &self.g,
            &self.host.ctx,
            &self.host.state,
            &self.host.rules,
            &self.host.states,
            name,
            false,
            max_steps,
            self.round_cap,
        );
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "playout");
        let (end, _steps, hook, value): (String, usize, Option<String>, Value) =
            self.host.call_driver(&self.host.playout, args, &ctx)?;
        let index = self.pkg.flow.index(&end).unwrap_or(state);
        self.world.borrow_mut().state = index;
        if let Some(hook) = hook {
            return Err(self.bad_next(index, &hook, value));
        }
        if self.pkg.flow.states[index].terminal {
            self.world.borrow_mut().finish(Outcome::Draw);
        }
        Ok(())
    }

    /// The error of a hook of `state` that returned `value`, not one of its next states, in a
    /// playout: the step-by-step driver's error for it.
    fn bad_next(&mut self, state: usize, hook: &str, value: Value) -> GameError {
        if value.is_nil() {
            let msg = format!(
                "automatic state '{}' must return the name of the next state",
                self.pkg.flow.name(state)
            );
            return self.flow_error(msg, hook);
        }
        let name = match self.next_name(value, hook) {
            Ok(name) => name.unwrap_or_default(),
            Err(e) => return e,
        };
        match self.transition(state, &name, hook) {
            Err(e) => e,
            Ok(()) => self.flow_error(format!("state '{name}' was refused in a playout"), hook),
        }
    }
}

/// The first line of the script function `f` that holds the state name `to` as a string
/// literal (`return "to"`): where a hook returned it, read from the function's file.
fn returning_line(f: &mlua::Function, to: &str) -> Option<usize> {
    let info = f.info();
    let path = info.source?.strip_prefix('@')?.to_string();
    let (first, last) = (info.line_defined?, info.last_line_defined?);
    let text = std::fs::read_to_string(path).ok()?;
    let quoted = [format!("\"{to}\""), format!("'{to}'")];
    text.lines()
        .enumerate()
        .take(last)
        .skip(first.saturating_sub(1))
        .find(|(_, l)| quoted.iter().any(|q| l.contains(q.as_str())))
        .map(|(i, _)| i + 1)
}

/// A Lua value as an error message names it: `a number (42)`, `a boolean (true)`, `a table`.
pub(super) fn described(value: &Value) -> String {
    match value {
        Value::Integer(i) => format!("a number ({i})"),
        Value::Number(n) => format!("a number ({n})"),
        Value::Boolean(b) => format!("a boolean ({b})"),
        other => format!("a {}", other.type_name()),
    }
}
