//! Bots at the window: a bot's turn is asked of the worker thread and its answer played once
//! the animations are done (paced so people can follow); scripted runs play bots at once in
//! this thread; `W` asks the heuristic bot for advice on a person's turn.

use super::table::Table;
use super::worker::{Question, Thought};
use crate::ai::Seat;

/// Seconds between two bot moves, so people can follow.
const BOT_PACE: f64 = 0.35;

impl Table {
    /// Asks the heuristic bot what it would do for the seat to move (shown in the panel).
    pub fn advise(&mut self) {
        if !self.s.human_turn() {
            self.message = Some(self.not_your_turn());
            return;
        }
        self.ask(Some(Seat::Heuristic(None)));
        self.message = Some("asking the ai…".into());
    }

    fn ask(&mut self, advisor: Option<Seat>) {
        let Some(p) = self.s.game.pending() else {
            return;
        };
        let seat = p.seat;
        let Some(worker) = &self.worker else {
            return;
        };
        let snap = match self.s.game.snapshot() {
            Ok(snap) => snap,
            Err(e) => {
                self.message = Some(e.to_string());
                return;
            }
        };
        let asked = worker.ask(Question {
            id: self.generation,
            pkg: self.s.game.pkg.clone(),
            config: self.s.game.config.clone(),
            snap,
            seat,
            advisor,
        });
        match asked {
            true => self.asked = Some(self.generation),
            false => {
                self.message = Some(
                    "the bots have stopped thinking (their thread failed): restart to play on"
                        .into(),
                )
            }
        }
    }

    /// Bots: ask the worker about a bot's turn, play its answer when the animations are done.
    pub fn bots(&mut self, now: f64) {
        let Some(worker) = &self.worker else {
            return;
        };
        let mut answers = Vec::new();
        while let Ok(a) = worker.answers.try_recv() {
            answers.push(a);
        }
        for a in answers.into_iter().filter(|a| a.id == self.generation) {
            match a.result {
                Ok(t) if t.to_play => self.panel = Some(t),
                Ok(t) => {
                    self.message = Some(format!("{} would play: {}", t.who, t.label));
                    self.panel = Some(t);
                }
                Err(e) => self.message = Some(e),
            }
        }
        if let Some(index) = self.s.forced() {
            if let Err(e) = self.play_option(index, now) {
                self.message = Some(e);
            }
            return;
        }
        let bot_turn = self.s.game.pending().is_some() && !self.s.human_turn();
        if bot_turn && self.asked != Some(self.generation) {
            self.ask(None);
        }
        let ready = self
            .panel
            .as_ref()
            .filter(|t| t.to_play && self.asked == Some(self.generation))
            .filter(|t| self.s.game.pending().is_some_and(|p| p.seat == t.seat))
            .map(|t| t.action.clone());
        if let (Some(action), true) = (ready, bot_turn) {
            if self.anim.busy(now) || now < self.next_bot_move {
                return;
            }
            let seat = self.s.game.pending().map(|p| p.seat).unwrap_or(0);
            let played = self
                .s
                .game
                .check_action(seat, &action)
                .map_err(|e| e.to_string())
                .and_then(|i| self.play_option(i, now));
            if let Err(e) = played {
                self.message = Some(e);
            }
            self.next_bot_move = now + BOT_PACE;
        }
    }

    /// A person asked at once with others (a claim on a discard) has `--answer-seconds`, else
    /// the state's `seconds`, to answer; then the state's default answer is taken for them, as
    /// in the terminal.
    pub fn answer_clock(&mut self, now: f64) {
        let limit = (self.s.human_turn())
            .then(|| self.s.answer_limit())
            .flatten();
        let Some(limit) = limit else {
            (self.clock, self.clock_text) = (None, None);
            return;
        };
        let started = match self.clock {
            Some((generation, at)) if generation == self.generation => at,
            _ => {
                self.clock = Some((self.generation, now));
                now
            }
        };
        let left = limit.as_secs_f64() - (now - started);
        if left > 0.0 {
            let then = self.s.default_label();
            self.clock_text = Some(format!("{:.0} s to answer, then {then}", left.ceil()));
            return;
        }
        let default = self.s.default_option();
        let label = self.s.label(default);
        self.clock_text = None;
        self.message = Some(match self.play_option(default, now) {
            Ok(()) => format!("time is up: {label}"),
            Err(e) => e,
        });
    }

    /// Bots move at once, in this thread, until a person must decide (scripted runs).
    pub fn bots_now(&mut self, now: f64) -> Result<(), String> {
        while let Some(seat) = self.s.game.pending().map(|p| p.seat) {
            if let Some(index) = self.s.forced() {
                self.play_option(index, now)?;
                continue;
            }
            let Some(bot) = self.s.bots[seat].as_mut() else {
                return Ok(());
            };
            let choice = bot.explain(&mut self.s.game).map_err(|e| e.to_string())?;
            let who = self.s.seats[seat].to_string();
            self.panel = Some(Thought::new(&mut self.s.game, &choice, seat, who, true)?);
            self.play_option(choice.index, now)?;
        }
        Ok(())
    }
}
