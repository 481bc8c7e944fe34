//! Does a live game still fit edited rules? Spaces, cards and counters are matched by id, so
//! reordering or adding them is fine; a state, space, card or counter the game still uses that
//! has vanished is an error naming it, as is a setting whose type changed or a player count the
//! game no longer allows. On success the world comes back re-indexed for the new files.

use crate::core::deck::DeckState;
use crate::core::world::World;
use crate::def::board::{Board, Layout};
use crate::def::source::key_position;
use crate::def::Package;
use crate::diag::Diagnostic;

/// What a world was indexed by, and the files it moves to.
pub struct Versions<'a> {
    pub old: &'a Layout,
    pub new_pkg: &'a Package,
    pub new_board: &'a Board,
    /// The settings the new files give the game (a grid's size may name one).
    pub new_settings: &'a toml::Table,
}

/// The live world re-indexed for the new package and board.
pub fn remap_world(w: &World, state: &str, v: &Versions) -> Result<World, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let manifest = v.new_pkg.file("game.toml");
    let mut out = w.clone();
    let now = v.new_pkg.flow.index(state);
    if now.is_none() {
        diags.push(Diagnostic::error(
            &manifest,
            format!("the live game is in state '{state}', which [flow] no longer has"),
        ));
    }
    let (min, max) = v.new_pkg.players;
    if w.seats < min || w.seats > max {
        let msg = format!(
            "the live game has {} players; game.toml now takes {} players",
            w.seats,
            v.new_pkg.player_counts()
        );
        diags.push(Diagnostic::error(&manifest, msg));
    }
    remap_board(w, &mut out, v, &mut diags);
    check_grid(w, v, &mut diags);
    remap_decks(w, &mut out, v, &mut diags);
    remap_counters(w, &mut out, v);
    remap_zones(w, &mut out, v, &mut diags);
    if w.claim.is_some()
        && now
            .and_then(|i| v.new_pkg.flow.states.get(i))
            .is_none_or(|s| s.simultaneous.is_none())
    {
        diags.push(Diagnostic::error(
            &manifest,
            format!(
                "the live game is collecting answers in '{state}', which is no longer simultaneous"
            ),
        ));
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// Zones are matched by name; a new zone starts empty. A zone that holds items cannot vanish
/// or change between one pile and one per seat.
fn remap_zones(w: &World, out: &mut World, v: &Versions, diags: &mut Vec<Diagnostic>) {
    let manifest = v.new_pkg.file("game.toml");
    out.zones = crate::core::zone::empty(&v.new_pkg.zones, w.seats);
    for (i, (name, per_seat)) in v.old.zones.iter().enumerate() {
        let items: usize = w.zones.get(i).map_or(0, |p| p.iter().map(Vec::len).sum());
        match v.new_pkg.zones.iter().position(|z| z.name == *name) {
            Some(j) if v.new_pkg.zones[j].per_seat == *per_seat => {
                if let Some(piles) = w.zones.get(i) {
                    out.zones[j] = piles.clone();
                }
            }
            _ if items == 0 => {}
            Some(_) => diags.push(Diagnostic::error(
                &manifest,
                format!(
                    "zone '{name}' holds {items} items in the live game and cannot change per_seat; restart the game to use it"
                ),
            )),
            None => diags.push(Diagnostic::error(
                &manifest,
                format!(
                    "zone '{name}' holds {items} items in the live game but game.toml no longer declares it"
                ),
            )),
        }
    }
}

fn remap_board(w: &World, out: &mut World, v: &Versions, diags: &mut Vec<Diagnostic>) {
    let path = &v.new_board.path;
    let n = v.new_board.spaces.len();
    out.board.owners = vec![None; n];
    out.board.levels = vec![0; n];
    for (i, id) in v.old.spaces.iter().enumerate() {
        let owner = w.board.owners.get(i).copied().flatten();
        let level = w.board.levels.get(i).copied().unwrap_or(0);
        match v.new_board.space_index(id) {
            Some(j) => {
                out.board.owners[j] = owner;
                out.board.levels[j] = level;
            }
            None if owner.is_some() || level != 0 => diags.push(Diagnostic::error(
                path,
                format!("space '{id}' is gone, but the live game has an owner or level on it"),
            )),
            None => {}
        }
    }
    for (seat, t) in w.board.tokens.iter().enumerate() {
        // A grid or table map has no spaces for tokens to stand on.
        let Some(id) = v.old.spaces.get(*t) else {
            continue;
        };
        match v.new_board.space_index(id) {
            Some(j) => out.board.tokens[seat] = j,
            None => diags.push(Diagnostic::error(
                path,
                format!("space '{id}' is gone, but P{} stands on it", seat + 1),
            )),
        }
    }
}

/// A live grid keeps its size: a map whose rows or columns changed does not fit it.
fn check_grid(w: &World, v: &Versions, diags: &mut Vec<Diagnostic>) {
    let Some(g) = &w.grid else { return };
    let live = format!("the live game is played on a {}×{} grid", g.rows, g.cols);
    let problem = match v.new_board.grid_size(v.new_settings) {
        Ok(Some(size)) if size == (g.rows, g.cols) => return,
        Ok(Some((r, c))) => format!(
            "the board is now {r}×{c}, but {live}, which keeps its size; restart the game to play on the new board"
        ),
        Ok(None) => format!("the map is no longer a grid, but {live}"),
        Err(_) => return, // a setting the size names is reported with the settings
    };
    diags.push(Diagnostic::error(&v.new_board.path, problem));
}

fn remap_decks(w: &World, out: &mut World, v: &Versions, diags: &mut Vec<Diagnostic>) {
    let path = &v.new_board.path;
    out.decks = v
        .new_board
        .decks
        .iter()
        .map(|deck| {
            let new_index = |id: &str| deck.cards.iter().position(|c| c.id == id).map(|i| i as u16);
            let old_deck = v.old.decks.iter().position(|(id, _)| *id == deck.id);
            let Some((d, old_state)) = old_deck.and_then(|d| Some((d, w.decks.get(d)?))) else {
                return DeckState {
                    pile: (0..deck.cards.len() as u16).collect(),
                    discard: Vec::new(),
                    held: Vec::new(),
                };
            };
            let old_cards = &v.old.decks[d].1;
            let old_id = |c: u16| old_cards.get(c as usize).map(String::as_str).unwrap_or("");
            let map = |cards: &[u16]| -> Vec<u16> {
                cards.iter().filter_map(|c| new_index(old_id(*c))).collect()
            };
            let mut held = Vec::new();
            for (c, seat) in &old_state.held {
                let id = old_id(*c);
                match new_index(id) {
                    Some(i) => held.push((i, *seat)),
                    None => diags.push(Diagnostic::error(
                        path,
                        format!(
                            "card '{id}' of deck '{}' is gone, but P{} holds it",
                            deck.id,
                            seat + 1
                        ),
                    )),
                }
            }
            let mut pile = map(&old_state.pile);
            let discard = map(&old_state.discard);
            // New cards go to the bottom of the draw pile.
            let known: Vec<u16> = pile
                .iter()
                .chain(&discard)
                .chain(held.iter().map(|(c, _)| c))
                .copied()
                .collect();
            let added: Vec<u16> = (0..deck.cards.len() as u16)
                .filter(|c| !known.contains(c))
                .collect();
            pile.splice(0..0, added);
            DeckState {
                pile,
                discard,
                held,
            }
        })
        .collect();
    for (d, (id, _)) in v.old.decks.iter().enumerate() {
        let kept = v.new_board.decks.iter().any(|n| n.id == *id);
        if !kept && w.decks.get(d).is_some_and(|deck| !deck.held.is_empty()) {
            diags.push(Diagnostic::error(
                path,
                format!("deck '{id}' is gone, but a player holds one of its cards"),
            ));
        }
    }
}

fn remap_counters(w: &World, out: &mut World, v: &Versions) {
    out.counters = v
        .new_pkg
        .counters
        .iter()
        .map(|name| {
            let old = v.old.counters.iter().position(|o| o == name);
            match old.and_then(|c| w.counters.get(c)) {
                Some(column) => column.clone(),
                None => vec![0; w.seats],
            }
        })
        .collect();
}

/// Settings the live game has seen may change value but not type; a change is reported at
/// its key in the new package's game.toml (read only then), or at the file when the key is
/// elsewhere.
pub fn check_settings(old: &toml::Table, new: &toml::Table, pkg: &Package) -> Vec<Diagnostic> {
    let changed: Vec<(&String, String)> = (old.iter())
        .filter_map(|(k, o)| {
            let n = new.get(k).filter(|n| !o.same_type(n))?;
            Some((
                k,
                format!(
                "setting '{k}' changed from {} to {}; the live game keeps values of the old type",
                o.type_str(),
                n.type_str()
            ),
            ))
        })
        .collect();
    if changed.is_empty() {
        return Vec::new();
    }
    let manifest = pkg.file("game.toml");
    let text = pkg.manifest_text();
    (changed.into_iter())
        .map(|(k, msg)| match key_position(text, &["settings", k]) {
            Some(offset) => Diagnostic::at_offset(&manifest, text, offset, msg),
            None => Diagnostic::error(&manifest, msg),
        })
        .collect()
}
