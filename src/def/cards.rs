//! Deck files: decks of cards, each card with an id, a text, the name of the effect function
//! the rules define for it, and free-form `data` (the effect's arguments).

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
    #[serde(default)]
    pub text: String,
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
