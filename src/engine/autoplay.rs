//! The in-VM driver for games in which every seat is the heuristic bot: from the pending
//! decision, the game runs in chunks of decisions, each chunk one Lua call (`M.autoplay` in
//! `prelude.lua`) instead of several crossings per decision. It plays what the step-by-step
//! driver and `Heuristic::choose` would: the same hooks and transition checks, automatic
//! states and step guard, round cap, option checks and decision count, tie-breaks drawn from
//! each seat's own generator; the game, the generators and any error (located at the failing
//! hook, with its state, player and turn) end exactly as step by step.
//!
//! It applies only when nothing needs Rust between decisions: events not recorded, no undo
//! stack, options checked, an AI script with every seat's style, and no simultaneous (claim)
//! state anywhere in the flow; otherwise `autoplay` does nothing and says so. A new VM's first
//! chunk is one decision, and a chunk grows (eightfold after one under 2.5 ms, twofold after
//! one under 10 ms) or shrinks so as to take about 20 ms, far below the watchdog's arming
//! time; the next game on the same VM (a batch restarts it) starts where the chunks settled,
//! so that a short game is one call.
//! The watchdog's clock runs per call, so a chunk shares it between its decisions: a hook
//! that alone runs for nearly the arming time can be stopped a little sooner here than step
//! by step (a script that slow is stopped either way soon after).

use super::{context, Game, GameError, Pending, STEP_GUARD};
use crate::core::event::Outcome;
use crate::core::rng::GameRng;
use mlua::{Table, Value};
use std::time::{Duration, Instant};

/// One seat as the in-VM driver plays it: the heuristic rule with the AI's style `style`
/// (`None`: the AI table itself) and the bot's tie-break generator, drawn from in place.
pub struct VmSeat<'a> {
    pub style: Option<&'a str>,
    pub rng: &'a mut GameRng,
}

/// Decisions in a new VM's first chunk; later chunks aim at `CHUNK_TIME` each.
pub(super) const FIRST_CHUNK: u64 = 1;
const MAX_CHUNK: u64 = 1 << 16;
const CHUNK_TIME: Duration = Duration::from_millis(20);

/// Why a chunk stopped, as `M.autoplay` returns it.
type Stop = (String, String, u64, Value, Value);

impl Game {
    /// Plays the game to its end, or until it has taken `limit` decisions since its start, with
    /// every seat (`seats[i]` for seat i) the heuristic bot, inside the VM. Returns `Ok(false)`,
    /// having changed nothing, when the fast path does not apply (see the module comment):
    /// drive the game step by step then.
    pub fn autoplay(&mut self, seats: &mut [VmSeat<'_>], limit: u64) -> Result<bool, GameError> {
        let Some(run) = self.autoplay_run(seats)? else {
            return Ok(false);
        };
        self.moves += 1;
        let mut budget = self.chunk;
        loop {
            let left = limit.saturating_sub(self.world.borrow().decisions);
            let Some(p) = self.pending.take_if(|_| left > 0) else {
                return Ok(true);
            };
            let started = Instant::now();
            self.host.tiebreak.load(seats.iter().map(|s| &*s.rng));
            let result = self.autoplay_chunk(&run, p, budget.min(left));
            self.host
                .tiebreak
                .store(seats.iter_mut().map(|s| &mut *s.rng));
            result?;
            budget = match started.elapsed() {
                t if t < CHUNK_TIME / 8 => (budget * 8).min(MAX_CHUNK),
                t if t < CHUNK_TIME / 2 => (budget * 2).min(MAX_CHUNK),
                t if t > CHUNK_TIME * 2 => (budget / 2).max(1),
                _ => budget,
            };
            self.chunk = budget;
        }
    }

    /// What every chunk shares (`run` in `M.autoplay`), or `None` when the fast path does not
    /// apply.
    fn autoplay_run(&self, seats: &[VmSeat<'_>]) -> Result<Option<Table>, GameError> {
        let applies = !self.world.borrow().record_events
            && self.undo.is_none()
            && self.check_listed
            && self.world.borrow().claim.is_none()
            && seats.len() == self.world.borrow().seats
            && self
                .pkg
                .flow
                .states
                .iter()
                .all(|s| s.simultaneous.is_none());
        let Some(ai) = self.host.ai.as_ref().filter(|_| applies) else {
            return Ok(None);
        };
        let mut ais = Vec::with_capacity(seats.len());
        for seat in seats {
            // A missing style is the step path's error, at the first decision that needs it.
            let Ok(t) = seat.style.map_or(Ok(ai.clone()), |s| self.ai_style(s)) else {
                return Ok(None);
            };
            ais.push(t);
        }
        let h = &self.host;
        let cap = self.round_cap.map(|c| c as i64);
        let guard = STEP_GUARD as i64;
        let (ctx, state, states, draw) = (&h.ctx, &h.state, &h.states, &h.tiebreak.draw);
        let ais = mlua::Variadic::from_iter(ais);
        let run = h.new_run.call((ctx, state, states, draw, cap, guard, ais));
        run.map(Some).map_err(|e| self.lua_failure(e))
    }

    /// Plays up to `budget` decisions from `p` in one call, then leaves the game as the step
    /// path would: waiting for the next decision, over, or failed where the VM stopped.
    fn autoplay_chunk(&mut self, run: &Table, p: Pending, budget: u64) -> Result<(), GameError> {
        let state = self.pkg.flow.name(self.world.borrow().state).to_string();
        let args = (&self.g, run, state, p.seat + 1, p.lua_options, budget);
        let ctx = || {
            let (state, hook, ..) = self.probe(run);
            context(
                &self.pkg,
                &self.host,
                self.pkg.flow.index(&state).unwrap_or(0),
                &hook,
            )
        };
        let stop: Result<Stop, _> = self.host.call_driver(&self.host.autoplay, args, &ctx);
        let (why, state, n, a, b) = match stop {
            Ok(stop) => stop,
            Err(e) => {
                let (state, hook, n, seat, list) = self.probe(run);
                self.stopped(&state, n, &hook, seat, list);
                return Err(e.into());
            }
        };
        let state = self.stopped(&state, n, &why, a.clone(), b.clone());
        match why.as_str() {
            "ask" => Ok(()),
            "final" => {
                self.world.borrow_mut().finish(Outcome::Draw);
                Ok(())
            }
            "capped" => {
                let round = self.round_cap.expect("capped under a cap");
                self.world.borrow_mut().finish(Outcome::Capped { round });
                Ok(())
            }
            "next" => {
                let hook = a.to_string().map_err(|e| self.lua_failure(e))?;
                self.odd_next(state, &hook, b)
            }
            "none" => {
                let msg = format!(
                    "automatic state '{}' must return the name of the next state",
                    self.pkg.flow.name(state)
                );
                Err(self.flow_error(msg, "enter"))
            }
            "stuck" => {
                let (Value::Table(trail), Value::Integer(k)) = (a, b) else {
                    unreachable!("M.autoplay reports the trail")
                };
                let tail: Vec<usize> = (k - 5..=k)
                    .map(|i| trail.raw_get::<String>(i).ok())
                    .map(|name| name.and_then(|n| self.pkg.flow.index(&n)).unwrap_or(state))
                    .collect();
                Err(self.stuck(&tail))
            }
            "options" => {
                let msg = match a {
                    Value::String(problem) => problem.to_string_lossy(),
                    _ => format!(
                        "decision state '{}' offered no options",
                        self.pkg.flow.name(state)
                    ),
                };
                Err(self.flow_error(msg, "options"))
            }
            other => unreachable!("M.autoplay stopped for '{other}'"),
        }
    }

    /// A hook returned `value`, which is not the name of one of its state's next states: read
    /// it as the step path reads a hook's result, then take the transition (or report it) and
    /// settle as the step path does.
    fn odd_next(&mut self, state: usize, hook: &str, value: Value) -> Result<(), GameError> {
        let name = self.next_name(value, hook)?;
        let name = name.expect("M.autoplay reports a value, never nil");
        self.transition(state, &name, hook)?;
        self.settle()
    }

    /// Where `M.autoplay` stopped (or failed) as the step path leaves it: in `state`, with `n`
    /// more decisions played, and the decision it was at still pending when it stopped
    /// waiting for one (`ask`) or while the AI scored it (`ai.score`).
    fn stopped(&mut self, state: &str, n: u64, why: &str, seat: Value, list: Value) -> usize {
        let state = self.pkg.flow.index(state).expect("a state of the flow");
        let mut w = self.world.borrow_mut();
        w.state = state;
        w.decisions += n;
        self.just_entered = false;
        self.pending = match (why, seat, list) {
            ("ask" | "ai.score", Value::Integer(seat), Value::Table(list)) => {
                Some(Pending::new(seat as usize - 1, list))
            }
            _ => None,
        };
        state
    }

    /// The state, hook, decisions, seat and options list `M.autoplay` was last at.
    fn probe(&self, run: &Table) -> (String, String, u64, Value, Value) {
        let probed = run
            .raw_get::<mlua::Function>("probe")
            .and_then(|f| f.call(()));
        probed.unwrap_or_else(|_| {
            let state = self.pkg.flow.name(self.world.borrow().state).to_string();
            (state, "act".to_string(), 0, Value::Nil, Value::Nil)
        })
    }
}
