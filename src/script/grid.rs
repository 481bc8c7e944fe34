//! `ctx.grid`: the cells of a grid map and the queries grid games need (lines through a cell
//! and their open ends, empty cells near stones), answered in Rust. Rows, columns and seats
//! count from 1; cell index `i` is `(row - 1) * cols + col`. The calls a playout makes on every
//! move are C functions (`rawgrid`).

use super::host::api_error;
use super::method::This;
use super::rawgrid::{cell, seat, Problem};
use crate::core::grid::GridState;
use crate::core::live::Live;
use mlua::{Lua, Table};
use std::cell::RefCell;
use std::rc::Rc;

type W = Rc<RefCell<Live>>;

/// Runs `f` on the grid, or fails with a clear error on a track map.
fn with_grid<R>(
    lua: &Lua,
    w: &W,
    f: impl FnOnce(&mut GridState) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let mut w = w.borrow_mut();
    match w.grid.as_mut() {
        Some(g) => f(g),
        None => Err(problem(lua, Problem::NotGrid)),
    }
}

/// A problem the C grid calls also report, as an error at the calling rules' line.
fn problem(lua: &Lua, p: Problem) -> mlua::Error {
    api_error(lua, p.to_string())
}

pub fn grid_api(lua: &Lua, world: &W, size: Option<(usize, usize)>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    if let Some((rows, cols)) = size {
        t.raw_set("rows", rows)?;
        t.raw_set("cols", cols)?;
    }
    let w = world.clone();
    t.raw_set(
        "empty_near",
        lua.create_function(move |lua, (_, d): (This, usize)| {
            with_grid(lua, &w, |g| {
                Ok(g.empty_near(d)
                    .into_iter()
                    .map(|i| i + 1)
                    .collect::<Vec<_>>())
            })
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "completing",
        lua.create_function(
            move |lua, (_, p, n, exact): (This, i64, usize, Option<bool>)| {
                let seats = w.borrow().seats;
                with_grid(lua, &w, |g| {
                    let who = seat(p, seats).map_err(|p| problem(lua, p))?;
                    Ok(g.completing(who, n, exact.unwrap_or(false))
                        .into_iter()
                        .map(|i| i + 1)
                        .collect::<Vec<_>>())
                })
            },
        )?,
    )?;
    let w = world.clone();
    t.raw_set(
        "has_neighbor",
        lua.create_function(move |lua, (_, r, c, d): (This, i64, i64, usize)| {
            with_grid(lua, &w, |g| {
                let (r, c) = cell(g, r, c).map_err(|p| problem(lua, p))?;
                Ok(g.has_neighbor(r, c, d))
            })
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "cells",
        lua.create_function(move |lua, _: This| with_grid(lua, &w, |g| Ok(g.cells.clone())))?,
    )?;
    super::rawgrid::install(lua, &t, world)?;
    Ok(t)
}
