//! The `meeple` command line; every command lives in `meeple::cli`.

fn main() {
    std::process::exit(meeple::cli::main());
}
