//! What `check`'s games reached: the flow states entered and, for each state, the verbs its
//! options offered and whether each was played. What was never reached is said as warnings
//! located at the state in game.toml. A verb is counted per state it was offered in.

use crate::core::action::Action;
use crate::def::Package;
use crate::diag::{plural, Diagnostic, Severity};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Default)]
pub struct Coverage {
    entered: BTreeSet<String>,
    /// State → verb offered there → whether it was played.
    verbs: BTreeMap<String, BTreeMap<String, bool>>,
    /// Games that ended, and those of them stopped at the round cap.
    ended: usize,
    capped: usize,
}

impl Coverage {
    /// Notes a game that ended: the states it entered, the verbs its forced states played
    /// alone (offered and played there), and whether the round cap stopped it.
    pub fn end(&mut self, states: Vec<String>, forced: Vec<(String, String)>, capped: bool) {
        self.entered.extend(states);
        for (state, verb) in forced {
            self.verbs.entry(state).or_default().insert(verb, true);
        }
        self.ended += 1;
        self.capped += usize::from(capped);
    }

    /// Notes a decision in `state`: its options offered, option `played` played.
    pub fn decide(&mut self, state: &str, options: &[Action], played: usize) {
        if !self.verbs.contains_key(state) {
            self.verbs.insert(state.to_string(), BTreeMap::new());
        }
        let verbs = self.verbs.get_mut(state).expect("inserted above");
        for (i, option) in options.iter().enumerate() {
            match verbs.get_mut(&option.verb) {
                Some(done) => *done |= i == played,
                None => {
                    verbs.insert(option.verb.clone(), i == played);
                }
            }
        }
    }

    /// A warning for each verb the AI scores in `fixed` (`fixed`: its entries as shown, verbs
    /// and lines in the AI file `path`) that no decision offered in `games` games: a misspelt
    /// verb is never scored so.
    pub fn fixed_warnings(
        &self,
        fixed: &[(String, String, Option<usize>)],
        path: &str,
        games: usize,
    ) -> Vec<Diagnostic> {
        let offered: BTreeSet<&str> = (self.verbs.values())
            .flat_map(|v| v.keys().map(String::as_str))
            .collect();
        let unoffered = fixed
            .iter()
            .filter(|(_, v, _)| !offered.contains(v.as_str()));
        unoffered
            .map(|(shown, verb, line)| {
                let hint = crate::diag::hint(verb, offered.iter().copied());
                let message = format!(
                    "{shown} scores verb '{verb}', but no decision offered it in {}{hint}",
                    plural(games, "game")
                );
                let mut d = Diagnostic::warning(path, message);
                d.line = *line;
                d
            })
            .collect()
    }

    /// Every state of `pkg`'s flow entered and every verb offered played.
    pub fn complete(&self, pkg: &Package) -> bool {
        self.missed_states(pkg).is_empty() && self.missed_verbs().next().is_none()
    }

    fn missed_states<'a>(&self, pkg: &'a Package) -> Vec<&'a str> {
        let names = pkg.flow.states.iter().map(|s| s.name.as_str());
        names.filter(|n| !self.entered.contains(*n)).collect()
    }

    /// (state, verb) of every verb offered and never played, sorted.
    fn missed_verbs(&self) -> impl Iterator<Item = (&str, &str)> {
        (self.verbs.iter()).flat_map(|(state, verbs)| {
            (verbs.iter())
                .filter(|(_, played)| !**played)
                .map(move |(verb, _)| (state.as_str(), verb.as_str()))
        })
    }

    /// "states entered: 4 of 5, verbs played: 6 of 7".
    pub fn summary(&self, pkg: &Package) -> String {
        let states = pkg.flow.states.len();
        let entered = states - self.missed_states(pkg).len();
        let offered: usize = self.verbs.values().map(|v| v.len()).sum();
        let played = offered - self.missed_verbs().count();
        format!("states entered: {entered} of {states}, verbs played: {played} of {offered}")
    }

    /// A warning for every state never entered and every verb offered but never played in
    /// `games` games, at the state's key in game.toml; sorted by line.
    pub fn warnings(&self, pkg: &Package, games: usize) -> Vec<Diagnostic> {
        let text = pkg.manifest_text();
        let path = pkg.file("game.toml");
        // A warning at the key `keys` of game.toml (else at the file).
        let warn = |keys: &[&str], message: String| {
            let d = match crate::def::source::key_position(text, keys) {
                Some(offset) => Diagnostic::at_offset(&path, text, offset, message),
                None => Diagnostic::error(&path, message),
            };
            Diagnostic {
                severity: Severity::Warning,
                ..d
            }
        };
        let at = |state: &str, message: String| warn(&["flow", "states", state], message);
        let in_games = plural(games, "game");
        let states = self
            .missed_states(pkg)
            .into_iter()
            .map(|s| at(s, format!("state '{s}' was never entered in {in_games}")));
        let verbs = self.missed_verbs().map(|(s, verb)| {
            let message =
                format!("'{verb}' was offered in state '{s}' but never played in {in_games}");
            at(s, message)
        });
        let taken = (self.verbs.iter()).flat_map(|(s, verbs)| {
            (verbs.keys())
                .filter(|v| super::play::PROMPT_WORDS.contains(&v.as_str()))
                .map(|v| {
                    let message = format!(
                        "option verb '{v}' of state '{s}' is a word of the play prompt: typing \
                         '{v}' does what the prompt does, so a person can pick the option only \
                         by its number (rename the verb)"
                    );
                    at(s, message)
                })
                .collect::<Vec<_>>()
        });
        let mut out: Vec<Diagnostic> = states.chain(verbs).chain(taken).collect();
        // Nine in ten stopped at the cap: the flow likely loops without ending (a hook that
        // returns nil where it should move on), though a rare game gets through.
        if self.ended > 0 && self.capped * 10 >= self.ended * 9 {
            let message = match self.capped == self.ended {
                true => format!(
                    "all {in_games} stopped unfinished at the round cap: none reached a final \
                     state"
                ),
                false => format!(
                    "{} of {in_games} stopped unfinished at the round cap: does the flow reach \
                     a final state as it should?",
                    self.capped
                ),
            };
            out.push(warn(&["settings", "round_cap"], message));
        }
        crate::diag::sort(&mut out);
        out
    }
}
