//! The `meeple` command line; every command lives in `meeple::cli`.

fn main() {
    // Output piped into `head` and the like ends quietly when the reader goes away.
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(meeple::cli::main());
}
