//! Deck files: decks of cards, each card with an id, a text, the name of the effect function
//! the rules define for it, and free-form `data` (the effect's arguments). A text may name one
//! of its card's data fields or a setting in braces (`Collect {currency}{amount}.`), filled in
//! when a game starts.

use super::Loc;
use serde::Deserialize;
use toml::Spanned;

pub const SCHEMA: super::source::Schema = &[
    ("", &["decks"]),
    ("decks.*", &["id", "name", "cards"]),
    ("decks.*.cards.*", &["id", "text", "effect", "data"]),
];

#[derive(Deserialize)]
pub struct DeckFileDef {
    #[serde(default)]
    pub decks: Vec<DeckDef>,
}

#[derive(Deserialize)]
pub struct DeckDef {
    pub id: Spanned<String>,
    pub name: String,
    #[serde(default)]
    pub cards: Vec<CardDef>,
}

#[derive(Deserialize)]
pub struct CardDef {
    pub id: Spanned<String>,
    pub text: Option<Spanned<String>>,
    pub effect: Option<Spanned<String>>,
    #[serde(default)]
    pub data: toml::Table,
}

#[derive(Clone, Debug)]
pub struct Card {
    pub id: String,
    pub text: String,
    /// Name of the effect function and where the file names it.
    pub effect: Option<(String, Loc)>,
    pub data: toml::Table,
}

#[derive(Clone, Debug)]
pub struct Deck {
    pub id: String,
    pub name: String,
    pub cards: Vec<Card>,
}

/// The `{name}`s in a card's text (a letter or `_`, then letters, digits or `_`), each with its
/// byte offset; other braces are text.
pub fn placeholders(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (open, _) in text.match_indices('{') {
        let rest = &text[open + 1..];
        let Some(close) = rest.find('}') else {
            break;
        };
        let name = &rest[..close];
        let mut chars = name.chars();
        let first = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if first && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
            out.push((open, name));
        }
    }
    out
}

/// The text with each `{name}` that `value` knows replaced by its value.
pub fn fill(text: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (open, name) in placeholders(text) {
        if let Some(v) = value(name) {
            out.push_str(&text[from..open]);
            out.push_str(&v);
            from = open + name.len() + 2;
        }
    }
    out.push_str(&text[from..]);
    out
}

/// A data field's or a setting's value as a card's text shows it.
pub fn shown(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_braces_are_filled_and_other_braces_kept() {
        let text = "Collect {currency}{amount}; {not a name} {x}{1a} {open";
        let names: Vec<&str> = placeholders(text).into_iter().map(|p| p.1).collect();
        assert_eq!(names, ["currency", "amount", "x"]);
        let value = |n: &str| match n {
            "currency" => Some("¥".to_string()),
            "amount" => Some(shown(&toml::Value::Integer(200))),
            _ => None,
        };
        assert_eq!(
            fill(text, value),
            "Collect ¥200; {not a name} {x}{1a} {open"
        );
        assert_eq!(shown(&toml::Value::Float(0.5)), "0.5");
    }
}
