//! `game.toml`: identity, player counts, files, space kinds, counters, settings and the state
//! machine. Raw `*Def` types mirror the file; `check_flow` turns the flow into a `Flow`.

use super::Loc;
use crate::core::flow::{Flow, StateSpec};
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
            "flow",
        ],
    ),
    ("players", &["min", "max"]),
    ("flow", &["start", "states"]),
    ("flow.states.*", &["next", "decide", "final"]),
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
    pub flow: FlowDef,
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
}

/// Validates the state machine: every named state exists, final states lead nowhere, every
/// other state leads somewhere, and at least one state ends the game.
pub fn check_flow(def: &FlowDef, loc: &dyn Fn(usize) -> Loc, diags: &mut Vec<Diagnostic>) -> Flow {
    let names: Vec<&str> = def.states.keys().map(|s| s.as_str()).collect();
    let index = |name: &Spanned<String>, diags: &mut Vec<Diagnostic>| -> Option<usize> {
        let found = names.iter().position(|n| *n == name.get_ref());
        if found.is_none() {
            let hint = did_you_mean(name.get_ref(), names.iter().copied())
                .map(|h| format!("; did you mean '{h}'?"))
                .unwrap_or_else(|| format!(" (states: {})", names.join(", ")));
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
            diags.push(loc(def.start.span().start).error(format!(
                "state '{name}' has no next states and is not final"
            )));
        }
        states.push(StateSpec {
            name: name.clone(),
            next,
            decide: s.decide,
            terminal: s.terminal,
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
