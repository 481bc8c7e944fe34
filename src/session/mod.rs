//! One game being played by people and bots: the seats and their bots, the one `apply` every
//! player goes through, undo and redo, the record and saves, the answer clock and live
//! reload. The terminal, the window and (next) the network server all drive a `Session`; none
//! of them computes a rule.

mod files;
pub mod interrupt;
mod reload;

pub use files::{play_command, read_game, record_game, resume, start, Started};
pub use reload::Reloaded;

use crate::ai::{Bot, Seat};
use crate::core::event::Event;
use crate::diag::sole;
use crate::engine::ScriptError;
use crate::engine::{Game, GameError};
use crate::replay::{Record, RecordStep};

/// What a person is told when the rules fail on a move (`e`): `apply` took it back.
pub fn failed(e: &ScriptError) -> String {
    format!("{e}\nthe rules failed on that move; it was undone")
}

pub struct Session {
    pub game: Game,
    pub seats: Vec<Seat>,
    pub bots: Vec<Option<Box<dyn Bot>>>,
    pub record: Record,
    /// Per `undo` command: decisions undone and their record steps, for `redo`.
    undone: Vec<(usize, Vec<RecordStep>)>,
    /// How the game would differ under the rules of the last reload, as last said (a later
    /// reload says it again only when it changed).
    differs: Option<String>,
    /// The rules the last decision was played under: a reload compares the game with them.
    played_under: std::sync::Arc<crate::def::Package>,
    /// Seconds a person has to answer a simultaneous decision, as `--answer-seconds` says
    /// (0: no limit; none: as the state says).
    pub answer_seconds: Option<u64>,
    /// The seed, when it is told only once the game is over: it tells every hidden pile.
    pub secret_seed: Option<u64>,
    /// Whether a file this game can go on from was read or written (a save, a replay): while
    /// it can go on, its seed stays untold.
    resumable: bool,
    /// The last lines of the log (`replay::BACKLOG` at most), which a save keeps; an undo or
    /// redo clears them (they would tell moves taken back).
    backlog: std::collections::VecDeque<Event>,
}

/// A bot for every seat that is not human, seeded from the game's `seed` and how many `steps`
/// the record has got (a resumed game's bots differ from the first run's).
pub fn bots(seats: &[Seat], seed: u64, steps: usize) -> Vec<Option<Box<dyn Bot>>> {
    let seed = seed ^ steps as u64;
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| s.bot(seed, i))
        .collect()
}

impl Session {
    /// A session with a bot for every seat that is not human (see `bots`).
    pub fn new(game: Game, seats: Vec<Seat>, record: Record) -> Session {
        let bots = bots(&seats, game.config.seed, record.steps.len());
        Session {
            played_under: game.pkg.clone(),
            game,
            seats,
            bots,
            record,
            undone: Vec::new(),
            differs: None,
            answer_seconds: None,
            secret_seed: None,
            resumable: false,
            backlog: std::collections::VecDeque::new(),
        }
    }

    /// Applies option `index` for `seat` and records it (the one path for every player). A
    /// move the rules fail on, or whose position cannot be saved, is taken back by the game:
    /// the game, the record and what `redo` brings back stay as they were (see `failed`).
    pub fn apply(&mut self, seat: usize, index: usize) -> Result<(), GameError> {
        let before = self.game.event_count();
        self.game.apply_index(index)?;
        self.undone.clear();
        self.played_under = self.game.pkg.clone();
        let hash = self.game.snapshot()?.hash();
        let action = self
            .game
            .history
            .last()
            .expect("just applied")
            .action
            .clone();
        let log = crate::replay::public_lines(&self.game.events_since(before));
        self.record.steps.push(RecordStep {
            seat,
            action,
            hash,
            log,
        });
        Ok(())
    }

    /// The option `seat` means by `line` as typed at the prompt or in an actions file: its
    /// number as listed (from 1), its action (`place 8 8`, or as text: `keep 22` for
    /// `{"keep", "22"}`) or its label as shown (`discard 南`, or with an item by its name:
    /// `discard S`), in any letter case, its names in any order, or the first words of its
    /// label (see `leading`); a number that is another option's label is refused as
    /// ambiguous. A line that names none is refused with the rules' reason, else with
    /// `listed`'s words when the options are in sight (`listed(count)`, with the nearest verb
    /// when the verb is wrong), else with the options themselves.
    pub fn typed(
        &mut self,
        seat: usize,
        line: &str,
        listed: impl Fn(usize) -> Option<String>,
    ) -> Result<usize, GameError> {
        if let Ok(n) = line.parse::<usize>() {
            let labels = self.game.shown(Some(seat)).labels;
            return match labels.iter().position(|l| l == line) {
                Some(i) if n == 0 || n > labels.len() => Ok(i),
                Some(i) if i + 1 != n => Err(GameError::Rejected(format!(
                    "'{line}' is option {n} and the label of option {}: type the action of the \
                     one you mean",
                    i + 1
                ))),
                _ => self.game.option_number(n),
            };
        }
        let Some(action) = crate::core::action::Action::parse(line) else {
            return Err(GameError::Rejected("type a number or an action".into()));
        };
        self.game.check_action(seat, &action).or_else(|e| {
            // An argument typed as a number may be an option's text ({"keep", "22"}); a line
            // typed in other letter cases names the one option or label it fits, and names
            // typed in another order the one option or label of those names (three cards
            // to pass, as `pass qs 2c kh` or as shown, `pass K♥ Q♠ 2♣`).
            let text = action.to_string();
            let options: Vec<String> = (self.game.pending().filter(|p| p.seat == seat))
                .map(|p| p.options().iter().map(|o| o.to_string()).collect())
                .unwrap_or_default();
            let labels = self.game.shown(Some(seat)).labels;
            // A line naming items (`discard 5m`) is read as shown too, after the line as
            // typed: a label typed as shown may be another item's name.
            let shown = self.game.pkg.items.labelled(line);
            let by_label = |typed: &str| {
                (labels.iter().position(|l| l == typed))
                    .or_else(|| only_one(&labels, typed))
                    .or_else(|| in_any_order(&labels, typed))
                    .or_else(|| leading(&labels, &options, typed))
            };
            let found = (options.iter().position(|o| *o == text))
                .or_else(|| labels.iter().position(|l| l == line))
                .or_else(|| only_one(&options, &text))
                .or_else(|| in_any_order(&options, &text))
                .or_else(|| by_label(line))
                .or_else(|| by_label(&shown));
            if let Some(i) = found {
                return Ok(i);
            }
            match (self.game.reason(seat, &action), listed(labels.len())) {
                (Ok(None), Some(words)) => {
                    let hint = verb_hint(line, labels.iter().chain(&options));
                    Err(GameError::Rejected(words + &hint))
                }
                _ => Err(e),
            }
        })
    }

    /// What to say of the seed when the session ends: it was kept secret while the game went
    /// on (it tells every hidden pile), and stays so while a file can resume the game.
    pub fn seed_note(&self) -> Option<String> {
        let seed = self.secret_seed?;
        Some(match self.resumable && !self.game.is_over() {
            true => "the seed stays untold: the game can go on from its file".into(),
            false => format!(
                "the game's seed was {seed}: play it again with {}",
                self.again()
            ),
        })
    }

    /// The command that plays this game again: its game, map, players, seed and settings.
    fn again(&self) -> String {
        let g = &self.game;
        let players: Vec<String> = self.seats.iter().map(Seat::to_string).collect();
        let (map, players) = (g.board().map_or("?", |b| b.id.as_str()), players.join(","));
        let game = (g.pkg.shown.as_str(), map, players.as_str());
        play_command(game, g.config.seed, &g.config.settings)
    }

    /// The events logged since the last call, for a front end to show; the lines among them
    /// (`Event::is_line`) are kept for a save.
    pub fn drain_log(&mut self) -> Vec<Event> {
        let events = self.game.drain_events();
        self.backlog
            .extend(events.iter().filter(|e| e.is_line()).cloned());
        let extra = self.backlog.len().saturating_sub(crate::replay::BACKLOG);
        self.backlog.drain(..extra);
        events
    }

    /// Whose eyes the session shows: the person being asked, else the only person seated,
    /// else nobody's (public things only).
    pub fn viewer(&self) -> Option<usize> {
        if let Some(p) = self.game.pending().filter(|p| self.is_person(p.seat)) {
            return Some(p.seat);
        }
        let people: Vec<usize> = (0..self.bots.len())
            .filter(|s| self.is_person(*s))
            .collect();
        match people[..] {
            [only] => Some(only),
            _ => None,
        }
    }

    /// Whether a person sits at `seat` (no bot plays it).
    pub fn is_person(&self, seat: usize) -> bool {
        self.bots.get(seat).is_some_and(|b| b.is_none())
    }

    /// Whether the seat to move is a person's.
    pub fn human_turn(&self) -> bool {
        (self.game.pending()).is_some_and(|p| self.is_person(p.seat))
    }

    /// The answer a person gives without being asked: the only option of a decision that asks
    /// several seats at once (a claim they cannot make), so that being asked tells nothing.
    pub fn forced(&self) -> Option<usize> {
        let p = self.game.pending()?;
        (self.is_person(p.seat) && p.len() == 1 && !self.game.waiting().is_empty()).then_some(0)
    }

    /// How long the person being asked may take: limited only in a simultaneous decision, by
    /// `--answer-seconds`, else the state's `seconds`, else 15 s (0: no limit).
    pub fn answer_limit(&self) -> Option<std::time::Duration> {
        let seconds = (self.answer_seconds.or(self.game.answer_seconds())).unwrap_or(15);
        (seconds > 0 && !self.game.waiting().is_empty())
            .then(|| std::time::Duration::from_secs(seconds))
    }

    /// The option taken when time runs out: the state's declared default verb, else the first.
    pub fn default_option(&self) -> usize {
        let options = self.game.pending().map(|p| p.options()).unwrap_or_default();
        self.game.default_option(options).unwrap_or(0)
    }

    /// What time running out takes, as the clock says it: `'pass'`, or the first option and
    /// why when no option has the state's default verb.
    pub fn default_label(&mut self) -> String {
        let label = self.label(self.default_option());
        match self.game.default_missing() {
            Some(verb) => {
                format!("the first option, '{label}' (none is '{verb}', the state's default)")
            }
            None => format!("'{label}'"),
        }
    }

    /// Option `index`'s label as the session's viewer may know it (`viewer`).
    pub fn label(&mut self, index: usize) -> String {
        let viewer = self.viewer();
        let labels = self.game.shown(viewer).labels;
        labels.get(index).cloned().unwrap_or_default()
    }

    /// What the table is waiting for, as anyone may be told: `P3 (mcts) is thinking`; while a
    /// simultaneous decision is open, who is asked stays secret (a pause names no one).
    pub fn thinking(&self) -> String {
        match self.game.pending() {
            Some(p) if p.waiting.is_empty() => {
                format!("P{} ({}) is thinking", p.seat + 1, self.seats[p.seat])
            }
            Some(_) => "the table is answering".into(),
            None => "the game is over".into(),
        }
    }

    /// Steps back to this person's previous decision (undoing the bots' replies too), but not
    /// past a decision that showed a person something hidden; what was undone is kept for
    /// `redo`. Says what happened, and the public log lines of the moves taken back.
    pub fn undo(&mut self) -> (String, Vec<String>) {
        let mut undone = 0;
        let mut kept = None;
        loop {
            // A person who saw a hidden item (a drawn tile) cannot be made to forget it.
            let people = self.game.undo_would_unteach();
            if let Some(p) = people.into_iter().find(|p| self.bots[*p].is_none()) {
                kept = Some(p);
                break;
            }
            match self.game.undo() {
                Ok(true) => undone += 1,
                Ok(false) => break,
                Err(e) => return (e.to_string(), Vec::new()),
            }
            if self.human_turn() {
                break;
            }
        }
        if undone > 0 && !self.human_turn() {
            // Short of a person's decision the bots would only play the same again: put back
            // what was taken, and keep what redo may bring back.
            for _ in 0..undone {
                if let Err(e) = self.game.redo() {
                    return (e.to_string(), Vec::new());
                }
            }
            undone = 0;
        }
        let steps =
            (self.record.steps).split_off(self.game.history.len().min(self.record.steps.len()));
        let lines = step_lines(&steps);
        if undone > 0 {
            self.undone.push((undone, steps));
        }
        self.game.drain_events();
        self.backlog.clear();
        let stop = kept.map(|p| {
            format!(
                "P{} saw something hidden then (a draw, a deal, a card played from a hand), which an undo cannot take back (unless game.toml says undo_past_reveals = true)",
                p + 1
            )
        });
        let said = match (undone, stop) {
            (0, Some(why)) => format!("cannot undo: {why}"),
            (0, None) => match self.record.reloads.last() {
                Some(r) if r.after_step == self.record.steps.len() => {
                    "nothing to undo: the history starts again at a reload".into()
                }
                _ => "nothing to undo".into(),
            },
            (n, Some(why)) => format!(
                "undid {} (stopped there: {why})",
                crate::diag::plural(n, "decision")
            ),
            (n, None) => format!("undid {}", crate::diag::plural(n, "decision")),
        };
        (said, lines)
    }

    /// Brings back what the last `undo` took back. Says what happened, and the public log
    /// lines of the moves brought back.
    pub fn redo(&mut self) -> (String, Vec<String>) {
        let Some((count, steps)) = self.undone.pop() else {
            return ("nothing to redo".into(), Vec::new());
        };
        for _ in 0..count {
            if let Err(e) = self.game.redo() {
                return (e.to_string(), Vec::new());
            }
        }
        let lines = step_lines(&steps);
        self.record.steps.extend(steps);
        self.game.drain_events();
        self.backlog.clear();
        let said = format!("redid {}", crate::diag::plural(count, "decision"));
        (said, lines)
    }
}

/// The public log lines the record `steps` wrote.
fn step_lines(steps: &[RecordStep]) -> Vec<String> {
    steps.iter().flat_map(|s| s.log.iter().cloned()).collect()
}

/// The index of the one option in `options` that is `typed` with its names in another order
/// or letter case (`pass ah ks qs` for `pass QS KS AH`), if only one is: an action of two
/// names or more and no number, whose order tells nothing.
fn in_any_order(options: &[String], typed: &str) -> Option<usize> {
    let names = |text: &str| {
        let mut words = text.split_whitespace();
        let verb = words.next()?;
        let mut names: Vec<String> = words.map(str::to_lowercase).collect();
        if names.len() < 2 || names.iter().any(|w| w.parse::<f64>().is_ok()) {
            return None;
        }
        names.sort_unstable();
        Some((verb.to_lowercase(), names.join(" ")))
    };
    let want = names(typed)?;
    sole(options.iter().map(|o| names(o).as_ref() == Some(&want)))
}

/// `; did you mean 'roll'?` when the first word `typed` is no option's first word and one is
/// near it (a number typed wrong gets no hint: the verb was right).
fn verb_hint<'a>(typed: &str, options: impl Iterator<Item = &'a String>) -> String {
    let verbs: Vec<&str> = options.map(|o| first_word(o)).collect();
    let word = first_word(typed);
    match verbs.iter().any(|v| v.eq_ignore_ascii_case(word)) {
        true => String::new(),
        false => crate::diag::hint(word, verbs.iter().copied()),
    }
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// The index of the one option whose label's first words are the words `typed`, in any
/// letter case, if only one's are: its verb alone (`buy`), or its verb and as many words as its
/// action has arguments (`buy 广州骑楼` for `buy 广州骑楼 for ¥240`, whose action is
/// `buy guangzhou`). A move short of an argument (`pass 5♥ 10♥`, `place 1`) names nothing.
fn leading(labels: &[String], actions: &[String], typed: &str) -> Option<usize> {
    let words = |t: &str| -> Vec<String> { t.split_whitespace().map(str::to_lowercase).collect() };
    let want = words(typed);
    let starts = |(label, action): &(&String, &String)| {
        let label = words(label);
        let whole = want.len() == 1 || want.len() == action.split_whitespace().count();
        whole && label.len() > want.len() && label.starts_with(&want)
    };
    if want.is_empty() {
        return None;
    }
    sole(labels.iter().zip(actions).map(|o| starts(&o)))
}

/// The index of the one word in `words` that is `typed` in other letter cases, if only one is.
fn only_one(words: &[String], typed: &str) -> Option<usize> {
    sole(
        words
            .iter()
            .map(|w| w.to_lowercase() == typed.to_lowercase()),
    )
}

#[cfg(test)]
mod tests {
    use super::only_one;

    #[test]
    fn a_word_in_other_cases_is_found_only_when_one_fits() {
        let words = ["buy".to_string(), "Pass".to_string(), "pass".to_string()];
        assert_eq!(only_one(&words, "BUY"), Some(0));
        assert_eq!(only_one(&words, "PASS"), None);
        assert_eq!(only_one(&words, "sell"), None);
    }

    #[test]
    fn only_a_verb_typed_wrong_gets_a_hint() {
        let options = ["roll", "discard 3万", "discard 中"].map(String::from);
        assert_eq!(
            super::verb_hint("rol", options.iter()),
            "; did you mean 'roll'?"
        );
        assert_eq!(super::verb_hint("discard 99", options.iter()), "");
        assert_eq!(super::verb_hint("sell 3", options.iter()), "");
    }

    #[test]
    fn the_first_words_of_one_option_name_it() {
        let labels = ["buy 广州骑楼 for ¥240", "do not buy", "pung 1饼"].map(String::from);
        let actions = ["buy guangzhou", "pass", "pung 9"].map(String::from);
        let leading = |typed| super::leading(&labels, &actions, typed);
        assert_eq!(leading("buy 广州骑楼"), Some(0));
        assert_eq!(leading("BUY"), Some(0));
        assert_eq!(leading("pung"), Some(2));
        // A word that begins another word names nothing, nor does nothing typed.
        assert_eq!(leading("pun"), None);
        assert_eq!(leading(""), None);
        // A move short of an argument names nothing, though one option would fit it.
        let cards = ["pass 5♥ 10♥ J♥", "pass 2♣ 9♣ 3♦"].map(String::from);
        assert_eq!(super::leading(&cards, &cards, "pass 5♥ 10♥"), None);
        let places = ["place 1 3", "place 2 2"].map(String::from);
        assert_eq!(super::leading(&places, &places, "place 1"), None);
        assert_eq!(super::leading(&places, &places, "place"), None);
    }

    #[test]
    fn names_typed_in_another_order_find_the_one_option_of_those_names() {
        let options = ["pass QS KS AH", "pass QS KS 2C", "move 3 1 2 1"].map(String::from);
        assert_eq!(super::in_any_order(&options, "pass AH KS QS"), Some(0));
        assert_eq!(super::in_any_order(&options, "PASS ah ks qs"), Some(0));
        assert_eq!(super::in_any_order(&options, "pass AH KS"), None);
        assert_eq!(super::in_any_order(&options, "move 2 1 3 1"), None);
    }
}
