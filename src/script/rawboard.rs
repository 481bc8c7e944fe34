//! `ctx.board:move(p, steps)`, the move of every dice roll, and `ctx.board:owned_by(p)`, which
//! rules ask on most decisions, as plain Lua C functions: in Lua they spent more on checking
//! arguments and on their own frames than on the work. They work on the live tables `S.token`
//! and `S.owned` (the board's other functions and the views stay in Lua, see the prelude) and
//! refuse a bad argument with the
//! messages the prelude's checks give, at the calling line. Errors are built on the Lua stack
//! (or by `raise`): nothing that needs dropping is held when Lua jumps away with one, and
//! nothing here can panic.

use super::rawgrid::seat as seat_in_range;
use super::rawgrid::{c_closure, raise};
use crate::core::live::Live;
use mlua::ffi::{self, lua_State};
use mlua::{Function, Lua, Table, Value};
use std::cell::RefCell;
use std::ffi::CStr;
use std::os::raw::c_int;
use std::rc::Rc;

/// The C function's upvalues after the world (1).
const TOKEN: c_int = 2; // S.token
const STATE: c_int = 3; // S, for its `record` flag
const RECORD: c_int = 4; // the string "record"
const EMIT: c_int = 5; // emit.move, which logs the move while events are recorded
const SIZES: c_int = 6; // the seats × 2^32 + the board's spaces
const OWNED: c_int = 7; // S.owned: each seat's owned spaces, in board order

/// Sets `move` and `owned_by` on `board` (ctx.board), over the live state `state` (S) of `seats` seats on a
/// board of `spaces` spaces (the sizes the prelude was given).
pub fn install(
    lua: &Lua,
    board: &Table,
    state: &Table,
    emit_move: Function,
    world: &Rc<RefCell<Live>>,
    (seats, spaces): (usize, usize),
) -> mlua::Result<()> {
    let upvalues = [
        Value::Table(state.raw_get("token")?),
        Value::Table(state.clone()),
        Value::String(lua.create_string("record")?),
        Value::Function(emit_move),
        Value::Integer(((seats as i64) << 32) | spaces as i64),
        Value::Table(state.raw_get("owned")?),
    ];
    board.raw_set("move", c_closure(lua, world, move_token, &upvalues)?)?;
    board.raw_set("owned_by", c_closure(lua, world, owned_by, &upvalues)?)
}

/// `ctx.board:owned_by(p)` → the indices of the spaces seat p owns, in board order: a copy of
/// the prelude's list for p, so the caller may change it.
unsafe extern "C-unwind" fn owned_by(l: *mut lua_State) -> c_int {
    let up = ffi::lua_upvalueindex;
    ffi::lua_settop(l, 2);
    let seats = ffi::lua_tointeger(l, up(SIZES)) >> 32;
    let p = seat(l, 2, seats);
    ffi::lua_rawgeti(l, up(OWNED), p);
    let n = ffi::lua_rawlen(l, 3) as ffi::lua_Integer;
    ffi::lua_createtable(l, n as c_int, 0);
    for i in 1..=n {
        ffi::lua_rawgeti(l, 3, i);
        ffi::lua_rawseti(l, 4, i);
    }
    1
}

/// `ctx.board:move(p, steps)` → the space reached and the laps passed going forward.
unsafe extern "C-unwind" fn move_token(l: *mut lua_State) -> c_int {
    let up = ffi::lua_upvalueindex;
    ffi::lua_settop(l, 3); // (an argument left out reads as nil, as in a Lua function)
    let sizes = ffi::lua_tointeger(l, up(SIZES));
    let (seats, spaces) = (sizes >> 32, sizes & 0xffff_ffff);
    let p = seat(l, 2, seats);
    let mut valid = 0;
    let n = ffi::lua_tointegerx(l, 3, &mut valid);
    if valid == 0 {
        raise_got(l, c"steps must be an integer, got ", 3, false);
    }
    if spaces == 0 {
        raise(
            l,
            "this map has no spaces to move on (a grid map has ctx.grid)",
        );
    }
    ffi::lua_rawgeti(l, up(TOKEN), p);
    let at = ffi::lua_tointeger(l, -1);
    ffi::lua_settop(l, -2);
    // (Lua's integer arithmetic wraps; its `//` and `%` round down, as these do for a
    // positive board size)
    let (mut to, mut laps) = (at.wrapping_add(n), 0);
    if to > spaces || to < 1 {
        let raw = to.wrapping_sub(1);
        if n > 0 {
            laps = raw.div_euclid(spaces);
        }
        to = raw.rem_euclid(spaces) + 1;
    }
    ffi::lua_pushinteger(l, to);
    ffi::lua_rawseti(l, up(TOKEN), p);
    if recording(l) {
        ffi::lua_pushvalue(l, up(EMIT));
        for v in [p, to, laps] {
            ffi::lua_pushinteger(l, v);
        }
        ffi::lua_call(l, 3, 0);
    }
    ffi::lua_pushinteger(l, to);
    ffi::lua_pushinteger(l, laps);
    2
}

/// Whether events are recorded: the world's flag, which S.record follows (read while the
/// world is borrowed elsewhere). The borrow ends before the caller calls back into Lua.
unsafe fn recording(l: *mut lua_State) -> bool {
    let up = ffi::lua_upvalueindex;
    let world = &*(ffi::lua_touserdata(l, up(1)) as *const RefCell<Live>);
    if let Ok(w) = world.try_borrow() {
        return w.record_events;
    }
    ffi::lua_pushvalue(l, up(RECORD));
    ffi::lua_rawget(l, up(STATE));
    let record = ffi::lua_toboolean(l, -1) != 0;
    ffi::lua_settop(l, -2);
    record
}

/// Argument `arg` as a seat number 1..=seats (a float with an integral value counts), or the
/// prelude's error for it.
unsafe fn seat(l: *mut lua_State, arg: c_int, seats: i64) -> i64 {
    let number = ffi::lua_type(l, arg) == ffi::LUA_TNUMBER;
    let mut valid = 0;
    let p = ffi::lua_tointegerx(l, arg, &mut valid);
    if !number || valid == 0 {
        raise_got(l, c"expected a seat number, got ", arg, !number);
    }
    if let Err(problem) = seat_in_range(p, seats as usize) {
        raise(l, problem);
    }
    p
}

/// Raises `prefix` followed by argument `arg` as `tostring` shows it (its type's name when
/// `kind`), at the calling line.
unsafe fn raise_got(l: *mut lua_State, prefix: &CStr, arg: c_int, kind: bool) -> ! {
    ffi::luaL_where(l, 1);
    ffi::lua_pushstring(l, prefix.as_ptr());
    if kind {
        ffi::lua_pushstring(l, ffi::luaL_typename(l, arg));
    } else {
        ffi::luaL_tolstring(l, arg, std::ptr::null_mut());
    }
    ffi::lua_concat(l, 3);
    ffi::lua_error(l)
}
