//! A running game: its package and config, the rules behind the `Rules` seam (the Lua host,
//! whose one driver runs the flow), the history of decisions, undo and redo. A decision is
//! checked before it is played: an illegal action is rejected with a reason and changes
//! nothing. Nothing here names the scripting language.

mod history;
mod hooks;
mod live;
mod shown;
mod view;

pub use crate::core::rules::{Decision, GameError, Policy, ScriptError};
pub use crate::core::world::Snapshot;
pub use history::Mark;
pub use shown::Shown;

use crate::core::action::Action;
use crate::core::event::{Event, Outcome};
use crate::core::rng::GameRng;
use crate::core::rules::Rules;
use crate::core::world::World;
use crate::def::board::Board;
use crate::def::settings::apply_override;
use crate::def::Package;
use crate::diag::Diagnostic;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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

/// One applied decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub seat: usize,
    pub action: Action,
}

pub struct Game {
    pub pkg: Arc<Package>,
    pub config: GameConfig,
    pub settings: toml::Table,
    rules: Box<dyn Rules>,
    pub history: Vec<Step>,
    undo: Option<Vec<history::Undo>>,
    /// States undone, most recent last, with the history they had: what `redo` brings back.
    redo: Vec<(Snapshot, Vec<Step>)>,
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
    // The files' values were checked when read: one among none of its choices came from --set.
    for (key, values) in &pkg.choices {
        let off =
            (settings.get(key)).and_then(|v| crate::def::settings::off_choice(key, v, values));
        if let Some(e) = off {
            return Err(vec![Diagnostic::error("--set", e)]);
        }
    }
    board
        .grid_size(&settings)
        .map_err(|e| vec![Diagnostic::error("--set", e)])?;
    // game.toml and the map were checked when read: a bad value here came from `--set`.
    if let Some(e) = crate::def::settings::bad_round_cap(&settings) {
        return Err(vec![Diagnostic::error("--set", e)]);
    }
    Ok((board, settings))
}

/// The rules of `pkg` for `config` on its board: the Lua host, loaded and checked.
fn load_rules(
    pkg: &Arc<Package>,
    config: &GameConfig,
) -> Result<(Box<dyn Rules>, toml::Table), Vec<Diagnostic>> {
    let (board, settings) = board_and_settings(pkg, config)?;
    let host =
        crate::script::Host::load(pkg.clone(), &board, &settings, config.seats, config.seed)?;
    Ok((Box::new(host), settings))
}

impl Game {
    pub fn new(pkg: Arc<Package>, config: GameConfig) -> Result<Game, Vec<Diagnostic>> {
        let (min, max) = pkg.players;
        if config.seats < min || config.seats > max {
            let counts = pkg.player_counts();
            let msg = format!("{} takes {counts} players, not {}", pkg.id, config.seats);
            return Err(vec![Diagnostic::error("--players", msg)]);
        }
        let (rules, settings) = load_rules(&pkg, &config)?;
        let mut game = Game {
            pkg,
            config,
            settings,
            rules,
            history: Vec::new(),
            undo: None,
            redo: Vec::new(),
            moves: 0,
            shown: Default::default(),
        };
        let seed = game.config.seed;
        // The rules' warnings (a misspelt hook never called) are often the error's cause.
        if let Err(e) = game.rules.restart(seed) {
            let mut ds = vec![e.into_diagnostic(game.pkg.file("game.toml"))];
            ds.extend(game.warnings());
            crate::diag::sort(&mut ds);
            return Err(ds);
        }
        Ok(game)
    }

    /// Starts over with a new seed on the same rules (used by batch simulation).
    pub fn restart(&mut self, seed: u64) -> Result<(), GameError> {
        self.moves += 1;
        self.config.seed = seed;
        self.history.clear();
        if let Some(u) = &mut self.undo {
            u.clear();
        }
        self.redo.clear();
        self.rules.restart(seed)
    }

    pub fn set_record_events(&mut self, on: bool) {
        self.rules.set_recording(on);
    }

    /// Keeps a snapshot before every decision so `undo` can step back.
    pub fn enable_undo(&mut self) {
        self.undo.get_or_insert_with(Vec::new);
    }

    pub fn pending(&self) -> Option<&Decision> {
        self.rules.decision()
    }

    /// The pending decision, or the rejection every caller gives when there is none.
    pub fn decision(&self) -> Result<&Decision, GameError> {
        self.pending()
            .ok_or_else(|| GameError::Rejected("the game is over".into()))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome()
    }

    pub fn is_over(&self) -> bool {
        self.pending().is_none()
    }

    /// The world as it is now (read from where each component lives).
    pub fn world(&self) -> Result<World, GameError> {
        self.rules.world()
    }

    /// The world to draw. A session refuses (and undoes) any move after which the world cannot
    /// be read, so a read that fails here shows the game's empty start rather than stopping the
    /// screen.
    pub fn shown_world(&self) -> World {
        self.world().unwrap_or_else(|_| {
            let spaces = self.board().map_or(0, |b| b.spaces.len());
            World::new(self.config.seats, self.pkg.counters.len(), spaces, 0)
        })
    }

    /// The map this game is played on.
    pub fn board(&self) -> Result<&crate::def::board::Board, String> {
        self.pkg.map(self.config.map.as_deref())
    }

    pub fn snapshot(&self) -> Result<Snapshot, GameError> {
        self.rules.snapshot()
    }

    /// Gives the game's generator a fresh seed and shuffles every deck's draw pile with it
    /// (see `Rules::reseed`).
    pub fn reseed(&mut self, seed: u64) {
        self.rules.reseed(seed);
    }

    /// Runs `f` with every forced state's lone option asked like any decision (see
    /// `Rules::set_ask_forced`): a search that sums the scores of the moves it sees sees
    /// those too.
    pub fn asking_forced<R>(&mut self, f: impl FnOnce(&mut Game) -> R) -> R {
        self.rules.set_ask_forced(true);
        let r = f(self);
        self.rules.set_ask_forced(false);
        r
    }

    /// The next dice rolls will show these faces, in order.
    pub fn force_dice(&mut self, faces: &[u32]) {
        self.rules.force_dice(faces);
    }

    /// The grid cell filled last (0-based row and column), which the window marks as the last
    /// move: not part of the position, so a save keeps it beside the snapshot.
    pub fn last_cell(&self) -> Option<(usize, usize)> {
        self.rules.last_cell()
    }

    pub fn set_last_cell(&mut self, cell: Option<(usize, usize)>) {
        self.rules.set_last_cell(cell);
    }

    pub fn state_name(&self) -> String {
        self.rules.state_name()
    }

    /// The flow states entered since the game began, sorted (see `Rules::entered`).
    pub fn entered_states(&self) -> Vec<String> {
        self.rules.entered()
    }

    /// (state, verb) of the lone options forced states played, sorted (see `Rules::forced`).
    pub fn forced_verbs(&self) -> Vec<(String, String)> {
        self.rules.forced()
    }

    /// Takes the events logged since the last call.
    pub fn drain_events(&mut self) -> Vec<Event> {
        self.rules.drain_events()
    }

    /// Puts `events` back as the log not yet drained (a resumed save's last lines).
    pub fn put_events(&mut self, events: Vec<Event>) {
        self.rules.put_events(events);
    }

    pub fn events(&self) -> Vec<Event> {
        self.rules.events_since(0)
    }

    /// The events logged after the first `from` of the log not yet drained.
    pub fn events_since(&self, from: usize) -> Vec<Event> {
        self.rules.events_since(from)
    }

    pub fn event_count(&self) -> usize {
        self.rules.event_count()
    }

    /// What is odd in the rules but does not stop the game.
    pub fn warnings(&self) -> Vec<Diagnostic> {
        self.rules.warnings()
    }

    /// A script error `msg` about what the pending state's `hook` did, located at the hook.
    pub fn hook_error(&self, hook: &str, msg: String) -> GameError {
        self.rules.hook_error(hook, msg)
    }

    /// Seats still to answer in the open simultaneous decision (empty when there is none).
    pub fn waiting(&self) -> Vec<usize> {
        self.pending().map_or(Vec::new(), |p| p.waiting.clone())
    }

    /// The seconds a person has to answer in the current simultaneous state, if its
    /// `seconds` says.
    pub fn answer_seconds(&self) -> Option<u64> {
        self.simultaneous()?.seconds
    }

    /// The verb a seat answers by default in the current simultaneous state, if declared.
    fn default_answer(&self) -> Option<String> {
        self.simultaneous()?.default.clone()
    }

    /// How the current state resolves answers given at once, when it asks several seats.
    fn simultaneous(&self) -> Option<&crate::core::flow::Simultaneous> {
        self.pkg
            .flow
            .state(&self.state_name())?
            .simultaneous
            .as_ref()
    }

    /// The current state's default verb when no pending option has it (the rules offer no
    /// `pass` to a seat they name, say): time running out then takes the first option.
    pub fn default_missing(&self) -> Option<String> {
        let verb = self.default_answer()?;
        let options = self.pending()?.options();
        (!options.iter().any(|o| o.verb == verb)).then_some(verb)
    }

    /// Which of `options` a seat answers by default now: the one whose verb is the state's
    /// default answer, else the first; None when there are no options.
    pub fn default_option(&self, options: &[Action]) -> Option<usize> {
        let verb = self.default_answer();
        let declared = options.iter().position(|o| Some(&o.verb) == verb.as_ref());
        declared.or((!options.is_empty()).then_some(0))
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
        match p.options().iter().position(|o| o.same(action)) {
            Some(i) => Ok(i),
            None => Err(GameError::Rejected(self.why_not(seat, action))),
        }
    }

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

    /// Applies the pending decision's option number `index`. When undo is kept, a move the
    /// rules fail on, or whose position cannot be saved, is taken back (`take_back`): the
    /// position, history and redo are as they were. Without undo (a search) the game is left
    /// where the rules failed.
    pub fn apply_index(&mut self, index: usize) -> Result<(), GameError> {
        self.option_number(index + 1)?;
        self.moves += 1;
        self.keep_for_undo()?;
        if self.rules.recording() {
            let p = self.decision()?;
            let step = Step {
                seat: p.seat,
                action: p.options()[index].clone(),
            };
            self.history.push(step);
        }
        // A move the rules fail on logs nothing: its lines go with it.
        let mut events = self.rules.drain_events();
        let played = self.rules.play(index);
        let logged = self.rules.drain_events();
        if played.is_ok() {
            events.extend(logged);
        }
        self.rules.put_events(events);
        // With undo kept, the next move saves this position: it must be plain data now.
        let saved = match (played, self.undo.is_some()) {
            (Ok(()), true) => self.snapshot().map(|_| ()),
            (played, _) => played,
        };
        if let Err(e) = saved {
            self.take_back()?;
            return Err(e);
        }
        self.redo.clear();
        self.note_what_was_learned();
        Ok(())
    }

    /// Plays on from the pending decision, each seat answered by its policy (`policies[seat]`,
    /// drawing from `generators[seat]`), for at most `limit` decisions since the game began:
    /// it stops at a seat whose policy is `Ask`, at the end or at the limit. Nothing of it is
    /// recorded for undo.
    pub fn drive(
        &mut self,
        policies: &[Policy],
        generators: &mut [GameRng],
        limit: u64,
    ) -> Result<(), GameError> {
        self.moves += 1;
        let played = self.decisions();
        let left = limit.saturating_sub(played);
        self.rules.drive(policies, generators, left)
    }

    /// Plays the game on at random (the rules' `random_move` when they offer one) to its end,
    /// or for `max_steps` decisions, or to the round cap: a search bot's playout. Leaves the
    /// game where the playout stopped: go back to a mark to go on.
    pub fn random_playout(&mut self, max_steps: usize) -> Result<(), GameError> {
        let seats = self.config.seats;
        let policies = vec![Policy::Playout; seats];
        self.moves += 1;
        self.rules.drive(&policies, &mut [], max_steps as u64)
    }

    /// How many decisions a search bot's playout runs before `AI.standing` judges it (None:
    /// the game has no `AI.standing`, playouts go to the end).
    pub fn playout_horizon(&self) -> Option<u64> {
        self.rules.playout_horizon()
    }

    /// `AI.standing` of the position for every seat, from 0 (lost) to 1 (won).
    pub fn standings(&self) -> Result<Vec<f64>, GameError> {
        self.rules.standings()
    }

    /// Decisions applied since the game began.
    pub fn decisions(&self) -> u64 {
        self.rules.decisions().unwrap_or(0)
    }
}
