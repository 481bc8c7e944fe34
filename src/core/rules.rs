//! The seam between the engine and a game's rules: everything the engine (history, undo and
//! redo, determinization, searches, reload) asks of the rules, in the core's own types. The
//! Lua host (`script`) implements it; nothing above the seam names the scripting language.

use super::action::{Action, Arg};
use super::event::{Event, Outcome};
use super::rng::GameRng;
use super::world::{Claim, Snapshot, World};
use super::zone::ZoneState;
use crate::diag::Diagnostic;
use std::cell::OnceCell;
use std::rc::Rc;

/// A script problem, located and with its context (state, hook, player, turn).
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptError(pub Diagnostic);

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
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

impl GameError {
    /// The error as a diagnostic: a script's is located; a refusal is said at `path`.
    pub fn into_diagnostic(self, path: impl Into<String>) -> Diagnostic {
        match self {
            GameError::Script(s) => s.0,
            GameError::Rejected(r) => Diagnostic::error(path, r),
        }
    }
}

impl From<ScriptError> for GameError {
    fn from(e: ScriptError) -> Self {
        GameError::Script(e)
    }
}

/// The decision a game waits for: who decides, their options as listed, and whether the
/// decision asks several seats at once. The options are read from the rules when first asked
/// for: a search that plays by index never reads them.
#[derive(Clone)]
pub struct Decision {
    pub seat: usize,
    /// Seats still to answer an open simultaneous decision, in asking order (empty otherwise).
    pub waiting: Vec<usize>,
    len: usize,
    options: OnceCell<Vec<Action>>,
    read: Rc<dyn Fn() -> Vec<Action>>,
}

impl Decision {
    /// A decision of `len` options that `read` lists (as many, in order) when asked.
    pub fn listed(
        seat: usize,
        len: usize,
        waiting: Vec<usize>,
        read: Rc<dyn Fn() -> Vec<Action>>,
    ) -> Decision {
        Decision {
            seat,
            waiting,
            len,
            options: OnceCell::new(),
            read,
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
        self.options.get_or_init(|| {
            let mut out = (self.read)();
            out.resize(self.len, Action::new("?"));
            out
        })
    }
}

impl PartialEq for Decision {
    fn eq(&self, other: &Decision) -> bool {
        (self.seat, &self.waiting) == (other.seat, &other.waiting)
            && self.options() == other.options()
    }
}

impl std::fmt::Debug for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (f.debug_struct("Decision"))
            .field("seat", &self.seat)
            .field("options", &self.options())
            .field("waiting", &self.waiting)
            .finish()
    }
}

/// Who answers a seat's decisions inside the rules' driver.
#[derive(Clone, Debug, PartialEq)]
pub enum Policy {
    /// The driver stops and the caller decides (a person, a search bot).
    Ask,
    /// A uniform pick, from the seat's own generator.
    Random,
    /// The AI script's best option (or that of one of its styles), ties drawn from the seat's
    /// own generator.
    Heuristic(Option<String>),
    /// A search's playout: the rules' `random_move`, else a uniform pick from the game's
    /// generator.
    Playout,
}

/// A position to come back to: what `Rules::mark` remembers.
pub type MarkId = usize;

/// Decisions a search bot's playout runs before `AI.standing` judges it, when the AI gives no
/// `AI.horizon`.
pub const DEFAULT_HORIZON: u64 = 100;

pub trait Rules {
    /// Starts the game afresh from `seed`: an empty position, the rules' setup, and the flow
    /// run to the first decision.
    fn restart(&mut self, seed: u64) -> Result<(), GameError>;

    /// The pending decision; `None` once the game is over.
    fn decision(&self) -> Option<&Decision>;

    /// Plays option `index` of the pending decision and runs the flow to the next decision.
    fn play(&mut self, index: usize) -> Result<(), GameError>;

    /// Runs the game on, each seat answered by its policy (`policies[seat]`, drawing from
    /// `generators[seat]`), for at most `limit` decisions: it stops at a seat whose policy is
    /// `Ask`, at the end, or at the limit.
    fn drive(
        &mut self,
        policies: &[Policy],
        generators: &mut [GameRng],
        limit: u64,
    ) -> Result<(), GameError>;

    /// The position as a snapshot (fails on a `G` that is not plain data, naming the path).
    fn snapshot(&self) -> Result<Snapshot, GameError>;

    /// Puts the game at `snap` and asks its pending decision again.
    fn restore(&mut self, snap: &Snapshot) -> Result<(), GameError>;

    /// Remembers the position and its pending decision (as listed, not listed again).
    fn mark(&mut self) -> Result<MarkId, GameError>;
    /// Puts the game back at a remembered position.
    fn back_to(&mut self, mark: MarkId) -> Result<(), GameError>;
    fn forget(&mut self, mark: MarkId);
    /// How many remembered positions are held (not yet forgotten).
    fn marks_held(&self) -> usize;

    /// The world, read now (without `G`).
    fn world(&self) -> Result<World, GameError>;
    /// Three parts of the world, each read alone (reading the whole world costs more): the
    /// decisions played since the start, whether each seat is in play, and the open
    /// simultaneous decision.
    fn decisions(&self) -> Result<u64, GameError>;
    fn in_play(&self) -> Result<Vec<bool>, GameError>;
    fn claim(&self) -> Result<Option<Claim>, GameError>;
    /// Puts these items into the game's zones (a re-deal), pile for pile.
    fn set_zones(&mut self, zones: &ZoneState) -> Result<(), GameError>;
    /// Replaces the answers given so far to the open simultaneous decision.
    fn set_answers(&mut self, answers: &[Action]) -> Result<(), GameError>;
    /// The options of `seat` in the open simultaneous decision.
    fn answers_of(&self, seat: usize) -> Result<Vec<Action>, GameError>;
    /// The flow state the game is in.
    fn state_name(&self) -> String;
    /// The flow states entered since the game began (the start among them, and those a
    /// search's moves entered), sorted.
    fn entered(&self) -> Vec<String>;
    /// (state, verb) of every lone option a forced state played since the game began, sorted.
    fn forced(&self) -> Vec<(String, String)>;

    /// The game's generator, given a fresh seed, and every deck's draw pile shuffled by it:
    /// what runs next knows neither the coming rolls nor the order of a face-down pile. Die
    /// faces the next rolls show.
    fn reseed(&mut self, seed: u64);
    fn force_dice(&mut self, faces: &[u32]);
    fn outcome(&self) -> Option<Outcome>;
    fn set_recording(&mut self, on: bool);
    /// Whether a forced state's lone option waits to be chosen like any other (for a search
    /// that weighs every move it sees) instead of being played at once.
    fn set_ask_forced(&mut self, on: bool);
    fn recording(&self) -> bool;
    fn drain_events(&mut self) -> Vec<Event>;
    /// Sets the event log (what a search set aside comes back).
    fn put_events(&mut self, events: Vec<Event>);
    /// The events logged after the first `from` of the log not yet drained.
    fn events_since(&self, from: usize) -> Vec<Event>;
    /// How many events the log not yet drained holds.
    fn event_count(&self) -> usize;
    /// The grid cell filled last (not part of the position: a save keeps it beside).
    fn last_cell(&self) -> Option<(usize, usize)>;
    fn set_last_cell(&mut self, cell: Option<(usize, usize)>);

    /// What the rules show of the pending option `index`: its label (`None`: the action as
    /// typed) and where it is played (`None`: the rules do not say, `R.spot` is not defined).
    fn label(&self, index: usize) -> Result<Option<String>, GameError>;
    fn spot(&self, index: usize) -> Result<Option<Vec<Arg>>, GameError>;
    /// The rules' status lines of `seat`.
    fn status(&self, seat: usize) -> Result<Vec<String>, GameError>;
    /// The rules' reason `seat` may not play `action`, if they give one.
    fn why_not(&self, seat: usize, action: &Action) -> Result<Option<String>, GameError>;
    /// Whether the rules place options themselves (`R.spot`).
    fn places_options(&self) -> bool;

    fn has_ai(&self) -> bool;
    /// The names of the AI's styles, sorted.
    fn ai_styles(&self) -> Vec<String>;
    /// Each verb `AI.fixed` (or a style's `fixed`) scores: the entry as shown
    /// (`AI.fixed.pass`), the verb, and the AI file's line that gives it, when found.
    fn ai_fixed(&self) -> Vec<(String, String, Option<usize>)>;
    /// The AI's (or its style's) score of every pending option.
    fn scores(&self, style: Option<&str>) -> Result<Vec<f64>, GameError>;
    /// The best score and the pending options that reach it.
    fn best(&self, style: Option<&str>) -> Result<(f64, Vec<usize>), GameError>;

    /// How many decisions a search bot's playout runs before `AI.standing` judges where it
    /// stopped: `AI.horizon` (or `DEFAULT_HORIZON`) when the AI has `AI.standing`; None plays
    /// playouts to the end.
    fn playout_horizon(&self) -> Option<u64>;
    /// `AI.standing` of the position for every seat, from 0 (lost) to 1 (won).
    fn standings(&self) -> Result<Vec<f64>, GameError>;

    /// The rules' numbers of the game (`R.stats`), sorted by name.
    fn stats(&self) -> Result<Vec<(String, f64)>, GameError>;
    /// Runs a chunk in the game's sandbox (`G`, `ctx` and `R` in scope): its result.
    fn eval(&self, code: &str) -> Result<serde_json::Value, GameError>;
    /// Runs a chunk that changes the position, then asks the pending decision again: its
    /// result, none when it returned nothing.
    fn exec(&mut self, code: &str) -> Result<Option<serde_json::Value>, GameError>;

    /// What is odd in the rules but does not stop the game.
    fn warnings(&self) -> Vec<Diagnostic>;
    /// A script error `msg` about what the pending state's `hook` did, at its definition.
    fn hook_error(&self, hook: &str, msg: String) -> GameError;
}
