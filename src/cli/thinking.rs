//! What the terminal shows while a bot thinks: nothing for a quick move, and after
//! `SHOW_AFTER` a spinner on stderr that says who thinks and counts the seconds until it has
//! chosen (a deep search can take minutes). Hidden when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How long a bot thinks before the spinner appears.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Runs `think` (a bot choosing) with a spinner saying "`what`…" (`P2 (mcts) is thinking`)
/// drawn on stderr once it has taken `SHOW_AFTER`; the spinner is cleared before this returns.
pub fn thinking<T>(what: &str, think: impl FnOnce() -> T) -> T {
    thinking_on(what, SHOW_AFTER, ProgressDrawTarget::stderr, think)
}

/// `thinking` with the delay and the place the spinner is drawn given.
pub fn thinking_on<T>(
    what: &str,
    after: Duration,
    target: impl FnOnce() -> ProgressDrawTarget + Send,
    think: impl FnOnce() -> T,
) -> T {
    let (done, wait) = mpsc::channel::<()>();
    let message = format!("{what}…");
    thread::scope(|scope| {
        scope.spawn(move || {
            // A message or a closed channel before the delay: the bot has chosen.
            if wait.recv_timeout(after) != Err(mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            // Its clock starts with the bot's, not when it first shows.
            let spinner = ProgressBar::with_draw_target(None, target()).with_elapsed(after);
            spinner.set_style(
                ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template"),
            );
            spinner.set_message(message);
            spinner.enable_steady_tick(Duration::from_millis(200));
            let _ = wait.recv();
            spinner.finish_and_clear();
        });
        let result = think();
        drop(done);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::InMemoryTerm;
    use std::sync::{Arc, Mutex};

    /// The contents of `term` at the moment `think` looks at it, and at the end.
    fn screens(after: Duration, think_for: Duration) -> (String, String) {
        let term = InMemoryTerm::new(4, 60);
        // `think` reads the screen while the spinner may be up; the end is read after.
        let seen = Arc::new(Mutex::new(String::new()));
        let (t, peek, s) = (term.clone(), term.clone(), seen.clone());
        let result = thinking_on(
            "P2 (alphabeta:8) is thinking",
            after,
            move || ProgressDrawTarget::term_like(Box::new(t)),
            move || {
                thread::sleep(think_for);
                *s.lock().unwrap() = peek.contents();
                7
            },
        );
        assert_eq!(result, 7);
        let during = seen.lock().unwrap().clone();
        (during, term.contents())
    }

    #[test]
    fn a_long_think_shows_who_is_thinking_and_clears_it_after() {
        let (during, at_end) = screens(Duration::from_millis(20), Duration::from_millis(600));
        assert!(
            during.contains("P2 (alphabeta:8) is thinking… 0s"),
            "shown: {during:?}"
        );
        assert_eq!(at_end, "");
    }

    #[test]
    fn a_quick_move_shows_nothing() {
        let (during, at_end) = screens(Duration::from_secs(5), Duration::from_millis(10));
        assert_eq!((during.as_str(), at_end.as_str()), ("", ""));
    }
}
