//! Input for `meeple play`: typed lines and reload requests arrive on one channel, so a saved
//! file reloads the rules while the game waits at a prompt or while bots play. `reload` applies
//! a request to the session and says on one line what happened.

use super::out::say;
use crate::reload::watch::WatchHandle;
use crate::reload::{ReloadRequest, Watcher};
use crate::session::{interrupt, Reloaded, Session};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a wait for input looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(100);

enum Msg {
    Line(String),
    Closed,
    Reload(ReloadRequest),
}

/// What the player did next.
pub enum Input {
    Line(String),
    Reload(ReloadRequest),
    /// Nothing arrived within the time given.
    TimedOut,
    /// Ctrl-C was pressed.
    Interrupted,
}

/// The lines typed on `input`, up to its end or a read error. A line that is not UTF-8 is
/// read with U+FFFD for its bad bytes (then refused as an option would be), not taken for the
/// end of the input.
pub fn typed_lines(input: impl BufRead) -> impl Iterator<Item = String> {
    input.split(b'\n').map_while(Result::ok).map(|bytes| {
        let mut line = String::from_utf8_lossy(&bytes).into_owned();
        if line.ends_with('\r') {
            line.pop();
        }
        line
    })
}

pub struct Inputs {
    rx: Receiver<Msg>,
    queued: VecDeque<String>,
    closed: bool,
    _watching: Option<WatchHandle>,
}

impl Inputs {
    /// Reads standard input on a thread; with a watcher, its requests join the same channel.
    pub fn new(watcher: Option<Watcher>) -> Inputs {
        let (tx, rx) = channel();
        let lines = tx.clone();
        std::thread::spawn(move || {
            for line in typed_lines(std::io::stdin().lock()) {
                if lines.send(Msg::Line(line)).is_err() {
                    return;
                }
            }
            let _ = lines.send(Msg::Closed);
        });
        let watching = watcher.map(|w| {
            let (handle, requests) = w.split();
            std::thread::spawn(move || {
                for r in requests {
                    if tx.send(Msg::Reload(r)).is_err() {
                        return;
                    }
                }
            });
            handle
        });
        Inputs {
            rx,
            queued: VecDeque::new(),
            closed: false,
            _watching: watching,
        }
    }

    /// Reload requests that have arrived; lines typed meanwhile are kept for later.
    pub fn reloads(&mut self) -> Vec<ReloadRequest> {
        let mut out = Vec::new();
        while let Ok(msg) = self.rx.try_recv() {
            match msg {
                Msg::Reload(r) => out.push(r),
                Msg::Line(l) => self.queued.push_back(l),
                Msg::Closed => self.closed = true,
            }
        }
        out
    }

    /// The next typed line, or a reload request that came first, or `TimedOut` after `limit`,
    /// or `Interrupted` as soon as Ctrl-C is pressed; `None` once input is closed.
    pub fn next(&mut self, limit: Option<Duration>) -> Option<Input> {
        if let Some(l) = self.queued.pop_front() {
            return Some(Input::Line(l));
        }
        if self.closed {
            return None;
        }
        // A limit too far to reach is no limit.
        let deadline = limit.and_then(|d| Instant::now().checked_add(d));
        let msg = loop {
            if interrupt::asked() {
                return Some(Input::Interrupted);
            }
            let wait = deadline.map_or(POLL, |d| d.saturating_duration_since(Instant::now()));
            match self.rx.recv_timeout(wait.min(POLL)) {
                Ok(m) => break m,
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) if deadline.is_some_and(|d| Instant::now() >= d) => {
                    return Some(Input::TimedOut)
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        match msg {
            Msg::Line(l) => Some(Input::Line(l)),
            Msg::Reload(r) => Some(Input::Reload(r)),
            Msg::Closed => None,
        }
    }
}

/// Reloads the session's rules and says what happened: on success one line (and, when new,
/// how the game so far would differ under the new rules); on failure that the last good rules
/// keep running, and every diagnostic. True when the rules changed.
pub fn reload(s: &mut Session, request: &ReloadRequest) -> bool {
    match s.reload(request) {
        Reloaded::Done { said, differs } => {
            say!("{said}");
            if let Some(d) = differs {
                say!("  under the new rules this game would differ: {d}");
            }
            true
        }
        Reloaded::Failed { said, diags } => {
            say!("{said}");
            say!("{}", crate::diag::render(&diags));
            false
        }
    }
}
