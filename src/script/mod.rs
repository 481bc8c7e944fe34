//! The Lua host (the only layer that names mlua): a sandboxed VM per running game, the `ctx`
//! API rules use to change the world, conversion of `G` to and from plain data, and calls into
//! the rules' hooks with instruction budgets and located, contextual errors.

pub mod api;
pub mod convert;
pub mod grid;
pub mod host;
pub mod melds;
mod rawboard;
mod rawdice;
mod rawgrid;
mod sync;
mod tiebreak;
pub mod watchdog;

pub use host::{Host, ScriptError};
