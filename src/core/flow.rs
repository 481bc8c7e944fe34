//! The validated state machine: states, their allowed next states (a whitelist), which states
//! wait for a decision and which end the game. Transitions are checked here.

use crate::diag::did_you_mean;

#[derive(Clone, Debug, PartialEq)]
pub struct StateSpec {
    pub name: String,
    pub next: Vec<usize>,
    pub decide: bool,
    pub terminal: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Flow {
    pub states: Vec<StateSpec>,
    pub start: usize,
}

impl Flow {
    pub fn index(&self, name: &str) -> Option<usize> {
        self.states.iter().position(|s| s.name == name)
    }

    pub fn name(&self, state: usize) -> &str {
        &self.states[state].name
    }

    /// Checks `from -> to` against the whitelist and returns the target's index.
    pub fn check_transition(&self, from: usize, to: &str) -> Result<usize, String> {
        let spec = &self.states[from];
        let Some(target) = self.index(to) else {
            let names = self.states.iter().map(|s| s.name.as_str());
            let hint = did_you_mean(to, names)
                .map(|s| format!("; did you mean '{s}'?"))
                .unwrap_or_default();
            return Err(format!(
                "unknown state '{to}' returned by state '{}'{hint}",
                spec.name
            ));
        };
        if spec.next.contains(&target) {
            Ok(target)
        } else {
            let allowed: Vec<&str> = spec.next.iter().map(|i| self.name(*i)).collect();
            Err(format!(
                "illegal transition from '{}' to '{to}' (allowed: {})",
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
    fn whitelist_is_enforced() {
        let f = flow();
        assert_eq!(f.check_transition(1, "over"), Ok(2));
        assert_eq!(
            f.check_transition(0, "over"),
            Err("illegal transition from 'wait' to 'over' (allowed: rolling)".into())
        );
        assert_eq!(
            f.check_transition(0, "rollin"),
            Err("unknown state 'rollin' returned by state 'wait'; did you mean 'rolling'?".into())
        );
    }
}
