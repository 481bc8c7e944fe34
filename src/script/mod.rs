//! The Lua host (the only layer that names mlua): a sandboxed VM per running game, the `ctx`
//! API rules use to change a position, the one flow driver (`driver.lua`), conversion of `G`
//! to and from plain data, and calls into the rules' hooks with instruction budgets and
//! located, contextual errors. `Host` is the engine's `Rules` (`rules.rs`).

pub mod api;
pub mod convert;
pub mod grid;
pub mod host;
mod keys;
pub mod luaapi;
pub mod luatypes;
pub mod melds;
mod method;
pub mod profile;
mod rawboard;
mod rawdice;
mod rawgrid;
mod rawoptions;
pub mod rules;
mod sync;
mod tiebreak;
pub mod watchdog;

pub use host::Host;
