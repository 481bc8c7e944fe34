//! The rules' and AI's optional hooks as the engine offers them: AI scores and styles,
//! statistics, running a script in the game (`eval`, `exec`), and the error of a game that
//! does not end. Labels, spots, status lines and reasons are in `shown.rs`.

use super::{Game, GameError};
use crate::core::rules::ScriptError;
use crate::diag::Diagnostic;

impl Game {
    /// Runs a script that changes the position (tests, tutorials), then asks the pending
    /// decision again so its options match the new position: the script's result, none when
    /// it returned nothing (a call such as `ctx.grid:set(1, 1, nil)`).
    pub fn exec(&mut self, code: &str) -> Result<Option<serde_json::Value>, GameError> {
        self.moves += 1;
        self.rules.exec(code)
    }

    /// Runs a script in the game (`G`, `ctx` and `R` in scope) and returns its result as JSON.
    pub fn eval(&self, code: &str) -> Result<serde_json::Value, GameError> {
        self.rules.eval(code)
    }

    /// Scores every pending option with the AI script (or its style `style`, a table in
    /// `AI.styles`).
    pub fn score_options(&self, style: Option<&str>) -> Result<Vec<f64>, GameError> {
        self.rules.scores(style)
    }

    /// The best score of the AI (or its style) and the options that reach it (at least one:
    /// a score that is not a number, NaN among them, is an error).
    pub fn best_options(&self, style: Option<&str>) -> Result<(f64, Vec<usize>), GameError> {
        self.rules.best(style)
    }

    /// Whether the AI script has the style `name`; else the message naming the styles it has.
    pub fn check_ai_style(&self, name: &str) -> Result<(), String> {
        if !self.has_ai() || self.ai_styles().iter().any(|s| s == name) {
            return Ok(());
        }
        let names = self.ai_styles();
        Err(format!(
            "the ai script of '{}' has no style '{name}' ({})",
            self.pkg.id,
            match names.is_empty() {
                true => "it defines no AI.styles".to_string(),
                false => format!("AI.styles has: {}", names.join(", ")),
            }
        ))
    }

    /// The names of the AI script's styles (`AI.styles`), sorted.
    pub fn ai_styles(&self) -> Vec<String> {
        self.rules.ai_styles()
    }

    /// Each verb the AI scores in `fixed`: the entry as shown, the verb and its line.
    pub fn ai_fixed(&self) -> Vec<(String, String, Option<usize>)> {
        self.rules.ai_fixed()
    }

    /// Whether the game has an AI script (its scores can guide search).
    pub fn has_ai(&self) -> bool {
        self.rules.has_ai()
    }

    /// Whether the rules place options themselves (`R.spot`), so that a board spot cannot be
    /// read back as an option's arguments.
    pub fn places_options(&self) -> bool {
        self.rules.places_options()
    }

    /// The numbers of the rules' `stats` hook, sorted by name.
    pub fn stats(&self) -> Result<Vec<(String, f64)>, GameError> {
        self.rules.stats()
    }

    /// The error of a game still going after `max` decisions (`ai::play_out`): where it stands
    /// and the two usual causes.
    pub fn endless(&self, max: u64) -> GameError {
        let round = self.world().map_or(0, |w| w.round);
        let seat = self.pending().map_or(0, |p| p.seat) + 1;
        let causes = match crate::script::rules::round_cap(&self.settings) {
            Some(cap) => {
                format!("or its rounds take so many decisions that round_cap {cap} is far off")
            }
            None => {
                "or the game can go on for ever and needs a round_cap in [settings]".to_string()
            }
        };
        let state = self.state_name();
        let hook = match self.simultaneous().is_some() {
            true => "its act returns nil, which asks every seat again",
            false => "a hook never moves the game on",
        };
        let msg = format!(
            "the game did not end within {max} decisions (now in state '{state}', round {round}, \
             P{seat} to move): {hook}, {causes} (a longer game can be allowed with \
             --max-decisions)"
        );
        GameError::Script(ScriptError(Diagnostic::error(
            self.pkg.file("game.toml"),
            msg,
        )))
    }
}
