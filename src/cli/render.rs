//! The terminal picture of a game: the board (a track's spaces with owners, levels and tokens,
//! or a grid's cells), each player's counters, zones and the lines the rules' `status` hook
//! gives. Zones are drawn from one seat's view: another seat's hidden tiles never appear.

use crate::ai::Seat;
use crate::core::grid::GridState;
use crate::core::world::World;
use crate::core::zone::Seen;
use crate::def::board::Space;
use crate::engine::{Game, Shown};
use crate::sim::report::pad;
use unicode_width::UnicodeWidthStr;

/// The board, each player's counters and holdings, as `viewer` may see them (`None`: only
/// what is public), with the status lines `shown` holds for that viewer.
pub fn render(game: &Game, seats: &[Seat], viewer: Option<usize>, shown: &Shown) -> String {
    let board = game.board().expect("map checked at start");
    let w = game.shown_world();
    let mut out = format!(
        "── {} · {} · round {} · turn {} ──\n",
        game.pkg.title, board.name, w.round, w.turn
    );
    if let Some(grid) = &w.grid {
        out.push_str(&render_grid(grid));
        drop(w);
        out.push_str(&players(game, seats, viewer, shown));
        return out;
    }
    out.push_str(&render_track(board, &w));
    drop(w);
    out.push_str(&players(game, seats, viewer, shown));
    out
}

/// A track has more spaces than this: only those with something on them are listed.
const LONG_TRACK: usize = 40;

/// The track's spaces, one a line: name (and where its jump leads), owner and level (the
/// columns shown once some space has one) and the tokens on it. A long track lists only the
/// spaces with something on them, and says how many it leaves out.
fn render_track(board: &crate::def::board::Board, w: &World) -> String {
    let named = |sp: &Space| match sp.jump {
        Some(to) => format!("{} → {}", sp.name, board.spaces[to].name),
        None => sp.name.clone(),
    };
    let owned = w.board.owners.iter().any(Option::is_some);
    let levels = w.board.levels.iter().any(|l| *l > 0);
    let rows: Vec<(usize, String, String, String, String)> = (board.spaces.iter().enumerate())
        .map(|(i, sp)| {
            let owner = (w.board.owners[i]).map_or(String::new(), |o| format!("P{}", o + 1));
            let level = match w.board.levels[i] {
                0 => String::new(),
                l => format!("L{l}"),
            };
            let tokens: Vec<String> = (0..w.seats)
                .filter(|s| w.in_play[*s] && w.board.tokens[*s] == i)
                .map(|s| format!("P{}", s + 1))
                .collect();
            (i, named(sp), owner, level, tokens.join(" "))
        })
        .collect();
    let long = rows.len() > LONG_TRACK;
    let shown: Vec<_> = (rows.iter())
        .filter(|r| !(long && r.2.is_empty() && r.3.is_empty() && r.4.is_empty()))
        .collect();
    let name_w = shown.iter().map(|r| r.1.width()).max().unwrap_or(4);
    let line = |n: &str, name: &str, owner: &str, level: &str, tokens: &str| {
        let mut l = format!("{n:>3} {}", pad(name, name_w));
        if owned {
            l.push_str(&format!(" {owner:<3}"));
        }
        if levels {
            l.push_str(&format!(" {level:<3}"));
        }
        format!("{} {tokens}", l).trim_end().to_string() + "\n"
    };
    let mut out = String::new();
    if !rows.is_empty() {
        // The columns named once: whose space it is, its level, whose tokens stand on it.
        out.push_str(&line("", "", "own", "lvl", "tokens"));
    }
    for (i, name, owner, level, tokens) in &shown {
        out.push_str(&line(&(i + 1).to_string(), name, owner, level, tokens));
    }
    if long {
        let left = rows.len() - shown.len();
        out.push_str(&format!("    ({left} other spaces, nothing on them)\n"));
    }
    out
}

fn players(game: &Game, seats: &[Seat], viewer: Option<usize>, shown: &Shown) -> String {
    let zones = Zones::of(game, viewer);
    let board = game.board().expect("map checked at start");
    let current = game.pending().map(|p| p.seat);
    let rows: Vec<(String, bool)> = {
        let w = game.shown_world();
        (0..w.seats)
            .map(|s| {
                let marker = if Some(s) == current { ">" } else { " " };
                let counters: Vec<String> = game
                    .pkg
                    .counters
                    .iter()
                    .enumerate()
                    .map(|(c, name)| format!("{name} {}", w.counters[c][s]))
                    .collect();
                let state = match (w.in_play[s], board.spaces.get(w.board.tokens[s])) {
                    (false, _) => " · out".to_string(),
                    (true, Some(space)) => format!(" · at {}", space.name),
                    (true, None) => String::new(),
                };
                let who = seats.get(s).map(|x| x.to_string()).unwrap_or_default();
                let stone = match (&w.grid, s) {
                    (Some(_), 0) => " ●",
                    (Some(_), 1) => " ○",
                    _ => "",
                };
                (
                    format!(
                        "{marker}P{}{stone} ({who}){}{state}",
                        s + 1,
                        counters_text(&counters)
                    ),
                    w.in_play[s],
                )
            })
            .collect()
    };
    let mut out = zones.shared();
    for (s, (row, in_play)) in rows.into_iter().enumerate() {
        out.push_str(&row);
        if in_play {
            // A line break in a status goes on under the seat's line, as its zones do.
            for l in shown.status.get(s).into_iter().flatten() {
                out.push_str(" · ");
                out.push_str(&l.replace('\n', "\n     "));
            }
        }
        out.push('\n');
        out.push_str(&zones.of_seat(s));
    }
    out
}

/// The zones as one seat sees them, with item codes shown by the game's item names.
struct Zones<'a> {
    game: &'a Game,
    seen: Vec<Vec<Seen>>,
}

impl Zones<'_> {
    fn of(game: &Game, viewer: Option<usize>) -> Zones<'_> {
        Zones {
            game,
            seen: game.seen_zones_in(&game.shown_world(), viewer),
        }
    }

    fn pile(&self, seen: &Seen) -> String {
        match seen {
            Seen::Items(items) if items.is_empty() => "—".into(),
            Seen::Items(items) => {
                let names: Vec<String> = (items.iter())
                    .map(|c| self.game.pkg.item_label(*c))
                    .collect();
                // Names of several words ("full house") are told apart by commas.
                let spaced = names.iter().any(|n| n.contains(char::is_whitespace));
                names.join(if spaced { ", " } else { " " })
            }
            Seen::Count { count: 0 } => "—".into(),
            Seen::Count { count } => format!("{count} face down"),
            Seen::Top { top: None, .. } => "—".into(),
            Seen::Top {
                top: Some(top),
                count: 1,
            } => self.game.pkg.item_label(*top),
            Seen::Top {
                top: Some(top),
                count,
            } => format!(
                "{} on {} face down",
                self.game.pkg.item_label(*top),
                count - 1
            ),
            Seen::Nothing {} => "(hidden)".into(),
        }
    }

    fn shared(&self) -> String {
        let mut out = String::new();
        for (spec, piles) in self.game.pkg.zones.iter().zip(&self.seen) {
            if !spec.per_seat {
                out.push_str(&format!("{}: {}\n", spec.name, self.pile(&piles[0])));
            }
        }
        out
    }

    fn of_seat(&self, seat: usize) -> String {
        let zones = &self.game.pkg.zones;
        let width = zones.iter().map(|z| z.name.width()).max().unwrap_or(0);
        let mut out = String::new();
        for (spec, piles) in zones.iter().zip(&self.seen) {
            if let (true, Some(seen)) = (spec.per_seat, piles.get(seat)) {
                out.push_str(&format!(
                    "     {}  {}\n",
                    pad(&spec.name, width),
                    self.pile(seen)
                ));
            }
        }
        out
    }
}

/// Stones as ● (P1) and ○ (P2), other seats by number, a marked stone with its level raised
/// (`●¹`, `●⁺` above 9); rows and columns numbered from 1.
fn render_grid(g: &GridState) -> String {
    let mut out = String::from("   ");
    for c in 1..=g.cols {
        out.push_str(&format!("{:>3}", c));
    }
    out.push('\n');
    for r in 0..g.rows {
        out.push_str(&format!("{:>3}", r + 1));
        for c in 0..g.cols {
            let mark = match g.get(r, c) {
                0 => "·".to_string(),
                1 => "●".to_string(),
                2 => "○".to_string(),
                n => n.to_string(),
            };
            match g.level(r, c) {
                0 => out.push_str(&format!("  {mark}")),
                n => out.push_str(&format!(" {mark}{}", raised(n))),
            }
        }
        out.push('\n');
    }
    out
}

/// A level as one raised character, so the columns stay in line: `¹` to `⁹`, `⁺` above 9.
fn raised(n: u8) -> char {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    DIGITS.get(usize::from(n)).copied().unwrap_or('⁺')
}

/// " cash 1500 · …", or nothing for a game without counters.
fn counters_text(counters: &[String]) -> String {
    if counters.is_empty() {
        String::new()
    } else {
        format!(" {}", counters.join(" · "))
    }
}
