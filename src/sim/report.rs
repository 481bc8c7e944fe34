//! The statistics of a batch: finished vs capped games, round counts, win rate per seat (and,
//! when the seats rotated, per player) with its 95% interval, the games' own tallies (as
//! shares) and `stats` numbers with their spread; rendered as a table, JSON or CSV.

use super::GameResult;
use crate::core::event::Outcome;
use crate::def::board::Board;
use crate::diag::plural;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use unicode_width::UnicodeWidthStr;

#[derive(Debug, Serialize, PartialEq)]
pub struct Summary {
    pub games: usize,
    pub finished: usize,
    pub capped: usize,
    pub draws: usize,
    pub errors: usize,
    pub first_error: Option<String>,
    pub rounds_mean: f64,
    pub rounds_median: u64,
    pub rounds_p90: u64,
    /// Wins per seat (a shared win counts for each winner).
    pub wins: Vec<usize>,
    /// Games won by more than one seat.
    pub shared: usize,
    pub tallies: BTreeMap<String, BTreeMap<String, u64>>,
    /// 95% interval of each seat's win rate, in percent (Wilson score interval).
    pub win_interval: Vec<[f64; 2]>,
    /// Whether the players changed seats between games (`sim --rotate`); then each player's
    /// wins, wherever it sat, and their 95% intervals.
    pub rotated: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub player_wins: Vec<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub player_win_interval: Vec<[f64; 2]>,
    /// Mean of each `stats` number over the games that reported it.
    pub stats: BTreeMap<String, f64>,
    /// How each `stats` number spread over those games.
    pub stats_spread: BTreeMap<String, Spread>,
    /// How many games reported each `stats` number.
    #[serde(skip)]
    pub stats_games: BTreeMap<String, usize>,
}

/// How a number spread over the games: standard deviation, least and greatest.
#[derive(Debug, Serialize, PartialEq)]
pub struct Spread {
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    fn of(values: &[f64]) -> Spread {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        Spread {
            sd: var.sqrt(),
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials, in percent: where the true
/// rate lies, with the batch's size taken into account (narrow at 10,000 games, wide at 20).
pub fn wilson(k: usize, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 100.0];
    }
    let (z, n) = (1.959_964, n as f64);
    let p = k as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    [
        100.0 * (centre - half).max(0.0),
        100.0 * (centre + half).min(1.0),
    ]
}

impl Summary {
    /// Whether any game of the batch was played to an end (not every one stopped on an error):
    /// only such a batch is something to compare with.
    pub fn played(&self) -> bool {
        self.errors < self.games
    }
}

/// The summary of a batch of `seats` seats; `rotated`: the players changed seats between
/// games (`sim --rotate`), so each player's wins are counted too.
pub fn summarize(results: &[GameResult], seats: usize, rotated: bool) -> Summary {
    let mut wins = vec![0; seats];
    let mut player_wins = vec![0; if rotated { seats } else { 0 }];
    let (mut finished, mut capped, mut draws, mut errors, mut shared) = (0, 0, 0, 0, 0);
    let mut tallies: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    let mut stat_values: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in results {
        if r.error.is_some() {
            errors += 1;
            continue;
        }
        match &r.outcome {
            Some(Outcome::Won { winners }) => {
                finished += 1;
                shared += usize::from(winners.len() > 1);
                for w in winners {
                    wins[*w] += 1;
                    let player = r.players.get(*w).copied().unwrap_or(*w);
                    if let Some(p) = player_wins.get_mut(player) {
                        *p += 1;
                    }
                }
            }
            Some(Outcome::Draw) => {
                finished += 1;
                draws += 1;
            }
            Some(Outcome::Capped { .. }) | None => capped += 1,
        }
        for (name, table) in &r.tallies {
            let into = tallies.entry(name.clone()).or_default();
            table.iter().for_each(|(k, v)| {
                let n = into.entry(k.clone()).or_default();
                *n = n.saturating_add(*v);
            });
        }
        for (name, v) in &r.stats {
            stat_values.entry(name.clone()).or_default().push(*v);
        }
    }
    let mut rounds: Vec<u64> = results
        .iter()
        .filter(|r| r.error.is_none())
        .map(|r| r.rounds)
        .collect();
    rounds.sort_unstable();
    let pick = |q: f64| {
        rounds
            .get(((rounds.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    Summary {
        games: results.len(),
        finished,
        capped,
        draws,
        errors,
        first_error: results.iter().find_map(|r| r.error.clone()),
        rounds_mean: if rounds.is_empty() {
            0.0
        } else {
            rounds.iter().sum::<u64>() as f64 / rounds.len() as f64
        },
        rounds_median: pick(0.5),
        rounds_p90: pick(0.9),
        win_interval: wins.iter().map(|w| wilson(*w, results.len())).collect(),
        wins,
        rotated,
        player_win_interval: (player_wins.iter())
            .map(|w| wilson(*w, results.len()))
            .collect(),
        player_wins,
        shared,
        tallies,
        stats: (stat_values.iter())
            .map(|(k, v)| (k.clone(), v.iter().sum::<f64>() / v.len() as f64))
            .collect(),
        stats_spread: (stat_values.iter())
            .map(|(k, v)| (k.clone(), Spread::of(v)))
            .collect(),
        stats_games: stat_values.into_iter().map(|(k, v)| (k, v.len())).collect(),
    }
}

/// Left-aligns `text` in `width` terminal columns (CJK characters take two).
pub fn pad(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(text.width())))
}

pub fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// The summary as a table for the terminal.
pub fn render(s: &Summary, seat_names: &[String], board: &Board) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "games      {:>8}", s.games);
    let _ = writeln!(
        out,
        "finished   {:>8}  ({:.1}%)",
        s.finished,
        pct(s.finished, s.games)
    );
    if s.capped > 0 {
        let _ = writeln!(
            out,
            "capped     {:>8}  ({:.1}%, unfinished at the round cap)",
            s.capped,
            pct(s.capped, s.games)
        );
    }
    if s.draws > 0 {
        let _ = writeln!(out, "draws      {:>8}", s.draws);
    }
    if s.errors > 0 {
        let _ = writeln!(
            out,
            "errors     {:>8}  (the first is shown below)",
            s.errors
        );
    }
    // A batch whose every game stopped on an error has nothing more to show.
    if !s.played() {
        return out;
    }
    let _ = writeln!(
        out,
        "rounds     mean {:.1}  median {}  p90 {}",
        s.rounds_mean, s.rounds_median, s.rounds_p90
    );
    let each = match s.shared {
        0 => "",
        _ => "; a shared win counts for each winner",
    };
    let width = seat_names
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(0)
        .max(10);
    let rate = |out: &mut String, head: String, name: &str, w: usize, [low, high]: [f64; 2]| {
        let _ = writeln!(
            out,
            "  {head} {name:<width$} {:>6.1}%  {:<8} {low:.1}–{high:.1}%",
            pct(w, s.games),
            format!("({w})"),
        );
    };
    let interval = |list: &[[f64; 2]], i: usize| list.get(i).copied().unwrap_or([0.0, 100.0]);
    if s.rotated {
        let _ = writeln!(
            out,
            "\nwin rate per player (each in every seat in turn{each}; 95% interval)"
        );
        for (i, w) in s.player_wins.iter().enumerate() {
            let interval = interval(&s.player_win_interval, i);
            let name = seat_names.get(i).map_or("", |s| s.as_str());
            rate(&mut out, format!("{:>2}", i + 1), name, *w, interval);
        }
    }
    let whoever = if s.rotated { ", whoever sat there" } else { "" };
    let _ = writeln!(
        out,
        "\nwin rate per seat (of all games{whoever}{each}; 95% interval)"
    );
    for (i, w) in s.wins.iter().enumerate() {
        let interval = interval(&s.win_interval, i);
        let name = match s.rotated {
            true => "",
            false => seat_names.get(i).map_or("", |s| s.as_str()),
        };
        rate(&mut out, format!("P{}", i + 1), name, *w, interval);
    }
    if s.shared > 0 {
        let _ = writeln!(
            out,
            "  {:<w$} {:>6.1}%  ({} won by more than one seat)",
            "shared",
            pct(s.shared, s.games),
            plural(s.shared, "game"),
            w = width + 3
        );
    }
    for (name, table) in &s.tallies {
        render_tally(&mut out, name, table, board, s.games - s.errors);
    }
    if !s.stats.is_empty() {
        let _ = writeln!(
            out,
            "\ngame stats (per game)              mean        sd       min       max"
        );
        let played = s.games - s.errors;
        for (k, v) in &s.stats {
            // A number some games leave out is the mean over those that give it.
            let n = s.stats_games.get(k).copied().unwrap_or(played);
            let some = match n < played {
                true => format!("  (over the {n} of {played} games that give it)"),
                false => String::new(),
            };
            let spread = match s.stats_spread.get(k) {
                Some(d) => format!(" {:>9.2} {:>9.2} {:>9.2}", d.sd, d.min, d.max),
                None => String::new(),
            };
            let _ = writeln!(out, "  {k:<20} {v:>16.2}{spread}{some}");
        }
    }
    out
}

/// A tally whose every key is a space id is shown in board order with space names.
fn keyed_by_space<'a>(mut keys: impl Iterator<Item = &'a String>, board: &Board) -> bool {
    keys.all(|k| board.space_index(k).is_some())
}

/// A tally's keys with their shares of its total, and how many a game each came to over the
/// `games` played.
fn render_tally(
    out: &mut String,
    name: &str,
    table: &BTreeMap<String, u64>,
    board: &Board,
    games: usize,
) {
    let total = table.values().fold(0u64, |a, b| a.saturating_add(*b));
    let per_game = |n: u64| a_game(n as f64 / games.max(1) as f64);
    let _ = writeln!(
        out,
        "\n{name} (share of {total}; {} a game)",
        per_game(total)
    );
    let by_space = keyed_by_space(table.keys(), board);
    let mut rows: Vec<(Option<usize>, &String, u64)> = table
        .iter()
        .map(|(k, v)| (board.space_index(k).filter(|_| by_space), k, *v))
        .collect();
    if by_space {
        rows.sort_by_key(|r| r.0);
    } else {
        rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(b.1)));
    }
    for (index, key, v) in rows {
        let label = match index {
            Some(i) => format!("{:>2} {}", i + 1, board.spaces[i].name),
            None => key.clone(),
        };
        let _ = writeln!(
            out,
            "  {} {:>6.2}%  ({v}; {} a game)",
            pad(&label, 32),
            100.0 * v as f64 / total.max(1) as f64,
            per_game(v)
        );
    }
}

/// A count a game, to three figures or so: 965.9, 1.24, 0.004.
fn a_game(x: f64) -> String {
    match x {
        x if x >= 10.0 => format!("{x:.1}"),
        x if x >= 0.1 || x == 0.0 => format!("{x:.2}"),
        x => format!("{x:.3}"),
    }
}

/// What a batch was run with, written at the head of the JSON file so that it can be traced
/// back to its command.
#[derive(Serialize)]
pub struct Run<'a> {
    pub game: &'a str,
    pub map: &'a str,
    pub players: Vec<String>,
    pub seed: u64,
    pub games: usize,
    pub settings: &'a [String],
}

/// One game as the JSON file lists it: the CSV row's fields (seats numbered from 1, as
/// everywhere a person reads them), then the game's stats (by name) and tallies.
#[derive(Serialize)]
struct JsonGame<'a> {
    game: usize,
    seed: u64,
    result: &'static str,
    winners: Vec<usize>,
    rounds: u64,
    decisions: u64,
    stats: BTreeMap<&'a str, f64>,
    tallies: &'a BTreeMap<String, BTreeMap<String, u64>>,
    error: Option<&'a str>,
    /// In a rotated batch, the player (from 1, in the run's order) in each seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    players: Option<Vec<usize>>,
}

/// The result of a game (`won`, `draw`, `capped` or `error`) and its winners' seats (from 0).
fn result_of(r: &GameResult) -> (&'static str, &[usize]) {
    match (&r.error, &r.outcome) {
        (Some(_), _) => ("error", &[]),
        (_, Some(Outcome::Won { winners })) => ("won", winners),
        (_, Some(Outcome::Draw)) => ("draw", &[]),
        _ => ("capped", &[]),
    }
}

/// The JSON file: the run, the summary and every game.
pub fn json(run: &Run, summary: &Summary, results: &[GameResult]) -> serde_json::Value {
    let seating =
        |r: &GameResult| (summary.rotated).then(|| r.players.iter().map(|p| p + 1).collect());
    let games: Vec<JsonGame> = results
        .iter()
        .map(|r| {
            let (result, winners) = result_of(r);
            JsonGame {
                game: r.index,
                seed: r.seed,
                result,
                winners: winners.iter().map(|w| w + 1).collect(),
                rounds: r.rounds,
                decisions: r.decisions,
                stats: r.stats.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
                tallies: &r.tallies,
                error: r.error.as_deref(),
                players: seating(r),
            }
        })
        .collect();
    serde_json::json!({ "run": run, "summary": summary, "games": games })
}

/// One CSV row per game: index, seed, result, winners, rounds, decisions, in a `rotated`
/// batch the players by seat (`2 1`: the second player in P1's seat), then each stat.
pub fn csv(results: &[GameResult], rotated: bool) -> String {
    let stat_names: Vec<String> = results
        .iter()
        .flat_map(|r| r.stats.iter().map(|s| s.0.clone()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut out = format!(
        "game,seed,result,winners,rounds,decisions{}{}\n",
        if rotated { ",players" } else { "" },
        stat_names
            .iter()
            .map(|s| format!(",{s}"))
            .collect::<String>()
    );
    for r in results {
        let (result, winners) = result_of(r);
        let winners: Vec<String> = winners.iter().map(|w| format!("P{}", w + 1)).collect();
        let winners = winners.join(" ");
        let _ = write!(
            out,
            "{},{},{result},{winners},{},{}",
            r.index, r.seed, r.rounds, r.decisions
        );
        if rotated {
            let players: Vec<String> = r.players.iter().map(|p| (p + 1).to_string()).collect();
            let _ = write!(out, ",{}", players.join(" "));
        }
        for name in &stat_names {
            let v = r
                .stats
                .iter()
                .find(|s| &s.0 == name)
                .map(|s| s.1.to_string())
                .unwrap_or_default();
            let _ = write!(out, ",{v}");
        }
        out.push('\n');
    }
    out
}

/// The figures of two batches side by side (before an edit and after it), with the change.
pub fn compare(before: &Summary, after: &Summary, seat_names: &[String], board: &Board) -> String {
    let mut rows: Vec<(String, String, String, String)> = Vec::new();
    // The change is that of the figures as shown (0.7 → 0.5 is -0.2, whatever the digits past
    // the shown one).
    let shown = |x: f64| format!("{x:.1}").parse::<f64>().unwrap_or(x);
    let mut share = |label: String, b: f64, a: f64, unit: &str| {
        let (b, a) = (shown(b), shown(a));
        rows.push((
            label,
            format!("{b:.1}{unit}"),
            format!("{a:.1}{unit}"),
            format!("{:+.1}", a - b),
        ));
    };
    share(
        "finished".into(),
        pct(before.finished, before.games),
        pct(after.finished, after.games),
        "%",
    );
    share(
        "capped".into(),
        pct(before.capped, before.games),
        pct(after.capped, after.games),
        "%",
    );
    for (label, b, a) in [
        ("draws", before.draws, after.draws),
        ("errors", before.errors, after.errors),
    ] {
        if b + a > 0 {
            share(label.into(), pct(b, before.games), pct(a, after.games), "%");
        }
    }
    share(
        "rounds mean".into(),
        before.rounds_mean,
        after.rounds_mean,
        "",
    );
    share(
        "rounds median".into(),
        before.rounds_median as f64,
        after.rounds_median as f64,
        "",
    );
    // Rotated batches compare each player's wins, wherever it sat.
    let wins = |s: &Summary| match s.rotated {
        true => s.player_wins.clone(),
        false => s.wins.clone(),
    };
    let (won_before, won_after) = (wins(before), wins(after));
    for (i, name) in seat_names.iter().enumerate() {
        let (b, a) = (
            won_before.get(i).copied().unwrap_or(0),
            won_after.get(i).copied().unwrap_or(0),
        );
        let label = match after.rotated {
            true => format!("{} {name} wins", i + 1),
            false => format!("P{} {name} wins", i + 1),
        };
        share(label, pct(b, before.games), pct(a, after.games), "%");
    }
    let names: std::collections::BTreeSet<&String> =
        before.tallies.keys().chain(after.tallies.keys()).collect();
    for name in names {
        let (b, a) = (before.tallies.get(name), after.tallies.get(name));
        let total = |t: Option<&BTreeMap<String, u64>>| {
            let sum = t.map(|t| t.values().fold(0u64, |a, b| a.saturating_add(*b)));
            sum.unwrap_or(0).max(1) as f64
        };
        let (tb, ta) = (total(b), total(a));
        let mut keys: Vec<&String> = b.into_iter().chain(a).flat_map(|t| t.keys()).collect();
        let by_space = keyed_by_space(keys.iter().copied(), board);
        let index = |k: &str| board.space_index(k).filter(|_| by_space);
        keys.sort_by_key(|k| (index(k).unwrap_or(usize::MAX), k.to_string()));
        keys.dedup();
        for key in keys {
            let get = |t: Option<&BTreeMap<String, u64>>| {
                t.and_then(|t| t.get(key)).copied().unwrap_or(0) as f64
            };
            let label = match index(key) {
                Some(i) => format!("{name}: {}", board.spaces[i].name),
                None => format!("{name}: {key}"),
            };
            share(label, 100.0 * get(b) / tb, 100.0 * get(a) / ta, "%");
        }
    }
    let stats: std::collections::BTreeSet<&String> =
        before.stats.keys().chain(after.stats.keys()).collect();
    // A statistic as the report shows it (two decimals); one that only one batch gives is
    // n/a in the other.
    let two = |x: f64| format!("{x:.2}").parse::<f64>().unwrap_or(x);
    for k in stats {
        let (b, a) = (before.stats.get(k), after.stats.get(k));
        let cell = |v: Option<&f64>| v.map_or("n/a".to_string(), |v| format!("{:.2}", two(*v)));
        let change = match (b, a) {
            (Some(b), Some(a)) => format!("{:+.2}", two(*a) - two(*b)),
            _ => String::new(),
        };
        rows.push((format!("stats: {k}"), cell(b), cell(a), change));
    }
    let width = rows.iter().map(|r| r.0.width()).max().unwrap_or(10).max(10);
    let mut out = format!(
        "{} {:>10} {:>10} {:>9}\n",
        pad("", width),
        "before",
        "after",
        "change"
    );
    for (label, b, a, d) in rows {
        let _ = writeln!(out, "{} {b:>10} {a:>10} {d:>9}", pad(&label, width));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: usize, outcome: Option<Outcome>, error: Option<&str>) -> GameResult {
        GameResult {
            index,
            seed: 40 + index as u64,
            outcome,
            rounds: 7,
            decisions: 30,
            tallies: BTreeMap::from([("landing".into(), BTreeMap::from([("go".into(), 3)]))]),
            stats: vec![("houses".into(), 2.0)],
            error: error.map(String::from),
            players: vec![0, 1],
        }
    }

    fn batch() -> Vec<GameResult> {
        vec![
            game(0, Some(Outcome::Won { winners: vec![1] }), None),
            game(1, Some(Outcome::Capped { round: 7 }), None),
            game(2, None, Some("rules.lua:3: error: boom")),
        ]
    }

    #[test]
    fn json_names_the_run_and_numbers_seats_from_one() {
        let results = batch();
        let settings = vec!["salary=100".to_string()];
        let run = Run {
            game: "monopoly",
            map: "demo",
            players: vec!["ai".into(), "random".into()],
            seed: 9,
            games: 3,
            settings: &settings,
        };
        let doc = json(&run, &summarize(&results, 2, false), &results);
        assert_eq!(
            doc["run"],
            serde_json::json!({"game": "monopoly", "map": "demo", "players": ["ai", "random"],
                               "seed": 9, "games": 3, "settings": ["salary=100"]})
        );
        assert_eq!(
            doc["games"][0],
            serde_json::json!({"game": 0, "seed": 40, "result": "won", "winners": [2],
                               "rounds": 7, "decisions": 30, "stats": {"houses": 2.0},
                               "tallies": {"landing": {"go": 3}}, "error": null})
        );
        assert_eq!(doc["games"][1]["result"], "capped");
        assert_eq!(doc["games"][2]["result"], "error");
        assert_eq!(doc["games"][2]["error"], "rules.lua:3: error: boom");
        assert_eq!(doc["summary"]["wins"], serde_json::json!([0, 1]));
        assert_eq!(doc["summary"]["stats"], serde_json::json!({"houses": 2.0}));
    }

    fn empty_board() -> Board {
        Board {
            id: "t".into(),
            name: "t".into(),
            path: "t".into(),
            spaces: Vec::new(),
            decks: Vec::new(),
            settings: toml::Table::new(),
            grid: None,
            kind: "table".into(),
            looped: true,
        }
    }

    #[test]
    fn compare_shows_draws_and_errors_when_there_are_any() {
        let board = empty_board();
        let names = ["ai".to_string(), "random".to_string()];
        let before = summarize(&batch()[..2], 2, false);
        let text = compare(&before, &summarize(&batch(), 2, false), &names, &board);
        assert!(text.contains("errors"), "{text}");
        assert!(!text.contains("draws"), "no draws on either side: {text}");
        let errors = text
            .lines()
            .find(|l| l.contains("errors"))
            .unwrap_or_default();
        assert_eq!(
            errors.split_whitespace().collect::<Vec<_>>(),
            ["errors", "0.0%", "33.3%", "+33.3"]
        );
    }

    /// The change is the difference of the figures shown: a statistic has two decimals, as
    /// the report shows it (0.666 → 0.544 reads 0.67 → 0.54, -0.13, not the -0.122 of the
    /// unrounded figures); one only a batch gives is n/a in the other.
    #[test]
    fn compare_changes_by_the_figures_it_shows() {
        let names = ["ai".to_string(), "random".to_string()];
        let mut before = summarize(&batch()[..2], 2, false);
        let mut after = summarize(&batch()[..2], 2, false);
        before.stats.insert("bankruptcies".into(), 0.666);
        after.stats.insert("bankruptcies".into(), 0.544);
        after.stats.insert("jackpots".into(), 1.5);
        let text = compare(&before, &after, &names, &empty_board());
        let row = |name: &str| {
            let line = text.lines().find(|l| l.contains(name)).unwrap_or_default();
            line.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        assert_eq!(row("bankruptcies"), "stats: bankruptcies 0.67 0.54 -0.13");
        assert_eq!(row("jackpots"), "stats: jackpots n/a 1.50");
    }

    /// A batch whose every game stopped on an error shows the counts and the first error only.
    #[test]
    fn a_batch_of_errors_shows_no_rounds_or_win_rates() {
        let names = ["ai".to_string(), "random".to_string()];
        let failed = summarize(&batch()[2..], 2, false);
        assert_eq!(
            render(&failed, &names, &empty_board()),
            "games             1\n\
             finished          0  (0.0%)\n\
             errors            1  (the first is shown below)\n"
        );
        assert!(
            render(&summarize(&batch(), 2, false), &names, &empty_board()).contains("win rate")
        );
    }

    /// The first `n` lines of `text` from the one that starts with `from`.
    fn rows<'a>(text: &'a str, from: &str, n: usize) -> Vec<&'a str> {
        (text.lines())
            .skip_while(|l| !l.starts_with(from))
            .take(n)
            .collect()
    }

    /// A win shared by two seats counts for each, and the report says how many were shared.
    #[test]
    fn shared_wins_count_for_each_winner_and_are_counted() {
        let names = ["ai".to_string(), "random".to_string()];
        let mut results = batch();
        results[1].outcome = Some(Outcome::Won {
            winners: vec![0, 1],
        });
        let summary = summarize(&results, 2, false);
        assert_eq!((summary.wins.clone(), summary.shared), (vec![1, 2], 1));
        let text = render(&summary, &names, &empty_board());
        let rows = rows(&text, "win rate", 4);
        assert_eq!(
            rows,
            [
                "win rate per seat (of all games; a shared win counts for each winner; 95% interval)",
                "  P1 ai           33.3%  (1)      6.1–79.2%",
                "  P2 random       66.7%  (2)      20.8–93.9%",
                "  shared          33.3%  (1 game won by more than one seat)"
            ]
        );
    }

    /// In a rotated batch each player's wins count wherever it sat, beside each seat's;
    /// the CSV and the JSON give each game's seating.
    #[test]
    fn a_rotated_batch_gives_each_players_wins_wherever_it_sat() {
        let names = ["ai".to_string(), "random".to_string()];
        let won = |winner| {
            Some(Outcome::Won {
                winners: vec![winner],
            })
        };
        let mut results = vec![
            game(0, won(0), None),
            game(1, won(1), None),
            game(2, won(1), None),
        ];
        results[1].players = vec![1, 0];
        let summary = summarize(&results, 2, true);
        assert_eq!(
            (summary.wins.clone(), summary.player_wins.clone()),
            (vec![1, 2], vec![2, 1])
        );
        let text = render(&summary, &names, &empty_board());
        let rows: Vec<&str> = (text.lines())
            .skip_while(|l| !l.starts_with("win rate"))
            .filter(|l| !l.is_empty())
            .take(6)
            .collect();
        assert_eq!(
            rows,
            [
                "win rate per player (each in every seat in turn; 95% interval)",
                "   1 ai           66.7%  (2)      20.8–93.9%",
                "   2 random       33.3%  (1)      6.1–79.2%",
                "win rate per seat (of all games, whoever sat there; 95% interval)",
                "  P1              33.3%  (1)      6.1–79.2%",
                "  P2              66.7%  (2)      20.8–93.9%",
            ]
        );
        let rows: Vec<String> = csv(&results, true).lines().map(String::from).collect();
        assert_eq!(
            rows[0],
            "game,seed,result,winners,rounds,decisions,players,houses"
        );
        assert_eq!(rows[2], "1,41,won,P2,7,30,2 1,2");
        let run = Run {
            game: "g",
            map: "m",
            players: names.to_vec(),
            seed: 1,
            games: 3,
            settings: &[],
        };
        let doc = json(&run, &summary, &results);
        assert_eq!(doc["games"][1]["players"], serde_json::json!([2, 1]));
        assert_eq!(doc["summary"]["player_wins"], serde_json::json!([2, 1]));
        let unrotated = summarize(&batch(), 2, false);
        assert!(!unrotated.rotated && unrotated.player_wins.is_empty());
        let doc = json(&run, &unrotated, &batch());
        assert!(doc["games"][0].get("players").is_none(), "{doc}");
    }

    /// Reference values of the 95% Wilson interval: none of 10, half of 100, all of 20.
    #[test]
    fn win_rates_get_their_95_percent_interval() {
        let round = |[a, b]: [f64; 2]| [(a * 10.0).round() / 10.0, (b * 10.0).round() / 10.0];
        assert_eq!(round(wilson(0, 10)), [0.0, 27.8]);
        assert_eq!(round(wilson(50, 100)), [40.4, 59.6]);
        assert_eq!(round(wilson(20, 20)), [83.9, 100.0]);
        assert_eq!(wilson(0, 0), [0.0, 100.0]);
    }

    /// A stat some games leave out is the mean over those that give it, and says so; each
    /// stat shows its spread over the games beside the mean.
    #[test]
    fn a_stat_some_games_leave_out_says_how_many_give_it() {
        let names = ["ai".to_string(), "random".to_string()];
        let mut results = batch();
        results[1].stats.push(("points".into(), 8.0));
        results[1].stats[0].1 = 6.0;
        let text = render(&summarize(&results, 2, false), &names, &empty_board());
        let rows = rows(&text, "game stats", usize::MAX);
        assert_eq!(
            rows,
            [
                "game stats (per game)              mean        sd       min       max",
                "  houses                           4.00      2.83      2.00      6.00",
                "  points                           8.00      0.00      8.00      8.00  (over the 1 of 2 games that give it)"
            ]
        );
    }

    /// A tally says each key's share and how many a game it came to, over the games played
    /// (a game that stopped on an error is none).
    #[test]
    fn a_tally_gives_each_keys_share_and_count_a_game() {
        let names = ["ai".to_string(), "random".to_string()];
        let mut results = batch();
        let counts = [("rent", 30), ("tax", 1)];
        results[0]
            .tallies
            .insert("paid".into(), counts.map(|(k, n)| (k.into(), n)).into());
        let text = render(&summarize(&results, 2, false), &names, &empty_board());
        let rows = rows(&text, "paid", 3);
        assert_eq!(
            rows,
            [
                "paid (share of 31; 15.5 a game)",
                "  rent                              96.77%  (30; 15.0 a game)",
                "  tax                                3.23%  (1; 0.50 a game)"
            ]
        );
    }

    #[test]
    fn csv_has_one_row_per_game_with_the_same_seats() {
        assert_eq!(
            csv(&batch(), false),
            "game,seed,result,winners,rounds,decisions,houses\n\
             0,40,won,P2,7,30,2\n\
             1,41,capped,,7,30,2\n\
             2,42,error,,7,30,2\n"
        );
    }
}
