//! Map files (`maps/*.toml`): a track board's spaces, each with an id, a name, a kind from the
//! game's declared kinds, an optional group, an optional jump to another space and free-form
//! `data`, or a grid board's rows and columns; plus the deck files the board uses and its own
//! values of the game's settings.

use serde::Deserialize;
use toml::Spanned;

pub const SCHEMA: super::source::Schema = &[
    (
        "",
        &[
            "name", "kind", "rows", "cols", "decks", "settings", "spaces", "loop",
        ],
    ),
    ("spaces.*", &["id", "name", "kind", "group", "jump", "data"]),
];

#[derive(Deserialize)]
pub struct MapDef {
    pub name: String,
    /// "track" (spaces in a loop, the default), "grid" (rows × cols cells) or "table" (a
    /// table of zones: hands, piles; no spaces).
    pub kind: Option<Spanned<String>>,
    /// A track's last space leads back to its first (the default), or not (`loop = false`:
    /// a race to the end).
    #[serde(rename = "loop")]
    pub looped: Option<Spanned<bool>>,
    pub rows: Option<Spanned<Dim>>,
    pub cols: Option<Spanned<Dim>>,
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
    /// The id of the space a snake, a ladder or a chute leads to.
    pub jump: Option<Spanned<String>>,
    #[serde(default)]
    pub data: toml::Table,
}

/// A grid dimension: a number, or the name of an integer setting (`rows = "size"`).
#[derive(Clone, Debug, PartialEq)]
pub enum Dim {
    Fixed(i64),
    Setting(String),
}

impl<'de> Deserialize<'de> for Dim {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Dim, D::Error> {
        struct Either;
        impl serde::de::Visitor<'_> for Either {
            type Value = Dim;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a whole number or the name of an integer setting")
            }
            fn visit_i64<E>(self, n: i64) -> Result<Dim, E> {
                Ok(Dim::Fixed(n))
            }
            fn visit_str<E>(self, name: &str) -> Result<Dim, E> {
                Ok(Dim::Setting(name.to_string()))
            }
        }
        d.deserialize_any(Either)
    }
}

impl Dim {
    /// The dimension under `settings`: 1 to 100 cells.
    pub fn resolve(&self, settings: &toml::Table) -> Result<usize, String> {
        let n = match self {
            Dim::Fixed(n) => *n,
            Dim::Setting(name) => match settings.get(name).and_then(|v| v.as_integer()) {
                Some(n) => n,
                None => {
                    let integers = (settings.iter())
                        .filter(|(_, v)| v.is_integer())
                        .map(|(k, _)| k.as_str());
                    return Err(format!(
                        "grid size names '{name}', which is not an integer setting{}",
                        crate::diag::hint(name, integers)
                    ));
                }
            },
        };
        match (self, (1..=100).contains(&n)) {
            (_, true) => Ok(n as usize),
            (Dim::Setting(name), false) => Err(format!(
                "setting '{name}' is {n}, and a grid side must be 1 to 100 cells"
            )),
            (Dim::Fixed(_), false) => Err(format!("a grid side must be 1 to 100 cells, not {n}")),
        }
    }
}

/// A validated space.
#[derive(Clone, Debug)]
pub struct Space {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub group: Option<String>,
    /// The index of the space its `jump` names.
    pub jump: Option<usize>,
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
    /// For a grid map: its rows and columns.
    pub grid: Option<(Dim, Dim)>,
    /// "track" (spaces in a loop), "grid" (rows × cols) or "table" (zones only).
    pub kind: String,
    /// Whether a track's last space leads back to its first (`loop`, true unless the map
    /// says `loop = false`).
    pub looped: bool,
}

impl Board {
    /// Rows and columns of a grid map under `settings` (after `--set`).
    pub fn grid_size(&self, settings: &toml::Table) -> Result<Option<(usize, usize)>, String> {
        match &self.grid {
            Some((r, c)) => Ok(Some((r.resolve(settings)?, c.resolve(settings)?))),
            None => Ok(None),
        }
    }

    pub fn space_index(&self, id: &str) -> Option<usize> {
        self.spaces.iter().position(|s| s.id == id)
    }
}

/// What a world's components are indexed by, as ids: a save keeps it, so that a world saved
/// under other files can be matched onto the map and manifest as they are now.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, Deserialize)]
pub struct Layout {
    pub spaces: Vec<String>,
    /// Each deck's id and its cards' ids.
    pub decks: Vec<(String, Vec<String>)>,
    pub counters: Vec<String>,
    /// Each zone's name and whether it has a pile per seat.
    pub zones: Vec<(String, bool)>,
}

impl Layout {
    pub fn of(pkg: &super::Package, board: &Board) -> Layout {
        Layout {
            spaces: board.spaces.iter().map(|s| s.id.clone()).collect(),
            decks: (board.decks.iter())
                .map(|d| (d.id.clone(), d.cards.iter().map(|c| c.id.clone()).collect()))
                .collect(),
            counters: pkg.counters.clone(),
            zones: (pkg.zones.iter())
                .map(|z| (z.name.clone(), z.per_seat))
                .collect(),
        }
    }
}
