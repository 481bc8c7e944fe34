//! `meeple sim`: a batch of AI-vs-AI games with a progress bar, then the statistics table
//! (and optionally JSON or CSV files).

use super::{load, CmdResult, GameArgs};
use crate::ai::Seat;
use crate::diag::Diagnostic;
use crate::sim::{report, run as run_batch, SimConfig};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

#[derive(Args)]
pub struct SimArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of games
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Who plays each seat: ai (heuristic) or random, comma-separated
    #[arg(long, default_value = "ai,ai")]
    players: String,
    /// Worker threads (default: all cores); the numbers do not depend on it
    #[arg(long)]
    jobs: Option<usize>,
    /// Write the summary and every game's result as JSON
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write one CSV row per game
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

pub fn run(a: SimArgs) -> CmdResult {
    let pkg = load(&a.game.game)?;
    let seats =
        Seat::parse_list(&a.players).map_err(|e| vec![Diagnostic::error("--players", e)])?;
    let board = pkg
        .map(a.game.map.as_deref())
        .map_err(|e| vec![Diagnostic::error("--map", e)])?
        .clone();
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let cfg = SimConfig {
        pkg: pkg.clone(),
        base: a.game.config(seats.len()),
        seats: seats.clone(),
        games: a.games,
        seed: a.game.seed,
        jobs,
    };
    let bar = ProgressBar::new(a.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .expect("valid template"),
    );
    let started = std::time::Instant::now();
    let results = run_batch(&cfg, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let summary = report::summarize(&results, seats.len());
    let names: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    println!(
        "{} · map {} · players {} · seed {} · {} jobs",
        pkg.title, board.name, a.players, a.game.seed, jobs
    );
    print!("{}", report::render(&summary, &names, &board));
    println!(
        "\n{} games in {secs:.2} s ({:.0} games/s)",
        a.games,
        a.games as f64 / secs.max(1e-9)
    );
    if let Some(path) = &a.json {
        let doc = serde_json::json!({ "summary": summary, "games": results });
        write(
            path,
            &serde_json::to_string_pretty(&doc).unwrap_or_default(),
        )?;
    }
    if let Some(path) = &a.csv {
        write(path, &report::csv(&results))?;
    }
    if let Some(first) = &summary.first_error {
        eprintln!(
            "{first}\nerror: {} of {} games stopped on a script error (the first is shown above)",
            summary.errors, a.games
        );
        return Ok(1);
    }
    Ok(0)
}

fn write(path: &PathBuf, text: &str) -> Result<(), Vec<Diagnostic>> {
    std::fs::write(path, text).map_err(|e| {
        vec![Diagnostic::error(
            path.display().to_string(),
            format!("cannot write: {e}"),
        )]
    })
}
