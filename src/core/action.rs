//! Actions: a verb and scalar arguments (`buy`, `build beijing`, `place 7 8`). The same value
//! is listed as a legal option, shown as a numbered choice, picked by bots and saved in
//! replays.

use serde::{Deserialize, Serialize};
use std::fmt::{self, Write as _};

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

    /// Whether `other` is the same move: the same verb and arguments, an integer argument
    /// being the same as the equal number (the string `"1"` is not the number 1).
    pub fn same(&self, other: &Action) -> bool {
        self.verb == other.verb
            && self.args.len() == other.args.len()
            && self
                .args
                .iter()
                .zip(&other.args)
                .all(|(x, y)| match (x, y) {
                    (Arg::Int(i), Arg::Num(n)) | (Arg::Num(n), Arg::Int(i)) => *i as f64 == *n,
                    _ => x == y,
                })
    }

    /// A text two actions share when they are the same move (`same`), to find a move listed
    /// twice without comparing every pair.
    pub fn key(&self) -> String {
        let mut k = format!("{}:{}", self.verb.len(), self.verb);
        for a in &self.args {
            let _ = match a {
                Arg::Bool(b) => write!(k, "|b{b}"),
                Arg::Int(i) => write!(k, "|n{:?}", *i as f64),
                Arg::Num(n) => write!(k, "|n{n:?}"),
                Arg::Str(s) => write!(k, "|s{}:{s}", s.len()),
            };
        }
        k
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

    /// `same` and `key` agree: an integer is the equal number, a string of digits is not.
    #[test]
    fn the_same_move_has_the_same_key() {
        let place = |a: Arg, b: Arg| Action::new("place").with(a).with(b);
        let pairs = [
            (
                place(Arg::Int(1), Arg::Int(2)),
                place(Arg::Num(1.0), Arg::Int(2)),
                true,
            ),
            (
                place(Arg::Int(1), Arg::Int(2)),
                place(Arg::Str("1".into()), Arg::Int(2)),
                false,
            ),
            (
                place(Arg::Int(1), Arg::Int(2)),
                place(Arg::Int(2), Arg::Int(1)),
                false,
            ),
            (
                Action::new("say").with(Arg::Str("a|sb".into())),
                Action::new("say")
                    .with(Arg::Str("a".into()))
                    .with(Arg::Str("b".into())),
                false,
            ),
        ];
        for (a, b, same) in pairs {
            assert_eq!((a.same(&b), a.key() == b.key()), (same, same), "{a} / {b}");
        }
    }
}
