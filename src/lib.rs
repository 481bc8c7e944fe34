//! meeple: a runtime for tabletop games whose rules are TOML data and Lua scripts.
//!
//! Layers, dependencies pointing down:
//! - `app` (the window: board renderers, HUD, input, animation; the only macroquad user)
//! - `cli` (terminal play and commands), `sim` (batch runs), `ai` (bots), `replay`
//! - `engine` (a running game: package + script host + world; the one `apply`)
//! - `script` (the Lua host: sandbox, budgets, `ctx` API, calls into rules)
//! - `def` (TOML files → validated `Package`)
//! - `core` (world, flow, rng, dice, decks, board, grid, zones, meld shapes, actions, events;
//!   pure Rust)
//! - `diag` (diagnostics shared by all layers)

pub mod ai;
pub mod app;
pub mod cli;
pub mod core;
pub mod def;
pub mod diag;
pub mod engine;
pub mod reload;
pub mod replay;
pub mod script;
pub mod session;
pub mod sim;

/// Every table, string and closure a script makes is an allocation (Lua allocates through
/// Rust's global allocator), so the allocator's speed is the scripts' speed: mimalloc plays
/// the property game's batch games 6% faster than the system allocator when measured. Set
/// here, in the library, so that the binary, the tests and the benches all run on it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
