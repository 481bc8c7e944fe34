//! Live reload: a watcher thread that turns file saves into debounced reload requests, and the
//! checks that decide whether a running game can move to the edited rules (`remap`). The swap
//! itself is `Game::try_reload`: a fresh package and VM, validated, swapped only on success.

pub mod remap;
pub mod watch;

pub use watch::{ReloadRequest, Watcher};
