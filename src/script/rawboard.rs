//! The board calls rules make on most decisions as plain Lua C functions: `move`, `owned_by`,
//! `group_owned` and `group_levels`, over the live tables of S (the board's other functions
//! stay in the prelude). A bad argument gets the prelude's own message at the calling line;
//! errors are built on the Lua stack (or by `raise`), so nothing needing a drop is held when
//! Lua jumps away, and nothing here can panic.

use super::rawgrid::seat as seat_in_range;
use super::rawgrid::{c_closure, raise, Msg};
use crate::core::live::Live;
use mlua::ffi::{self, lua_State};
use mlua::{Function, Lua, Table, Value};
use std::cell::RefCell;
use std::ffi::CStr;
use std::os::raw::c_int;
use std::rc::Rc;

/// The C functions' upvalues after the first, which points at the world (`move`, `owned_by`)
/// or at each space's group (`group_owned`, `group_levels`).
const TOKEN: c_int = 2; // S.token
const STATE: c_int = 3; // S, for its `record` flag
const RECORD: c_int = 4; // the string "record"
const EMIT: c_int = 5; // emit.move, which logs the move while events are recorded
const SIZES: c_int = 6; // the seats × 2^32 + the board's spaces
const OWNED: c_int = 7; // S.owned: each seat's owned spaces, in board order
const BY_ID: c_int = 8; // ctx.board.by_id
const OWNER: c_int = 9; // S.owner
const LEVEL: c_int = 10; // S.level
const LINE: c_int = 11; // true when the track does not loop (`loop = false`)

/// Each space's group: the indices of its spaces in board order, by space index - 1 (a space
/// without a group is a group of its own).
type Groups = Vec<Vec<i64>>;

/// Sets the C functions on `board` (ctx.board), over the live state `state` (S) of `seats`
/// seats on a board of `spaces` spaces (the sizes the prelude was given), a loop unless
/// `line`.
pub fn install(
    lua: &Lua,
    board: &Table,
    state: &Table,
    emit_move: Function,
    world: &Rc<RefCell<Live>>,
    (seats, spaces, line): (usize, usize, bool),
) -> mlua::Result<()> {
    let upvalues = [
        Value::Table(state.raw_get("token")?),
        Value::Table(state.clone()),
        Value::String(lua.create_string("record")?),
        Value::Function(emit_move),
        Value::Integer(((seats as i64) << 32) | spaces as i64),
        Value::Table(state.raw_get("owned")?),
        Value::Table(board.raw_get("by_id")?),
        Value::Table(state.raw_get("owner")?),
        Value::Table(state.raw_get("level")?),
        Value::Boolean(line),
    ];
    board.raw_set("move", c_closure(lua, world, move_token, &upvalues)?)?;
    board.raw_set("owned_by", c_closure(lua, world, owned_by, &upvalues)?)?;
    let groups = Rc::new(groups_of(board, spaces)?);
    board.raw_set(
        "group_owned",
        c_closure(lua, &groups, group_owned, &upvalues)?,
    )?;
    board.raw_set(
        "group_levels",
        c_closure(lua, &groups, group_levels, &upvalues)?,
    )?;
    if spaces == 0 {
        // SAFETY: no_spaces only raises, through the C API.
        let stub = unsafe { lua.create_c_function(no_spaces)? };
        let pairs = board
            .pairs::<Value, Value>()
            .collect::<mlua::Result<Vec<_>>>()?;
        for (name, _) in pairs.into_iter().filter(|(_, f)| f.is_function()) {
            board.raw_set(name, &stub)?;
        }
    }
    Ok(())
}

/// The string keys of the table at `t` (the board's space ids). Raises nothing.
unsafe fn keys(l: *mut lua_State, t: c_int) -> Vec<String> {
    let mut out = Vec::new();
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, t) != 0 {
        if ffi::lua_type(l, -2) == ffi::LUA_TSTRING {
            let mut n = 0;
            let k = ffi::lua_tolstring(l, -2, &mut n).cast::<u8>();
            out.push(String::from_utf8_lossy(std::slice::from_raw_parts(k, n)).into_owned());
        }
        ffi::lua_settop(l, -2);
    }
    out
}

/// Every `ctx.board` function on a map with no spaces (a grid or a table).
unsafe extern "C-unwind" fn no_spaces(l: *mut lua_State) -> c_int {
    raise(
        l,
        "this map has no spaces: ctx.board needs a track map (kind = \"track\")",
    )
}

/// Each space's group, read from the board's static tables.
fn groups_of(board: &Table, spaces: usize) -> mlua::Result<Groups> {
    let (list, groups): (Table, Table) = (board.raw_get("spaces")?, board.raw_get("groups")?);
    (1..=spaces)
        .map(|i| {
            match list
                .raw_get::<Table>(i)?
                .raw_get::<Option<String>>("group")?
            {
                Some(g) => (groups.raw_get::<Table>(g)?.sequence_values::<Table>())
                    .map(|member| member?.raw_get("index"))
                    .collect(),
                None => Ok(vec![i as i64]),
            }
        })
        .collect()
}

/// The spaces of space i's group (1-based indices), from the closure's first upvalue.
unsafe fn group_of<'a>(l: *mut lua_State, i: i64) -> &'a [i64] {
    let groups = &*(ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)) as *const Groups);
    &groups[i as usize - 1]
}

/// `ctx.board:group_owned(sp, p)` → how many spaces of sp's group seat p owns.
unsafe extern "C-unwind" fn group_owned(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let up = ffi::lua_upvalueindex;
    ffi::lua_settop(l, 3);
    let sizes = ffi::lua_tointeger(l, up(SIZES));
    let i = space(l, 2, sizes & 0xffff_ffff);
    let p = seat(l, 3, sizes >> 32);
    let mut n = 0;
    for &member in group_of(l, i) {
        ffi::lua_rawgeti(l, up(OWNER), member);
        n += (ffi::lua_tointeger(l, -1) == p) as ffi::lua_Integer;
        ffi::lua_settop(l, 3);
    }
    ffi::lua_pushinteger(l, n);
    1
}

/// `ctx.board:group_levels(sp)` → the lowest and the highest level in sp's group.
unsafe extern "C-unwind" fn group_levels(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let up = ffi::lua_upvalueindex;
    ffi::lua_settop(l, 2);
    let i = space(l, 2, ffi::lua_tointeger(l, up(SIZES)) & 0xffff_ffff);
    let (mut lowest, mut highest) = (ffi::lua_Integer::MAX, ffi::lua_Integer::MIN);
    for &member in group_of(l, i) {
        ffi::lua_rawgeti(l, up(LEVEL), member);
        let level = ffi::lua_tointeger(l, -1);
        ffi::lua_settop(l, 2);
        (lowest, highest) = (lowest.min(level), highest.max(level));
    }
    ffi::lua_pushinteger(l, lowest);
    ffi::lua_pushinteger(l, highest);
    2
}

/// Argument `arg` as a space index 1..=spaces: an index (a float with an integral value
/// counts) or a space id; else the prelude's error for it.
unsafe fn space(l: *mut lua_State, arg: c_int, spaces: i64) -> i64 {
    match ffi::lua_type(l, arg) {
        ffi::LUA_TNUMBER => index(l, arg, spaces),
        ffi::LUA_TSTRING => {
            ffi::lua_pushvalue(l, arg);
            if ffi::lua_rawget(l, ffi::lua_upvalueindex(BY_ID)) == ffi::LUA_TTABLE {
                // (the space's index, checked: rules can write into the board's tables)
                ffi::lua_pushstring(l, c"index".as_ptr());
                let at = ffi::lua_gettop(l) - 1;
                let i = match ffi::lua_rawget(l, at) {
                    ffi::LUA_TNUMBER => index(l, at + 1, spaces),
                    _ => raise_got(l, c"expected a space index or id, got ", at + 1, true),
                };
                ffi::lua_settop(l, -3);
                return i;
            }
            let mut n = 0;
            let id = ffi::lua_tolstring(l, arg, &mut n).cast::<u8>();
            let id = std::str::from_utf8(std::slice::from_raw_parts(id, n)).unwrap_or("?");
            // The ids and the hint are dropped before the error jumps away.
            let msg = {
                let ids = keys(l, ffi::lua_upvalueindex(BY_ID));
                let hint = crate::diag::hint(id, ids.iter().map(String::as_str));
                Msg::of(format_args!("no space '{id}' on this board{hint}"))
            };
            raise(l, msg)
        }
        _ => raise_got(l, c"expected a space index or id, got ", arg, true),
    }
}

/// The number at `at` as a space index 1..=spaces, or the prelude's error for it.
unsafe fn index(l: *mut lua_State, at: c_int, spaces: i64) -> i64 {
    let mut valid = 0;
    let i = ffi::lua_tointegerx(l, at, &mut valid);
    if valid != 0 && (1..=spaces).contains(&i) {
        return i;
    }
    if ffi::lua_isinteger(l, at) != 0 {
        raise(l, format_args!("space {i} out of range (1..{spaces})"));
    }
    raise(l, "expected a space index or id, got float")
}

/// `ctx.board:owned_by(p)` → the indices of the spaces seat p owns, in board order: a copy of
/// the prelude's list for p, so the caller may change it.
unsafe extern "C-unwind" fn owned_by(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
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

/// `ctx.board:move(p, steps)` → the space reached, the laps passed going forward and, on a
/// track that does not loop, the steps that went past its end (or its start), where the
/// token stopped.
unsafe extern "C-unwind" fn move_token(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
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
    ffi::lua_rawgeti(l, up(TOKEN), p);
    let at = ffi::lua_tointeger(l, -1);
    ffi::lua_settop(l, -2);
    // (Lua's integer arithmetic wraps; its `//` and `%` round down, as these do for a
    // positive board size)
    let line = ffi::lua_toboolean(l, up(LINE)) != 0;
    let (mut to, mut laps, mut over) = (at.wrapping_add(n), 0, 0);
    if line {
        let far = at.saturating_add(n);
        to = far.clamp(1, spaces);
        over = far.abs_diff(to).min(i64::MAX as u64) as i64;
    } else if to > spaces || to < 1 {
        let raw = to.wrapping_sub(1);
        if n > 0 {
            laps = raw.div_euclid(spaces);
        }
        to = raw.rem_euclid(spaces) + 1;
    }
    ffi::lua_pushinteger(l, to);
    ffi::lua_rawseti(l, up(TOKEN), p);
    // A move of no steps is no move, nor one that stays at a line's end: nothing is logged.
    if n != 0 && !(line && to == at) && recording(l) {
        ffi::lua_pushvalue(l, up(EMIT));
        for v in [p, to, laps] {
            ffi::lua_pushinteger(l, v);
        }
        ffi::lua_call(l, 3, 0);
    }
    ffi::lua_pushinteger(l, to);
    ffi::lua_pushinteger(l, laps);
    ffi::lua_pushinteger(l, over);
    3
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
