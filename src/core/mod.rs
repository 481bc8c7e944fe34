//! The pure runtime core: randomness, dice, decks, boards, the grid, zones, meld shapes, the
//! flow, actions, events, the world that holds them, and the `Rules` seam the engine talks to
//! the rules through. No I/O, no Lua, no window: tests and search drive it directly.

pub mod action;
pub mod board;
pub mod deck;
pub mod dice;
pub mod event;
pub mod flow;
pub mod grid;
pub mod laid;
pub mod live;
pub mod meld;
pub mod rng;
pub mod rules;
pub mod shanten;
pub mod world;
pub mod zone;
