//! The rules' and AI's optional hooks seen from Rust: reasons for rejected actions,
//! statistics, AI scores, and running Lua in the game (`eval`, `exec`). Labels and status lines
//! are in `shown.rs`.

use super::drive::described;
use super::{context, Game, GameError};
use crate::diag::Diagnostic;
use crate::script::convert::to_json;
use crate::script::ScriptError;
use mlua::{Table, Value};

impl Game {
    /// Runs Lua that changes the position (tests, tutorials), then asks the pending decision
    /// again so its options match the new position.
    pub fn exec(&mut self, code: &str) -> Result<serde_json::Value, GameError> {
        self.moves += 1;
        let out = self.eval(code)?;
        if self.pending.is_some() {
            self.pending = None;
            self.ask()?;
        }
        Ok(out)
    }

    /// Scores every pending option with the AI script (or its style `style`, a table in
    /// `AI.styles`).
    pub fn score_options(&self, style: Option<&str>) -> Result<Vec<f64>, GameError> {
        self.with_ai_scores(&self.host.scores, style)
    }

    /// Calls a prelude helper with (AI, G, ctx, seat, options) for the pending decision.
    pub(super) fn with_ai_scores<R: mlua::FromLuaMulti>(
        &self,
        helper: &mlua::Function,
        style: Option<&str>,
    ) -> Result<R, GameError> {
        let (Some(ai), Some(p)) = (&self.host.ai, &self.pending) else {
            return Err(GameError::Rejected(format!(
                "game '{}' has no ai script with a score function",
                self.pkg.id
            )));
        };
        let ai = match style {
            None => ai.clone(),
            Some(name) => self.ai_style(name)?,
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "ai.score");
        let args = (ai, &self.g, &self.host.ctx, p.seat + 1, &p.lua_options);
        Ok(self.host.call(helper, args, &ctx)?)
    }

    /// Whether the AI script has the style `name`; else the message naming the styles it has.
    pub fn check_ai_style(&self, name: &str) -> Result<(), String> {
        match self.host.ai.as_ref().map(|_| self.ai_style(name)) {
            Some(Err(GameError::Rejected(why))) => Err(why),
            Some(Err(e)) => Err(e.to_string()),
            _ => Ok(()),
        }
    }

    /// `AI.styles[name]`, an alternative strategy of the same AI script.
    pub(super) fn ai_style(&self, name: &str) -> Result<Table, GameError> {
        if let Some(t) = self.host.style(name) {
            return Ok(t.clone());
        }
        let names = self.ai_styles();
        Err(GameError::Rejected(format!(
            "the ai script of '{}' has no style '{name}' ({})",
            self.pkg.id,
            if names.is_empty() {
                "it defines no AI.styles".to_string()
            } else {
                format!("AI.styles has: {}", names.join(", "))
            }
        )))
    }

    /// The names of the AI script's styles (`AI.styles`), sorted.
    pub fn ai_styles(&self) -> Vec<String> {
        self.host.styles.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Whether the game has an AI script (its scores can guide search).
    pub fn has_ai(&self) -> bool {
        self.host.ai.is_some()
    }

    /// The best score of the AI (or its style) and the options that reach it (at least one:
    /// a score that is not a number, NaN among them, is an error).
    pub fn best_options(&self, style: Option<&str>) -> Result<(f64, Vec<usize>), GameError> {
        let (best, tied): (f64, mlua::Variadic<usize>) =
            self.with_ai_scores(&self.host.best, style)?;
        Ok((best, tied.iter().map(|i| i - 1).collect()))
    }

    /// The error of a game still going after `max` decisions (`ai::play_out`): where it stands
    /// and the two usual causes.
    pub fn endless(&self, max: u64) -> GameError {
        let w = self.world();
        let seat = self.pending.as_ref().map_or(0, |p| p.seat) + 1;
        let causes = match self.round_cap {
            Some(cap) => {
                format!("or its rounds take so many decisions that round_cap {cap} is far off")
            }
            None => {
                "or the game can go on for ever and needs a round_cap in [settings]".to_string()
            }
        };
        let msg = format!(
            "the game did not end within {max} decisions (now in state '{}', round {}, P{seat} \
             to move): a hook never moves the game on, {causes} (a longer game can be allowed \
             with --max-decisions)",
            self.pkg.flow.name(w.state),
            w.round,
        );
        GameError::Script(ScriptError(Diagnostic::error(
            self.pkg.file("game.toml"),
            msg,
        )))
    }

    /// The numbers of the rules' `stats` hook, sorted by name.
    pub fn stats(&self) -> Result<Vec<(String, f64)>, GameError> {
        let Some(stats) = self.host.game.stats.clone() else {
            return Ok(Vec::new());
        };
        let ctx = || context(&self.pkg, &self.host, self.world.borrow().state, "stats");
        let bad = |msg: String| self.error_at(Some(stats.clone()), msg, "stats");
        let t = match self.host.call(&stats, (&self.g, &self.host.ctx), &ctx)? {
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
                Value::Number(n) => n,
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
