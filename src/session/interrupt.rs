//! Ctrl-C as a request to stop: the first press asks the running session to end as a quit
//! would (writing its record), wherever it is (at the prompt, in a bots-only game, in the
//! window); a second press ends the process at once.

use std::sync::atomic::{AtomicU32, Ordering};

static PRESSED: AtomicU32 = AtomicU32::new(0);

/// The exit status of a session that Ctrl-C ended (128 + SIGINT, as shells report it).
pub const STATUS: i32 = 130;

/// Takes Ctrl-C from now on (once per process; later calls change nothing).
pub fn watch() {
    let _ = ctrlc::set_handler(|| {
        if PRESSED.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(STATUS);
        }
    });
}

/// Whether Ctrl-C was pressed.
pub fn asked() -> bool {
    PRESSED.load(Ordering::SeqCst) > 0
}
