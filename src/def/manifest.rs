//! `game.toml`: identity, player counts, files, space kinds, counters, settings and the state
//! machine. Raw `*Def` types mirror the file; `check_flow` turns the flow into a `Flow`.

use super::Loc;
use crate::core::flow::{Flow, Simultaneous, StateSpec};
use crate::core::meld::Shapes;
use crate::core::zone::{Visibility, ZoneSpec};
use crate::diag::{did_you_mean, Diagnostic};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

pub const SCHEMA: super::source::Schema = &[
    (
        "",
        &[
            "id",
            "title",
            "version",
            "api",
            "players",
            "rules",
            "ai",
            "space_kinds",
            "counters",
            "decks",
            "maps",
            "settings",
            "choices",
            "flow",
            "zones",
            "items",
            "melds",
            "undo_past_reveals",
        ],
    ),
    ("zones.*", &["visibility", "per_seat", "layout"]),
    ("items", super::items::KEYS),
    ("melds", &["kinds", "runs"]),
    ("players", &["min", "max"]),
    ("flow", &["start", "states"]),
    (
        "flow.states.*",
        &[
            "next",
            "decide",
            "final",
            "forced",
            "simultaneous",
            "priority",
            "default",
            "seconds",
        ],
    ),
];

#[derive(Deserialize)]
pub struct ManifestDef {
    pub id: Spanned<String>,
    pub title: String,
    pub version: String,
    pub api: Spanned<i64>,
    pub players: PlayersDef,
    #[serde(default = "default_rules")]
    pub rules: Spanned<String>,
    pub ai: Option<Spanned<String>>,
    #[serde(default)]
    pub space_kinds: Vec<String>,
    #[serde(default)]
    pub counters: Vec<String>,
    #[serde(default)]
    pub decks: Vec<Spanned<String>>,
    #[serde(default)]
    pub maps: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    pub settings: toml::Table,
    /// The values a setting may take, by setting (`settings::check_choices`).
    #[serde(default)]
    pub choices: toml::Table,
    pub flow: FlowDef,
    #[serde(default)]
    pub zones: indexmap::IndexMap<String, ZoneDef>,
    /// The item codes kept in zones: a list of names, or a product (`items::check_items`).
    pub items: Option<toml::Value>,
    pub melds: Option<MeldsDef>,
    /// Whether `undo` may take back a decision that showed a seat something it could not
    /// see before (a drawn card); by default it stops there.
    #[serde(default)]
    pub undo_past_reveals: bool,
}

/// What the other files of a game are checked against, read leniently from a manifest that
/// has a problem of its own, so that one `check` reports the maps', decks' and style's too.
/// Every part is optional; a part that is itself malformed makes the whole read fail.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ManifestParts {
    pub players: PartPlayers,
    pub space_kinds: Vec<String>,
    pub decks: Vec<Spanned<String>>,
    pub maps: BTreeMap<String, Spanned<String>>,
    pub settings: toml::Table,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PartPlayers {
    pub min: Option<usize>,
    pub max: Option<usize>,
}

impl ManifestParts {
    pub fn read(text: &str) -> Option<ManifestParts> {
        toml::from_str(text).ok()
    }

    /// The most players the game takes, as far as the manifest says (at least one).
    pub fn seats(&self) -> usize {
        self.players.max.or(self.players.min).unwrap_or(2).max(1)
    }
}

#[derive(Deserialize)]
pub struct ZoneDef {
    pub visibility: Spanned<String>,
    #[serde(default)]
    pub per_seat: bool,
    /// How the window lays the pile out: `pile` (the default) or `melds`.
    pub layout: Option<Spanned<String>>,
}

#[derive(Deserialize)]
pub struct MeldsDef {
    pub kinds: Spanned<usize>,
    #[serde(default)]
    pub runs: Vec<Spanned<(usize, usize)>>,
}

fn default_rules() -> Spanned<String> {
    Spanned::new(0..0, "rules.lua".to_string())
}

#[derive(Deserialize)]
pub struct PlayersDef {
    pub min: usize,
    pub max: usize,
}

#[derive(Deserialize)]
pub struct FlowDef {
    pub start: Spanned<String>,
    pub states: BTreeMap<String, StateDef>,
}

#[derive(Deserialize)]
pub struct StateDef {
    #[serde(default)]
    pub next: Vec<Spanned<String>>,
    #[serde(default)]
    pub decide: bool,
    #[serde(default, rename = "final")]
    pub terminal: bool,
    /// A lone option is played without asking.
    #[serde(default)]
    pub forced: Option<Spanned<bool>>,
    /// Asks several seats at once (`seats` hook) and resolves their answers by priority.
    #[serde(default)]
    pub simultaneous: bool,
    #[serde(default)]
    pub priority: BTreeMap<String, i64>,
    pub default: Option<Spanned<String>>,
    /// Seconds a person has to answer (0: no limit).
    pub seconds: Option<Spanned<i64>>,
}

/// Validates the state machine: every named state exists, final states lead nowhere, every
/// other state leads somewhere, and at least one state ends the game.
pub fn check_flow(
    def: &FlowDef,
    loc: &dyn Fn(usize) -> Loc,
    key_loc: &dyn Fn(&[&str]) -> Option<Loc>,
    diags: &mut Vec<Diagnostic>,
) -> Flow {
    let names: Vec<&str> = def.states.keys().map(|s| s.as_str()).collect();
    let index = |name: &Spanned<String>, diags: &mut Vec<Diagnostic>| -> Option<usize> {
        let found = names.iter().position(|n| *n == name.get_ref());
        if found.is_none() {
            let hint = did_you_mean(name.get_ref(), names.iter().copied())
                .map(|h| format!("; did you mean '{h}'?"))
                .unwrap_or_else(|| match names.is_empty() {
                    true => " ([flow.states] declares no states)".to_string(),
                    false => format!(" (states: {})", names.join(", ")),
                });
            diags.push(
                loc(name.span().start).error(format!("unknown state '{}'{hint}", name.get_ref())),
            );
        }
        found
    };
    let mut states = Vec::new();
    for (name, s) in &def.states {
        let next: Vec<usize> = s.next.iter().filter_map(|n| index(n, diags)).collect();
        if s.terminal && !s.next.is_empty() {
            diags.push(
                loc(s.next[0].span().start)
                    .error(format!("final state '{name}' cannot have next states")),
            );
        }
        if !s.terminal && s.next.is_empty() {
            let at =
                key_loc(&["flow", "states", name]).unwrap_or_else(|| loc(def.start.span().start));
            diags.push(at.error(format!(
                "state '{name}' has no next states and is not final"
            )));
        }
        // Where key `key` of this state is written (else the state, else the start).
        let key_at = |key: &str| {
            key_loc(&["flow", "states", name, key])
                .or_else(|| key_loc(&["flow", "states", name]))
                .unwrap_or_else(|| loc(def.start.span().start))
        };
        if s.terminal && (s.decide || s.simultaneous) {
            let key = if s.decide { "decide" } else { "simultaneous" };
            diags.push(key_at(key).error(format!(
                "state '{name}' is final: the game is over there, so nobody decides ('{key}')"
            )));
        }
        states.push(StateSpec {
            name: name.clone(),
            next,
            decide: s.decide,
            terminal: s.terminal,
            forced: check_forced(name, s, loc, diags),
            simultaneous: check_simultaneous(name, s, &key_at, diags),
        });
    }
    if !states.iter().any(|s| s.terminal) {
        diags.push(
            loc(def.start.span().start)
                .error("the flow has no final state (add one with `final = true`)"),
        );
    }
    let start = index(&def.start, diags).unwrap_or(0);
    Flow { states, start }
}

/// Warnings about the shape of a valid flow: states the start never leads to, and states
/// from which no path leads to a final state (a game there ends only at its round cap). Each
/// is located at the state's key (`key_loc` finds a key of game.toml).
pub fn flow_warnings(
    flow: &Flow,
    key_loc: &dyn Fn(&[&str]) -> Option<Loc>,
    manifest: &str,
) -> Vec<Diagnostic> {
    let at = |state: usize, message: String| {
        let name = flow.name(state);
        match key_loc(&["flow", "states", name]) {
            Some(l) => l.warning(message),
            None => Diagnostic::warning(manifest, message),
        }
    };
    // A flow without its start state (an error already) has no paths to speak of.
    if flow.states.get(flow.start).is_none() {
        return Vec::new();
    }
    let start = flow.name(flow.start);
    let unreached = flow.unreachable().into_iter().map(|s| {
        at(
            s,
            format!(
                "state '{}' is never reached: no path from the start state '{start}' leads to it",
                flow.name(s)
            ),
        )
    });
    let trapped = flow.trapped().into_iter().map(|s| {
        at(s, format!("no path from state '{}' leads to a final state: a game there can only stop at its round cap", flow.name(s)))
    });
    unreached.chain(trapped).collect()
}

/// Whether a state plays a lone option without asking: only a decision that asks one seat
/// may (a simultaneous state asks every seat on purpose).
fn check_forced(
    name: &str,
    s: &StateDef,
    loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let Some(forced) = s.forced.as_ref().filter(|f| *f.get_ref()) else {
        return false;
    };
    let problem = match (s.decide && !s.terminal, s.simultaneous) {
        (false, _) => "only a decision state (decide = true) has options to force",
        (true, true) => "a simultaneous state asks every seat, so it cannot force an option",
        (true, false) => return true,
    };
    diags.push(loc(forced.span().start).error(format!("state '{name}': 'forced': {problem}")));
    false
}

/// The claim settings of a state that asks several seats at once.
/// `key_at(key)`: where key `key` of the state is written.
fn check_simultaneous(
    name: &str,
    s: &StateDef,
    key_at: &dyn Fn(&str) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Option<Simultaneous> {
    if !s.simultaneous {
        for (key, given) in [
            ("default", s.default.is_some()),
            ("priority", !s.priority.is_empty()),
            ("seconds", s.seconds.is_some()),
        ] {
            if given {
                diags.push(key_at(key).error(format!(
                    "state '{name}': '{key}' is only for states with simultaneous = true"
                )));
            }
        }
        return None;
    }
    if !s.decide && !s.terminal {
        diags.push(key_at("simultaneous").error(format!(
            "state '{name}' is simultaneous, so it must also be a decision (decide = true)"
        )));
    }
    let mut priority: Vec<(String, i64)> = s.priority.clone().into_iter().collect();
    priority.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let seconds = s.seconds.as_ref().map(|n| *n.get_ref());
    if let Some(n) = seconds.filter(|n| *n < 0) {
        diags.push(key_at("seconds").error(format!(
            "state '{name}': 'seconds' is {n}: give 0 or more (0 waits for ever)"
        )));
    }
    Some(Simultaneous {
        priority,
        default: s.default.as_ref().map(|d| d.get_ref().clone()),
        seconds: seconds.and_then(|n| u64::try_from(n).ok()),
    })
}

/// The declared zones, in the order game.toml lists them; `has_melds`: game.toml declares
/// meld shapes (`[melds]`), which a `layout = "melds"` zone is split by.
pub fn check_zones(
    zones: &indexmap::IndexMap<String, ZoneDef>,
    has_melds: bool,
    loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ZoneSpec> {
    zones
        .iter()
        .filter_map(|(name, z)| {
            let Some(visibility) = Visibility::parse(z.visibility.get_ref()) else {
                let v = z.visibility.get_ref();
                let hint = crate::diag::hint(v, Visibility::NAMES.iter().copied());
                diags.push(loc(z.visibility.span().start).error(format!(
                    "zone '{name}': unknown visibility '{v}'{hint} (expected: {})",
                    Visibility::NAMES.join(", ")
                )));
                return None;
            };
            if matches!(visibility, Visibility::Owner | Visibility::Count) && !z.per_seat {
                diags.push(loc(z.visibility.span().start).error(format!(
                    "zone '{name}': visibility '{}' needs an owner (per_seat = true)",
                    z.visibility.get_ref()
                )));
            }
            Some(ZoneSpec {
                name: name.clone(),
                visibility,
                per_seat: z.per_seat,
                melds: z
                    .layout
                    .as_ref()
                    .is_some_and(|l| check_layout(name, l, z.per_seat, has_melds, loc, diags)),
            })
        })
        .collect()
}

/// A zone's `layout`: true for `melds` when it can be (a per-seat zone, shapes declared).
fn check_layout(
    name: &str,
    layout: &Spanned<String>,
    per_seat: bool,
    has_melds: bool,
    loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let at = loc(layout.span().start);
    let problem = match layout.get_ref().as_str() {
        "pile" => return false,
        "melds" if !per_seat => {
            "layout 'melds' is for a zone with a pile per seat (per_seat = true)"
        }
        "melds" if !has_melds => {
            "layout 'melds' splits the pile by the meld shapes of a [melds] section, which \
             game.toml does not have"
        }
        "melds" => return true,
        other => {
            let hint = crate::diag::hint(other, ["pile", "melds"]);
            diags.push(at.error(format!(
                "zone '{name}': unknown layout '{other}'{hint} (expected: pile, melds)"
            )));
            return false;
        }
    };
    diags.push(at.error(format!("zone '{name}': {problem}")));
    false
}

/// The meld shapes: `kinds` item codes, runs only inside the listed ranges.
pub fn check_melds(
    def: &MeldsDef,
    loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Shapes {
    let kinds = *def.kinds.get_ref();
    let mut runs = Vec::new();
    for r in &def.runs {
        let (lo, hi) = *r.get_ref();
        if lo > hi || hi >= kinds {
            diags.push(loc(r.span().start).error(format!(
                "run range [{lo}, {hi}] must be low..high inside the item codes 0..{}",
                kinds.saturating_sub(1)
            )));
        } else {
            runs.push((lo, hi));
        }
    }
    Shapes::new(kinds, &runs)
}
