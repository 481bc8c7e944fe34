//! `ctx.dice:roll` and `ctx.dice:sum` as plain Lua C functions: the property game rolls on
//! every move. A roll is packed into its result table (or returned as plain values by `sum`)
//! here, in one call; the world is borrowed only while no Lua error can be raised. Errors are messages on the stack (`Msg`,
//! large on purpose): nothing is left to drop when Lua jumps away with one.
#![allow(clippy::result_large_err)]

use super::rawgrid::{c_closure, on_cell, raise, Msg};
use crate::core::dice::{doubles, parse_dice, roll_into, DiceSpec, MAX_DICE};
use crate::core::event::Event;
use crate::core::live::Live;
use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};
use std::cell::{Cell, RefCell};
use std::os::raw::c_int;
use std::rc::Rc;

/// Sets `roll` and `sum` on `ctx.dice`.
pub fn install(lua: &Lua, dice: &Table, world: &Rc<RefCell<Live>>) -> mlua::Result<()> {
    // The result's keys and metatable ride along as upvalues 2 to 4: no lookup per roll.
    let keys = [
        mlua::Value::String(lua.create_string("total")?),
        mlua::Value::String(lua.create_string("doubles")?),
        mlua::Value::Table(roll_metatable(lua)?),
    ];
    dice.raw_set("roll", c_closure(lua, world, roll, &keys)?)?;
    dice.raw_set("sum", c_closure(lua, world, sum, &[])?)
}

/// A roll's metatable: reading a field a roll lacks (`roll.double`) is an error at the reading
/// line naming the field meant, instead of a nil that reads as false, and so is a die that is
/// not there (`roll[0]`). The die just past the last reads nil, as `ipairs` needs.
fn roll_metatable(lua: &Lua) -> mlua::Result<Table> {
    let near = lua.create_function(|_, key: String| {
        Ok(crate::diag::did_you_mean(&key, ["total", "doubles"]).map(str::to_string))
    })?;
    let index: mlua::Function = lua
        .load(
            r#"local near = ...
            return function(roll, key)
              if type(key) == "number" then
                if key == #roll + 1 then return nil end
                error(string.format("a roll of %d %s has no die %s (%s)", #roll,
                  #roll == 1 and "die" or "dice", tostring(key),
                  #roll == 1 and "it is roll[1]" or string.format("they are roll[1] to roll[%d]", #roll)), 2)
              end
              if type(key) ~= "string" then return nil end
              local meant = near(key)
              error(string.format("a roll has no field '%s'%s (it has total, doubles and each "
                .. "die as roll[1], roll[2], ...)", key,
                meant and string.format("; did you mean '%s'?", meant) or ""), 2)
            end"#,
        )
        .set_name("=dice")
        .call(near)?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", index)?;
    Ok(meta)
}

/// The string argument `arg` as text, or a message naming `what` and the type found.
/// Numbers are taken as their text (as Lua's own string functions do).
unsafe fn text<'a>(l: *mut lua_State, arg: c_int, what: &str) -> Result<&'a str, Msg> {
    if ffi::lua_type(l, arg) != ffi::LUA_TSTRING && ffi::lua_type(l, arg) != ffi::LUA_TNUMBER {
        let found = std::ffi::CStr::from_ptr(ffi::luaL_typename(l, arg));
        return Err(Msg::of(format_args!(
            "{what}, got {}",
            found.to_string_lossy()
        )));
    }
    let mut len = 0;
    let ptr = ffi::lua_tolstring(l, arg, &mut len);
    let bytes = std::slice::from_raw_parts(ptr.cast::<u8>(), len);
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8 (the common case, checked faster than in full).
        return Ok(std::str::from_utf8_unchecked(bytes));
    }
    std::str::from_utf8(bytes).map_err(|_| Msg::of(format_args!("{what}, got invalid UTF-8")))
}

/// A spec's text of up to 8 bytes: its length and its bytes.
type SpecKey = (usize, [u8; 8]);

thread_local! {
    /// The last spec read and its parse: a game rolls the same spec again and again.
    static LAST_SPEC: Cell<Option<(SpecKey, DiceSpec)>> = const { Cell::new(None) };
}

/// `spec` parsed, or the last parse when `spec` is the text parsed last.
fn parsed(spec: &str) -> Result<DiceSpec, String> {
    let mut bytes = [0u8; 8];
    let Some(head) = bytes.get_mut(..spec.len()) else {
        return parse_dice(spec);
    };
    head.copy_from_slice(spec.as_bytes());
    let key = (spec.len(), bytes);
    match LAST_SPEC.get() {
        Some((last, parsed)) if last == key => Ok(parsed),
        _ => {
            let parsed = parse_dice(spec)?;
            LAST_SPEC.set(Some((key, parsed)));
            Ok(parsed)
        }
    }
}

/// Rolls the spec given as argument 2 into `faces`; returns how many dice and the total, or
/// raises the problem as a Lua error (a bad spec, or `what` and the type found).
unsafe fn roll_faces(l: *mut lua_State, faces: &mut [u32; MAX_DICE], what: &str) -> (usize, i64) {
    let rolled = text(l, 2, what).and_then(|spec| {
        on_cell(l, |w: &mut Live| {
            let parsed = parsed(spec).map_err(Msg::of)?;
            let faces = &mut faces[..parsed.count as usize];
            let total = roll_into(parsed, &mut w.rng, &mut w.forced_dice, faces);
            if w.record_events {
                w.log(Event::Dice {
                    seat: w.acting,
                    spec: spec.to_string(),
                    values: faces.to_vec(),
                    total,
                });
            }
            Ok((parsed.count as usize, total))
        })
    });
    match rolled {
        Ok(r) => r,
        Err(m) => raise(l, m),
    }
}

/// `ctx.dice:roll(spec)` → `{face, face, ..., total = n, doubles = bool}`.
unsafe extern "C-unwind" fn roll(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let mut faces = [0u32; MAX_DICE];
    let (count, total) = roll_faces(l, &mut faces, "ctx.dice:roll expects a spec like \"2d6\"");
    let faces = &faces[..count];
    // Faces and fields all in the hash part: one allocation less than an array part beside it.
    ffi::lua_createtable(l, 0, count as c_int + 2);
    for (i, face) in faces.iter().enumerate() {
        ffi::lua_pushinteger(l, *face as ffi::lua_Integer);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_pushvalue(l, ffi::lua_upvalueindex(2));
    ffi::lua_pushinteger(l, total);
    ffi::lua_rawset(l, -3);
    ffi::lua_pushvalue(l, ffi::lua_upvalueindex(3));
    ffi::lua_pushboolean(l, doubles(faces) as c_int);
    ffi::lua_rawset(l, -3);
    ffi::lua_pushvalue(l, ffi::lua_upvalueindex(4));
    ffi::lua_setmetatable(l, -2);
    1
}

/// `ctx.dice:sum(spec)` → `total, doubles, face, face, ...`: the same roll as `roll` without
/// a table to build (and collect) afterwards.
unsafe extern "C-unwind" fn sum(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    // Room for the most values a spec can give, made before the roll draws anything.
    ffi::luaL_checkstack(l, MAX_DICE as c_int + 2, std::ptr::null());
    let mut faces = [0u32; MAX_DICE];
    let (count, total) = roll_faces(l, &mut faces, "ctx.dice:sum expects a spec like \"2d6\"");
    let faces = &faces[..count];
    ffi::lua_pushinteger(l, total);
    ffi::lua_pushboolean(l, doubles(faces) as c_int);
    for face in faces {
        ffi::lua_pushinteger(l, *face as ffi::lua_Integer);
    }
    count as c_int + 2
}

#[cfg(test)]
mod tests {
    use super::*;

    // The remembered parse answers only the very text it was made from.
    #[test]
    fn the_last_parse_answers_only_its_own_text() {
        let spec = |count, sides, bonus| DiceSpec {
            count,
            sides,
            bonus,
        };
        for (text, want) in [
            ("2d6", spec(2, 6, 0)),
            ("2d6", spec(2, 6, 0)),
            ("2d8", spec(2, 8, 0)),
            ("2d6+1", spec(2, 6, 1)),
            ("2d6", spec(2, 6, 0)),
            ("100d6+1000", spec(100, 6, 1000)),
            ("2d6", spec(2, 6, 0)),
        ] {
            assert_eq!(parsed(text), Ok(want), "{text}");
        }
        assert!(parsed("2d6\0").is_err());
        assert_eq!(parsed("2d6"), Ok(spec(2, 6, 0)));
    }
}
