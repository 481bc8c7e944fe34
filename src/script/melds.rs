//! `ctx.melds`: the meld-shape primitive for tile and card games, over counts arrays (index
//! `code + 1` holds how many of item `code`). Declared in game.toml `[melds]`; absent there,
//! every call says so.

use super::host::api_error;
use super::method::This;
use crate::core::meld::Shapes;
use crate::core::shanten::Shanten;
use mlua::{ffi, Lua, Table, Value};
use std::cell::RefCell;
use std::rc::Rc;

pub fn melds_api(lua: &Lua, shapes: Option<&Shapes>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let Some(shapes) = shapes.cloned() else {
        let missing = lua.create_function(|lua, _: mlua::MultiValue| -> mlua::Result<()> {
            Err(api_error(
                lua,
                "ctx.melds needs a [melds] table in game.toml (kinds = N, runs = [[lo, hi], ...])"
                    .into(),
            ))
        })?;
        for name in ["complete", "contains", "shanten", "distance"] {
            t.raw_set(name, missing.clone())?;
        }
        return Ok(t);
    };
    let shapes = Rc::new(shapes);
    let s = shapes.clone();
    t.raw_set(
        "complete",
        lua.create_function(move |lua, (_, c, g): (This, Table, i64)| {
            Ok(s.complete(&counts(lua, &s, &c)?, groups(lua, g)?))
        })?,
    )?;
    let s = shapes.clone();
    t.raw_set(
        "contains",
        lua.create_function(move |lua, (_, c, g): (This, Table, i64)| {
            Ok(s.contains(&counts(lua, &s, &c)?, groups(lua, g)?))
        })?,
    )?;
    // One cache of suit readings per VM, shared by shanten and distance.
    let cache = Rc::new(RefCell::new(Shanten::new(&shapes)));
    let (s, memo) = (shapes.clone(), cache.clone());
    t.raw_set(
        "shanten",
        lua.create_function(move |lua, (_, c, g): (This, Table, i64)| {
            let c = counts(lua, &s, &c)?;
            Ok(memo.borrow_mut().of(&s, &c, groups(lua, g)?))
        })?,
    )?;
    let s = shapes;
    t.raw_set(
        "distance",
        lua.create_function(move |lua, (_, c, draws, g): (This, Table, Table, i64)| {
            let c = counts(lua, &s, &c)?;
            let draws: Vec<i64> = draws.sequence_values().collect::<mlua::Result<_>>()?;
            Ok(s.distance(&c, &draws, groups(lua, g)?, &mut cache.borrow_mut()))
        })?,
    )?;
    Ok(t)
}

fn groups(lua: &Lua, g: i64) -> mlua::Result<usize> {
    if !(0..=8).contains(&g) {
        return Err(api_error(
            lua,
            format!("melds: groups must be 0..8, got {g}"),
        ));
    }
    Ok(g as usize)
}

/// Reads a counts array of exactly `kinds` entries, each 0..=255 (a missing entry counts 0).
/// Read on the Lua stack in one call: a bot reads hands on every decision.
fn counts(lua: &Lua, s: &Shapes, t: &Table) -> mlua::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(s.kinds);
    let mut bad = None;
    // SAFETY: only reads the table passed as the one argument.
    unsafe {
        lua.exec_raw::<()>(t, |l| {
            for i in 1..=s.kinds {
                let kind = ffi::lua_rawgeti(l, 1, i as i64);
                let mut valid = 0;
                let n = ffi::lua_tointegerx(l, -1, &mut valid);
                ffi::lua_settop(l, 1);
                match kind {
                    ffi::LUA_TNIL => out.push(0),
                    ffi::LUA_TNUMBER if valid != 0 && (0..=255).contains(&n) => out.push(n as u8),
                    _ => {
                        bad = Some((i, kind, n, valid != 0));
                        return;
                    }
                }
            }
        })?;
    }
    let Some((i, kind, n, integral)) = bad else {
        return Ok(out);
    };
    let shown = match kind {
        ffi::LUA_TNUMBER if integral => n.to_string(),
        ffi::LUA_TNUMBER => t.raw_get::<f64>(i)?.to_string(),
        _ => t.raw_get::<Value>(i)?.type_name().to_string(),
    };
    Err(api_error(
        lua,
        format!("melds: counts[{i}] must be a count 0..255, got {shown}"),
    ))
}
