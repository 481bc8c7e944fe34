//! `meeple ai`: what a bot would do in a position (the start of a game, or the end of a replay
//! or save file), as JSON: the chosen option and the top candidates with their scores (the AI
//! script's scores for `ai`, visit counts for `mcts`), for the seat asked first or, in a
//! simultaneous decision, the one `--seat` names.

use super::thinking::thinking;
use super::{position, CmdResult, GameArgs};
use crate::ai::Seat;
use crate::diag::Diagnostic;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args)]
pub struct AiArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Number of seats, when starting a new game (default: the fewest the game takes)
    #[arg(long)]
    seats: Option<usize>,
    /// Explain the position at the end of this replay or save file instead of a new game (its
    /// seats, seed, map and settings are the file's)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seats", "seed", "map", "settings"])]
    replay: Option<PathBuf>,
    #[arg(long, default_value = "ai", help = concat!("The bot: ", crate::bot_kinds!()))]
    bot: String,
    /// How many candidates to list
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// The seat whose answer to explain in an open simultaneous decision (default: the one
    /// asked first); the seats asked before it answer their first option, which it cannot see
    #[arg(long, value_name = "N")]
    seat: Option<usize>,
}

pub fn run(a: AiArgs) -> CmdResult {
    let mut game = position(&a.game, a.seats, a.replay.as_deref())?;
    let seat = Seat::parse_bot(&a.bot).map_err(|e| vec![Diagnostic::error("--bot", e)])?;
    Seat::check_all(std::slice::from_ref(&seat), &game)
        .map_err(|e| vec![Diagnostic::error("--bot", e)])?;
    let mut bot = seat
        .bot(game.config.seed, 0)
        .expect("parse_bot gives a bot");
    if game.pending().is_none() {
        return Err(vec![Diagnostic::error(
            "meeple ai",
            "the game is over: nothing to decide",
        )]);
    }
    if let Some(n) = a.seat {
        answer_until(&mut game, n).map_err(|e| vec![Diagnostic::error("--seat", e)])?;
    }
    let player = game.pending().map_or(0, |p| p.seat + 1);
    let choice = thinking(&format!("P{player} ({seat}) is thinking"), || {
        bot.explain(&mut game)
    })
    .map_err(|e| vec![e.into_diagnostic("meeple")])?;
    let options = game
        .pending()
        .map(|p| p.options().to_vec())
        .unwrap_or_default();
    let labels = game.shown(Some(player - 1)).labels;
    let candidates: Vec<_> = choice
        .ranked()
        .iter()
        .take(a.top)
        .map(|(i, score)| json!({ "option": options[*i].to_string(), "label": labels[*i], "score": score }))
        .collect();
    let out = json!({
        "game": game.pkg.id,
        "state": game.state_name(),
        "player": player,
        "bot": seat.to_string(),
        "chosen": options[choice.index].to_string(),
        "label": labels[choice.index],
        "candidates": candidates,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    Ok(0)
}

/// Answers the open simultaneous decision for the seats asked before seat `n` (from 1), each
/// with its first option, until `n` is asked; an error when `n` is not among those asked.
fn answer_until(game: &mut crate::engine::Game, n: usize) -> Result<(), String> {
    if n == 0 {
        return Err("seats count from 1".into());
    }
    loop {
        let p = game
            .pending()
            .ok_or("the game is over: nothing to decide")?;
        if p.seat + 1 == n {
            return Ok(());
        }
        if !p.waiting.contains(&(n - 1)) {
            let asked: Vec<String> = (p.waiting.iter()).map(|s| format!("P{}", s + 1)).collect();
            return Err(match asked.is_empty() {
                true => format!("P{n} is not asked now: P{} is", p.seat + 1),
                false => format!("P{n} is not asked now: {} are", asked.join(", ")),
            });
        }
        let (seat, option) = (p.seat, p.options()[0].clone());
        game.apply(seat, &option).map_err(|e| e.to_string())?;
    }
}
