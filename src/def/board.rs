//! Map files (`maps/*.toml`): a board's spaces, each with an id, a name, a kind from the game's
//! declared kinds, an optional group and free-form `data`; plus the deck files the board uses.

use serde::Deserialize;
use toml::Spanned;

pub const SCHEMA: super::source::Schema = &[
    ("", &["name", "decks", "settings", "spaces"]),
    ("spaces.*", &["id", "name", "kind", "group", "data"]),
];

#[derive(Deserialize)]
pub struct MapDef {
    pub name: String,
    #[serde(default)]
    pub decks: Vec<Spanned<String>>,
    /// Values of the game's settings for this board (its own economy).
    #[serde(default)]
    pub settings: toml::Table,
    #[serde(default)]
    pub spaces: Vec<SpaceDef>,
}

#[derive(Deserialize)]
pub struct SpaceDef {
    pub id: Spanned<String>,
    pub name: String,
    pub kind: Spanned<String>,
    pub group: Option<String>,
    #[serde(default)]
    pub data: toml::Table,
}

/// A validated space.
#[derive(Clone, Debug)]
pub struct Space {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub group: Option<String>,
    pub data: toml::Table,
}

/// A validated board: its spaces and the decks it plays with.
#[derive(Clone, Debug)]
pub struct Board {
    pub id: String,
    pub name: String,
    pub path: String,
    pub spaces: Vec<Space>,
    pub decks: Vec<super::cards::Deck>,
    /// The game's settings with this board's values applied.
    pub settings: toml::Table,
}

impl Board {
    pub fn space_index(&self, id: &str) -> Option<usize> {
        self.spaces.iter().position(|s| s.id == id)
    }
}
