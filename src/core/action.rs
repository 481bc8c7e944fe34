//! Actions: a verb and scalar arguments (`buy`, `build beijing`, `place 7 8`). The same value
//! is listed as a legal option, shown as a numbered choice, picked by bots, saved in replays
//! and sent over the network.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arg {
    Bool(bool),
    Int(i64),
    Num(f64),
    Str(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    pub verb: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<Arg>,
}

impl Action {
    pub fn new(verb: impl Into<String>) -> Self {
        Action {
            verb: verb.into(),
            args: Vec::new(),
        }
    }

    pub fn with(mut self, arg: Arg) -> Self {
        self.args.push(arg);
        self
    }

    /// Reads `verb arg arg…` as typed at a prompt: integers, numbers, true/false, else strings.
    pub fn parse(text: &str) -> Option<Action> {
        let mut words = text.split_whitespace();
        let verb = words.next()?.to_string();
        let args = words.map(parse_arg).collect();
        Some(Action { verb, args })
    }
}

fn parse_arg(word: &str) -> Arg {
    if let Ok(i) = word.parse::<i64>() {
        Arg::Int(i)
    } else if let Ok(f) = word.parse::<f64>() {
        Arg::Num(f)
    } else if word == "true" || word == "false" {
        Arg::Bool(word == "true")
    } else {
        Arg::Str(word.to_string())
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Bool(b) => write!(f, "{b}"),
            Arg::Int(i) => write!(f, "{i}"),
            Arg::Num(n) => write!(f, "{n}"),
            Arg::Str(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.verb)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        let a = Action::parse("build beijing 2").unwrap();
        assert_eq!(
            a,
            Action::new("build")
                .with(Arg::Str("beijing".into()))
                .with(Arg::Int(2))
        );
        assert_eq!(a.to_string(), "build beijing 2");
        assert_eq!(Action::parse("   "), None);
    }
}
