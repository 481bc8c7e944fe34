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

/// Warnings for a card whose `data` differs from every other card of `cards` with the same
/// effect in a way a slip of the keyboard would: a field none of them has in place of one all
/// of them have (`amonut` for `amount`), or a field of another type than theirs (`"50"` for
/// `50`). `at[i]` locates card `i`. A field some cards leave out is no slip.
pub fn odd_data(cards: &[Card], at: &[Loc]) -> Vec<crate::diag::Diagnostic> {
    let mut out = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        let Some((effect, _)) = &card.effect else {
            continue;
        };
        let others: Vec<&Card> = (cards.iter().enumerate())
            .filter(|(j, c)| *j != i && c.effect.as_ref().is_some_and(|(e, _)| e == effect))
            .map(|(_, c)| c)
            .collect();
        if others.len() < 2 {
            continue;
        }
        let all_have = |k: &str| others.iter().all(|c| c.data.contains_key(k));
        let common: Vec<&str> = (others[0].data.keys())
            .map(String::as_str)
            .filter(|k| all_have(k) && !card.data.contains_key(*k))
            .collect();
        for (key, value) in &card.data {
            // A slip is a letter or two: near as `did_you_mean` reads it, and at most two off.
            let close = common
                .iter()
                .copied()
                .filter(|m| strsim::damerau_levenshtein(key, m) <= 2);
            let near = crate::diag::did_you_mean(key, close)
                .filter(|_| !others.iter().any(|c| c.data.contains_key(key)));
            if let Some(meant) = near {
                out.push(at[i].warning(format!(
                    "card '{}' has data field '{key}' but not '{meant}', which every other \
                     card with effect '{effect}' has; did you mean '{meant}'?",
                    card.id
                )));
                continue;
            }
            let kinds: Vec<&str> = (others.iter())
                .filter_map(|c| c.data.get(key).map(kind))
                .collect();
            let theirs = kinds
                .first()
                .copied()
                .filter(|k| kinds.iter().all(|o| o == k));
            match theirs {
                Some(theirs) if kinds.len() == others.len() && theirs != kind(value) => {
                    out.push(at[i].warning(format!(
                        "card '{}' has data field '{key}' as {}, where every other card with \
                         effect '{effect}' has {theirs}",
                        card.id,
                        kind(value)
                    )))
                }
                _ => {}
            }
        }
    }
    out
}

/// What kind of TOML value `v` is, as a warning names it; integers and floats are both numbers.
fn kind(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::Integer(_) | toml::Value::Float(_) => "a number",
        toml::Value::String(_) => "a string",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "a list",
        toml::Value::Table(_) => "a table",
    }
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
