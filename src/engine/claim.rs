//! Decisions that ask several seats at once (a discard others may claim, a sealed bid). The
//! `seats` hook names who may answer; answers are collected in asking order and kept out of
//! every view and event until all are in; then the answer with the highest declared priority
//! wins (ties to the seat asked first) and `act(G, ctx, option, seat, answers)` runs once.
//! Who may answer is as secret as the answers (the hook reads hidden hands to name the seats
//! that can claim a discard), so when the state has a default answer every seat in play but
//! the current one is asked: a seat the hook did not name has that answer as its only option,
//! and its answer is not passed to `act`. Only the winning answer is logged.

use super::{context, Game, GameError};
use crate::core::action::{Action, Arg};
use crate::core::event::Event;
use crate::core::world::Claim;
use crate::script::ScriptError;
use mlua::{Lua, Table, Value};

/// An action as the Lua option table `{verb, args...}`.
pub fn action_table(lua: &Lua, action: &Action) -> mlua::Result<Table> {
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

impl Game {
    pub(super) fn is_simultaneous(&self, state: usize) -> bool {
        self.pkg.flow.states[state].simultaneous.is_some()
    }

    /// The seat to ask next in a simultaneous state (opening the claim on first call, asking
    /// from the seat after `current`), or `None` when the `seats` hook asked nobody.
    pub(super) fn claim_seat(
        &mut self,
        state: usize,
        current: usize,
    ) -> Result<Option<usize>, GameError> {
        if let Some(c) = &self.world.borrow().claim {
            return Ok(c.seats.get(c.answers.len()).copied());
        }
        let hook = self.host.hooks[state]
            .seats
            .clone()
            .expect("checked at load");
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "seats");
        let list: Value = self.host.call(&hook, (&self.g, &self.host.ctx), &ctx)?;
        let seats = self.world.borrow().seats;
        let ordered: Vec<usize> = self
            .host
            .call(
                &self.host.ask_order,
                (list, current + 1, seats),
                &String::new,
            )
            .map_err(|ScriptError(d)| self.flow_error(d.message, "seats"))?;
        let named: Vec<usize> = ordered.into_iter().map(|s| s - 1).collect();
        let in_play = self.world().in_play.clone();
        let asked: Vec<usize> = match self.default_answer() {
            None => named.clone(),
            Some(_) => (1..=seats)
                .map(|step| (current + step) % seats)
                .filter(|s| named.contains(s) || (*s != current && in_play[*s]))
                .collect(),
        };
        let Some(&first) = asked.first() else {
            return Ok(None);
        };
        let named = asked.iter().map(|s| named.contains(s)).collect();
        self.world.borrow_mut().claim = Some(Claim {
            seats: asked,
            named,
            answers: Vec::new(),
        });
        Ok(Some(first))
    }

    /// The options of `seat` in a simultaneous state: `options(G, ctx, seat)` for a seat the
    /// `seats` hook named, the state's default answer alone for another.
    pub(super) fn claim_options(&self, state: usize, seat: usize) -> Result<Value, GameError> {
        let named = self.world.borrow().claim.as_ref().is_none_or(|c| {
            let k = c.seats.iter().position(|s| *s == seat);
            k.is_none_or(|k| c.named.get(k).copied().unwrap_or(true))
        });
        if let (false, Some(verb)) = (named, self.default_answer()) {
            let lua = &self.host.lua;
            let only = action_table(lua, &Action::new(verb)).map_err(|e| self.lua_failure(e))?;
            let list = lua
                .create_sequence_from([only])
                .map_err(|e| self.lua_failure(e))?;
            return Ok(Value::Table(list));
        }
        let hook = self.host.hooks[state]
            .options
            .clone()
            .expect("checked at load");
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "options");
        Ok(self
            .host
            .call(&hook, (&self.g, &self.host.ctx, seat + 1), &ctx)?)
    }

    /// Records one seat's answer; once every asked seat has answered, resolves the claim.
    pub(super) fn answer_claim(&mut self, state: usize, action: Action) -> Result<(), GameError> {
        let complete = {
            let mut w = self.world.borrow_mut();
            let c = w
                .claim
                .as_mut()
                .expect("a claim is open while its seats are asked");
            c.answers.push(action);
            c.answers.len() == c.seats.len()
        };
        if complete {
            self.resolve_claim(state)
        } else {
            self.ask()
        }
    }

    /// Picks the winning answer and runs `act` once with it (with no option when nobody was
    /// asked); the winning answer alone is logged.
    pub(super) fn resolve_claim(&mut self, state: usize) -> Result<(), GameError> {
        let claim = self.world.borrow_mut().claim.take().unwrap_or(Claim {
            seats: Vec::new(),
            named: Vec::new(),
            answers: Vec::new(),
        });
        // Only the seats the rules named answer for the rules.
        let named = |k: usize| claim.named.get(k).copied().unwrap_or(true);
        let given: Vec<(usize, &Action)> = (claim.seats.iter().zip(&claim.answers).enumerate())
            .filter(|(k, _)| named(*k))
            .map(|(_, (s, a))| (*s, a))
            .collect();
        let rules = self.pkg.flow.states[state]
            .simultaneous
            .as_ref()
            .expect("a simultaneous state");
        let winner = rules.winner(given.iter().map(|(_, a)| a.verb.as_str()));
        let lua = &self.host.lua;
        let fail = |e| self.lua_failure(e);
        let answers = lua.create_table().map_err(fail)?;
        let mut winning = Value::Nil;
        for (k, (seat, action)) in given.iter().enumerate() {
            let (seat, action) = (*seat, *action);
            let t = action_table(lua, action).map_err(fail)?;
            if winner == Some(k) {
                winning = Value::Table(t.clone());
                self.world.borrow_mut().log(Event::Action {
                    seat,
                    action: action.clone(),
                });
            }
            answers.raw_set(seat + 1, t).map_err(fail)?;
        }
        let seat = winner.map_or(Value::Nil, |i| Value::Integer(given[i].0 as i64 + 1));
        let option = winning;
        let act = self.host.hooks[state].act.clone().expect("checked at load");
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "act");
        let next =
            (self.host).call(&act, (&self.g, &self.host.ctx, option, seat, answers), &ctx)?;
        match self.next_name(next, "act")? {
            Some(name) => self.transition(state, &name, "act")?,
            None => self.just_entered = false,
        }
        self.settle()
    }

    /// The verb a seat answers by default in the current simultaneous state, if declared.
    pub(super) fn default_answer(&self) -> Option<String> {
        let state = self.world.borrow().state;
        self.pkg.flow.states[state]
            .simultaneous
            .as_ref()
            .and_then(|s| s.default.clone())
    }

    /// Which of `options` a seat answers by default now: the one whose verb is the state's
    /// default answer, else the first; None when there are no options.
    pub fn default_option(&self, options: &[Action]) -> Option<usize> {
        let verb = self.default_answer();
        let declared = options.iter().position(|o| Some(&o.verb) == verb.as_ref());
        declared.or((!options.is_empty()).then_some(0))
    }

    /// Seats still to answer in the open simultaneous decision (empty when there is none).
    pub fn waiting(&self) -> Vec<usize> {
        match &self.world.borrow().claim {
            Some(c) => c.seats[c.answers.len()..].to_vec(),
            None => Vec::new(),
        }
    }
}
