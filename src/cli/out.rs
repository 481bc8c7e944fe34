//! The terminal game's standard output, kept apart from its life: when the reader of a pipe
//! goes away (`meeple play … | head`), a line that cannot be written marks the output gone
//! instead of ending the process, so the game ends as a quit would and still writes its replay.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static GONE: AtomicBool = AtomicBool::new(false);

/// The exit status of a game whose output went away (128 + SIGPIPE, as shells report it).
pub const STATUS: i32 = 141;

/// From now on a closed pipe is an error to write, not a signal that ends the process.
pub fn outlive_readers() {
    // SAFETY: sets the action of one signal; no handler runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Writes `text` to standard output (and flushes it, for a prompt without its line's end);
/// a failure marks the output gone.
pub fn write(text: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if out.write_fmt(text).and_then(|()| out.flush()).is_err() {
        GONE.store(true, Ordering::SeqCst);
    }
}

/// Whether a line could not be written: nobody reads the game any more.
pub fn gone() -> bool {
    GONE.load(Ordering::SeqCst)
}

/// `println!` for the terminal game.
macro_rules! say {
    () => { $crate::cli::out::write(format_args!("\n")) };
    ($($t:tt)*) => { $crate::cli::out::write(format_args!("{}\n", format_args!($($t)*))) };
}
pub(crate) use say;
