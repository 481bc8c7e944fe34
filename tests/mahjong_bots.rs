//! Mahjong bots: the Monte Carlo discard AI against a random player and an "isolated tile"
//! player over seeded games (the AI's seat rotates), the same decision from the same seed,
//! and a stable choice across sampling seeds at the seed's budget. Raise the number of games
//! with MEEPLE_BOT_GAMES (default 8).

mod common;
use common::*;
use meeple::ai::{play_decisions, play_out, Seat, MAX_DECISIONS};
use meeple::core::event::Outcome;
use meeple::engine::Game;

/// Games per match: MEEPLE_BOT_GAMES, default 8.
fn games() -> u64 {
    games_from_env("MEEPLE_BOT_GAMES", 8)
}

/// Wins of the AI and of all its opponents together, the AI sitting at seat `game % 4`.
fn match_up(opponent: &str) -> (usize, usize) {
    let (mut ai, mut others) = (0, 0);
    for seed in 0..games() {
        let me = seed as usize % 4;
        let mut g = start("mahjong", "table", 4, seed, &["ai_trials=100"]);
        g.set_record_events(false);
        let mut bots: Vec<_> = (0..4)
            .map(|s| {
                let kind = if s == me { "ai" } else { opponent };
                Seat::parse(kind).unwrap().bot(seed, s)
            })
            .collect();
        play_out(&mut g, &mut bots, MAX_DECISIONS).unwrap();
        if let Some(Outcome::Won { winners }) = g.outcome() {
            if winners.contains(&me) {
                ai += 1;
            } else {
                others += 1;
            }
        }
        println!("seed {seed}: AI at P{}, {:?}", me + 1, g.outcome());
    }
    (ai, others)
}

#[test]
fn the_monte_carlo_ai_beats_random_players() {
    let (ai, others) = match_up("random");
    println!("ai {ai} wins, three random players {others}");
    assert!(ai > others, "ai {ai} vs random {others}");
}

#[test]
fn the_monte_carlo_ai_beats_isolated_tile_players() {
    let (ai, others) = match_up("ai:isolated");
    println!("ai {ai} wins, three isolated-tile players {others}");
    assert!(ai > others, "ai {ai} vs isolated {others}");
}

/// A discard decision in a four-player game (seed 11, after 12 decisions).
fn position(trials: u32) -> Game {
    let mut g = start("mahjong", "table", 4, 11, &[&format!("ai_trials={trials}")]);
    let mut bots: Vec<_> = (0..4).map(|s| Seat::Heuristic(None).bot(11, s)).collect();
    assert_eq!(play_decisions(&mut g, &mut bots, 12).unwrap(), 12);
    assert_eq!(g.state_name(), "turn");
    g
}

#[test]
fn the_same_seed_makes_the_same_decision() {
    let (mut a, mut b) = (position(100), position(100));
    let ca = Seat::Heuristic(None)
        .bot(3, 0)
        .unwrap()
        .explain(&mut a)
        .unwrap();
    let cb = Seat::Heuristic(None)
        .bot(3, 0)
        .unwrap()
        .explain(&mut b)
        .unwrap();
    assert_eq!(ca, cb);
    assert!(ca.candidates.len() > 1);
}

#[test]
fn the_discard_is_stable_across_sampling_seeds_at_500_trials() {
    let mut g = position(500);
    let mut picks: Vec<String> = (0..20)
        .map(|seed| {
            let i = Seat::Heuristic(None)
                .bot(seed, 0)
                .unwrap()
                .choose(&mut g)
                .unwrap()
                .index;
            g.shown(Some(0)).labels[i].clone()
        })
        .collect();
    picks.sort();
    let top = picks
        .chunk_by(|a, b| a == b)
        .map(|c| (c.len(), c[0].clone()))
        .max()
        .unwrap();
    println!("picks: {picks:?}");
    assert!(top.0 >= 18, "{} of 20 chose {}: {picks:?}", top.0, top.1);
}
