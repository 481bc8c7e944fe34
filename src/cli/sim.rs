//! `meeple sim`: a batch of AI-vs-AI games with a progress bar, then the statistics table
//! (and optionally JSON or CSV files).

use super::{load, CmdResult, GameArgs};
use crate::ai::Seat;
use crate::def::board::Board;
use crate::def::Package;
use crate::diag::Diagnostic;
use crate::reload::Watcher;
use crate::session::interrupt;
use crate::sim::report::Summary;
use crate::sim::{profile, report, run as run_batch, Batch, GameResult, SimConfig};
use clap::Args;
use indicatif::{HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args)]
pub struct SimArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of games
    #[arg(long, default_value_t = 100, value_parser = super::positive::<usize>)]
    games: usize,
    #[arg(long, help = concat!("Who plays each seat, comma-separated, one entry per seat: ", crate::bot_kinds!(), " (default: one ai a seat, as many seats as the game's fewest players, at least 2)"))]
    players: Option<String>,
    /// Worker threads (default: all cores); the numbers do not depend on it
    #[arg(long, value_parser = super::positive::<usize>)]
    jobs: Option<usize>,
    /// Write the summary and every game's result as JSON (`-`: to standard output, the table
    /// then to standard error)
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write one CSV row per game (`-`: to standard output, the table then to standard error)
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Stop a game that has not ended after this many decisions, as an error
    #[arg(long, value_name = "N", default_value_t = crate::ai::MAX_DECISIONS,
          value_parser = super::positive::<u64>)]
    max_decisions: u64,
    /// Keep watching the game's files; re-run the batch on every save and show what changed
    #[arg(long)]
    watch: bool,
    /// Seat the players one seat further round each game, so that each plays from every
    /// seat alike; the report then gives each player's win rate beside each seat's
    #[arg(long)]
    rotate: bool,
    /// Show where the game's Lua spends its work: the functions and lines that ran the most
    /// VM instructions (sampled every 1,000; with --jobs 1 the same games give the same figures)
    #[arg(long)]
    profile: bool,
}

pub fn run(a: SimArgs) -> CmdResult {
    let pkg = load(&a.game.game)?;
    let players = a
        .players
        .clone()
        .unwrap_or_else(|| super::default_players(&pkg, "ai"));
    let seats = (players.split(',').map(Seat::parse_bot))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| vec![Diagnostic::error("--players", e)])?;
    let names: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let to_stdout = |f: &Option<PathBuf>| f.as_ref().is_some_and(|p| p.as_os_str() == "-");
    if to_stdout(&a.json) && to_stdout(&a.csv) {
        return Err(vec![Diagnostic::error(
            "--csv",
            "only one of --json and --csv can write to standard output (-)",
        )]);
    }
    if a.watch && (to_stdout(&a.json) || to_stdout(&a.csv)) {
        return Err(vec![Diagnostic::error(
            "--watch",
            "a watched batch prints its tables to standard output: write --json or --csv to a file",
        )]);
    }
    // A file that cannot be written is said before the batch, not after it.
    for path in [&a.json, &a.csv].into_iter().flatten() {
        super::can_write(path)?;
    }
    // Ctrl-C ends the batch with the games played so far (a watched batch stops at once).
    if !a.watch {
        interrupt::watch();
    }
    let (
        summary,
        Batch {
            results,
            profile: sampled,
        },
        board,
    ) = batch(&a, pkg.clone(), &seats, jobs)?;
    // With a file written to standard output, the table goes to standard error.
    let table_out = |text: String| match to_stdout(&a.json) || to_stdout(&a.csv) {
        true => eprint!("{text}"),
        false => print!("{text}"),
    };
    // The settings changed for the batch are part of what it measured.
    let set: String = a.game.settings.iter().map(|s| format!(" · {s}")).collect();
    let rotated = if a.rotate { " (rotated)" } else { "" };
    table_out(format!(
        "{} · map {} · players {}{rotated} · seed {}{set} · {} job{}\n",
        pkg.title,
        board.name,
        names.join(","),
        a.game.seed,
        jobs,
        if jobs == 1 { "" } else { "s" }
    ));
    table_out(report::render(&summary, &names, &board));
    if let Some(p) = &sampled {
        table_out(profile::render(p, &pkg.scripts, results.len(), None));
    }
    if let Some(path) = &a.json {
        let run = report::Run {
            game: &pkg.id,
            map: a.game.map.as_deref().unwrap_or(&pkg.default_map),
            players: names.clone(),
            seed: a.game.seed,
            games: results.len(),
            settings: &a.game.settings,
        };
        let mut doc = report::json(&run, &summary, &results);
        if let Some(p) = &sampled {
            doc["profile"] = profile::json(p, &pkg.scripts);
        }
        write(
            path,
            &serde_json::to_string_pretty(&doc).unwrap_or_default(),
        )?;
    }
    if let Some(path) = &a.csv {
        write(path, &report::csv(&results, a.rotate))?;
    }
    if let Some(first) = first_failure(&a, &names, &board, &results) {
        eprintln!("{first}");
        if !a.watch {
            return Ok(1);
        }
    }
    if results.len() < a.games {
        return Ok(interrupt::STATUS);
    }
    if a.watch {
        let work = sampled
            .as_ref()
            .map(|p| profile::per_game(p, results.len()));
        let base = summary.played().then_some((summary, work));
        watch(&a, &pkg, &seats, jobs, base)?;
    }
    Ok(0)
}

/// Runs the batch with a progress bar; prints how long it took.
fn batch(
    a: &SimArgs,
    pkg: Arc<Package>,
    seats: &[Seat],
    jobs: usize,
) -> Result<(Summary, Batch, Board), Vec<Diagnostic>> {
    let board = pkg
        .map(a.game.map.as_deref())
        .map_err(|e| vec![Diagnostic::error("--map", e)])?
        .clone();
    let cfg = SimConfig {
        pkg,
        base: a.game.config(seats.len()),
        seats: seats.to_vec(),
        games: a.games,
        seed: a.game.seed,
        jobs,
        max_decisions: a.max_decisions,
        rotate: a.rotate,
        profile: a.profile,
    };
    let bar = ProgressBar::new(a.games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed} elapsed  {rate}  eta {left}",
        )
        .expect("valid template")
        // Games a second as the closing line gives them.
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} games/s", state.per_sec());
            },
        )
        // No estimate before the first game has ended (indicatif would say 0s).
        .with_key(
            "left",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = match state.pos() {
                    0 => write!(w, "?"),
                    _ => write!(w, "{:#}", HumanDuration(state.eta())),
                };
            },
        ),
    );
    // Drawn from the start and kept ticking: a batch of slow games shows its time running
    // before the first game ends.
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    let started = std::time::Instant::now();
    let batch = run_batch(&cfg, &|| bar.inc(1), &interrupt::asked)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let played = batch.results.len();
    match played {
        _ if played == a.games => {}
        _ if batch.gave_up() => eprintln!(
            "stopped: each of the first {} games stopped on an error (see below)",
            crate::sim::GIVE_UP
        ),
        0 => eprintln!("interrupted before any game finished"),
        _ => eprintln!("interrupted: the figures below are those of the games finished"),
    }
    eprintln!(
        "{} in {secs:.2} s ({:.1} games/s)",
        crate::diag::plural(played, "game"),
        played as f64 / secs.max(1e-9)
    );
    let summary = report::summarize(&batch.results, seats.len(), a.rotate);
    Ok((summary, batch, board))
}

/// Re-runs the batch on every save and shows what changed since `last`, the last batch in
/// which games were played and none stopped on an error (the whole report while there is
/// none), with its Lua work a game when profiled: a broken edit is no baseline for its fix.
fn watch(
    a: &SimArgs,
    pkg: &Package,
    seats: &[Seat],
    jobs: usize,
    mut last: Option<(Summary, Option<u64>)>,
) -> CmdResult {
    let names: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let watcher = Watcher::for_game(pkg).map_err(|e| vec![Diagnostic::error(&pkg.shown, e)])?;
    eprintln!("\nwatching {} for changes (Ctrl-C to stop)", pkg.shown);
    for request in watcher.requests.iter() {
        let edited = request.shown(&pkg.root).join(", ");
        let pkg = match load(&a.game.game) {
            Ok(pkg) => pkg,
            Err(diags) => {
                let why = crate::diag::render(&diags);
                eprintln!("\n{edited} changed; not re-run, as the game does not load:\n{why}");
                continue;
            }
        };
        eprintln!("\n{edited} changed: re-running the batch");
        let (summary, ran, board) = match batch(a, pkg.clone(), seats, jobs) {
            Ok(done) => done,
            Err(diags) => {
                eprintln!("the batch did not start: {}", crate::diag::render(&diags));
                continue;
            }
        };
        match (&last, summary.played()) {
            (_, false) => {}
            (Some((before, _)), true) => {
                println!("\nafter the edit (same seeds):");
                print!("{}", report::compare(before, &summary, &names, &board));
            }
            (None, true) => {
                println!("\nafter the edit:");
                print!("{}", report::render(&summary, &names, &board));
            }
        }
        let games = ran.results.len();
        if let Some(p) = &ran.profile {
            let before = last.as_ref().and_then(|(_, work)| *work);
            print!("{}", profile::render(p, &pkg.scripts, games, before));
        }
        if let Some(first) = first_failure(a, &names, &board, &ran.results) {
            eprintln!("{first}");
        }
        // A batch with no game played, or with errors, is no "before" for the next edit
        // while a clean one is there.
        let work = ran.profile.as_ref().map(|p| profile::per_game(p, games));
        match (summary.played(), summary.errors, &last) {
            (false, _, _) => {
                eprintln!("not compared: the last batch that played stays the one to compare with")
            }
            (true, 0, _) | (true, _, None) => last = Some((summary, work)),
            (true, _, Some(_)) => eprintln!(
                "the next edit is compared with the last batch without errors, not this one"
            ),
        }
    }
    Ok(0)
}

/// The first game that stopped on an error (the error, then its seed and the command that
/// plays the game again), and how many games did.
fn first_failure(
    a: &SimArgs,
    names: &[String],
    board: &Board,
    results: &[GameResult],
) -> Option<String> {
    let failed = results.iter().find(|r| r.error.is_some())?;
    let errors = results.iter().filter(|r| r.error.is_some()).count();
    // The players as that game seated them.
    let seated: Vec<&str> = (failed.players.iter())
        .map(|p| names[*p].as_str())
        .collect();
    let (players, g) = (seated.join(","), &a.game);
    let game = (g.game.as_str(), board.id.as_str(), players.as_str());
    let note = super::replay_note(game, failed.seed, &g.settings, a.max_decisions);
    Some(format!(
        "{}\n    {note}\nerror: {errors} of {} games stopped on an error (the first is shown above)",
        failed.error.as_deref().unwrap_or_default(),
        results.len()
    ))
}

/// Writes `text` to the file at `path`, or to standard output for `-`.
fn write(path: &PathBuf, text: &str) -> Result<(), Vec<Diagnostic>> {
    if path.as_os_str() == "-" {
        println!("{}", text.trim_end());
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| {
        vec![Diagnostic::error(
            path.display().to_string(),
            format!("cannot write: {e}"),
        )]
    })
}
