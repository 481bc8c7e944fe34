//! The validated state machine: states, their allowed next states (a whitelist), which states
//! wait for a decision and which end the game. Transitions are checked here.

/// Automatic steps allowed between two decisions before the flow is declared stuck.
pub const STEP_GUARD: usize = 10_000;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateSpec {
    pub name: String,
    pub next: Vec<usize>,
    pub decide: bool,
    pub terminal: bool,
    /// A decision whose lone option is played without asking (`forced = true`).
    pub forced: bool,
    /// Set when the state asks several seats at once.
    pub simultaneous: Option<Simultaneous>,
}

/// How a state that asks several seats at once resolves their answers (the driver's `winner`
/// in src/script/driver.lua): the answer whose verb has the highest priority wins (unlisted
/// verbs count 0); ties go to the larger bid, then the seat asked first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Simultaneous {
    pub priority: Vec<(String, i64)>,
    /// The verb a seat answers when its time runs out.
    pub default: Option<String>,
    /// Seconds a person has to answer (`seconds` in game.toml; 0: no limit), unless
    /// `--answer-seconds` says otherwise.
    pub seconds: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Flow {
    pub states: Vec<StateSpec>,
    pub start: usize,
}

impl Flow {
    /// The states reached from `from` by any number of transitions, `from` among them.
    fn reached(&self, from: usize) -> Vec<bool> {
        let mut seen = vec![false; self.states.len()];
        let mut todo = vec![from];
        while let Some(s) = todo.pop() {
            if !std::mem::replace(&mut seen[s], true) {
                todo.extend(&self.states[s].next);
            }
        }
        seen
    }

    /// States no transition from the start ever reaches.
    pub fn unreachable(&self) -> Vec<usize> {
        let seen = self.reached(self.start);
        (0..self.states.len()).filter(|s| !seen[*s]).collect()
    }

    /// Reachable states from which no path leads to a final state: once there, the game can
    /// only end at its round cap.
    pub fn trapped(&self) -> Vec<usize> {
        let seen = self.reached(self.start);
        (0..self.states.len())
            .filter(|s| seen[*s])
            .filter(|s| {
                let ahead = self.reached(*s);
                !(0..ahead.len()).any(|t| ahead[t] && self.states[t].terminal)
            })
            .collect()
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.states.iter().position(|s| s.name == name)
    }

    /// The state named `name`, if the flow has it.
    pub fn state(&self, name: &str) -> Option<&StateSpec> {
        self.states.iter().find(|s| s.name == name)
    }

    pub fn name(&self, state: usize) -> &str {
        &self.states[state].name
    }

    /// Checks `from -> to` against the whitelist and returns the target's index.
    pub fn check_transition(&self, from: usize, to: &str) -> Result<usize, String> {
        let spec = &self.states[from];
        let Some(target) = self.index(to) else {
            let names = self.states.iter().map(|s| s.name.as_str());
            let hint = crate::diag::hint(to, names);
            return Err(format!(
                "unknown state '{to}' returned by state '{}'{hint}",
                spec.name
            ));
        };
        if spec.next.contains(&target) {
            Ok(target)
        } else {
            let allowed: Vec<&str> = spec.next.iter().map(|i| self.name(*i)).collect();
            let stay = match to == spec.name {
                true => "; to stay in this state and ask again, return nothing (or add it to its `next`)",
                false => "",
            };
            Err(format!(
                "illegal transition from '{}' to '{to}' (allowed: {}){stay}",
                spec.name,
                if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.join(", ")
                }
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow() -> Flow {
        let s = |name: &str, next: Vec<usize>, decide, terminal| StateSpec {
            name: name.into(),
            next,
            decide,
            terminal,
            forced: false,
            simultaneous: None,
        };
        Flow {
            states: vec![
                s("wait", vec![1], true, false),
                s("rolling", vec![0, 2], false, false),
                s("over", vec![], false, true),
            ],
            start: 0,
        }
    }

    #[test]
    fn states_off_the_path_and_loops_without_an_end_are_found() {
        let mut f = flow();
        assert_eq!((f.unreachable(), f.trapped()), (vec![], vec![]));
        let s = |name: &str, next: Vec<usize>| StateSpec {
            name: name.into(),
            next,
            decide: true,
            ..Default::default()
        };
        // wait -> rolling -> {wait, over, trap}; trap <-> pit; orphan alone.
        f.states.push(s("trap", vec![4]));
        f.states.push(s("pit", vec![3]));
        f.states.push(StateSpec {
            terminal: true,
            ..s("orphan", vec![])
        });
        f.states[1].next.push(3);
        assert_eq!(f.unreachable(), vec![5]);
        assert_eq!(f.trapped(), vec![3, 4]);
    }

    #[test]
    fn whitelist_is_enforced() {
        let f = flow();
        assert_eq!(f.check_transition(1, "over"), Ok(2));
        assert_eq!(
            f.check_transition(0, "over"),
            Err("illegal transition from 'wait' to 'over' (allowed: rolling)".into())
        );
        assert_eq!(
            f.check_transition(0, "wait"),
            Err(
                "illegal transition from 'wait' to 'wait' (allowed: rolling); to stay in this \
                 state and ask again, return nothing (or add it to its `next`)"
                    .into()
            )
        );
        assert_eq!(
            f.check_transition(0, "rollin"),
            Err("unknown state 'rollin' returned by state 'wait'; did you mean 'rolling'?".into())
        );
    }
}
