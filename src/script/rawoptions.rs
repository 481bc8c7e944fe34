//! What the driver does on every decision, as plain Lua C functions: check each options list
//! it asks and each option it plays, and rate options for a heuristic seat; and
//! `pile:counts(k)`, which card and tile rules ask on every decision. In Lua they cost more
//! than the rules' own work. A check returns its message (the driver stops the flow with
//! it); the counts raise theirs at the calling line.

use super::rawgrid::Msg;
use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};
use std::ffi::CStr;
use std::os::raw::c_int;

/// The natives the prelude and the driver are loaded with: `bad_option(o, i)`,
/// `check(list)`, `freeze(t)`, `hold(list, on)`, `put(t, k, v)`, `tied(…)`,
/// `counts(pile, k)` and `copy(t, meta, keys)`.
pub fn natives(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let calls: [(&str, ffi::lua_CFunction); 8] = [
        ("bad_option", bad_option),
        ("check", check),
        ("freeze", freeze),
        ("hold", hold),
        ("put", put),
        ("tied", tied),
        ("counts", counts),
        ("copy", copy),
    ];
    for (name, f) in calls {
        // SAFETY: each function keeps to the Lua stack protocol and raises only Lua errors.
        t.raw_set(name, unsafe { lua.create_c_function(f)? })?;
    }
    let colon = lua.create_function(|_, name: String| Ok(super::method::colon(Some(&name))))?;
    t.raw_set("colon", colon)?;
    Ok(t)
}

// `bad_option(o, i)` → the problem with option `o` (number `i` of its list, or
// R.random_move's move when `i` is nil), or nil: an option is a table whose first element is
// the verb (a string of one word) and whose other elements are numbers, strings or booleans.
// `check(list)` → nil when `list` is a valid options list, else the problem; a bare string
// option becomes {verb} in place. What is checked is the list as it is now: rules may change a
// list after returning it, and the driver checks on every ask. A checked option is read-only
// from then on (a write to it is an error at its line). Both are C
// written against Lua's table internals (vendor/lua-src/loptions.c): they run on every
// decision.
extern "C-unwind" {
    #[link_name = "meeple_bad_option"]
    fn bad_option(l: *mut lua_State) -> c_int;
    #[link_name = "meeple_check_options"]
    fn check(l: *mut lua_State) -> c_int;
    // `freeze(t)` → t, read-only from now on: every write to it calls its `__newindex`, and
    // a raw write fails (a flag the VM checks on each write's fast path).
    #[link_name = "meeple_freeze"]
    fn freeze(l: *mut lua_State) -> c_int;
    // `hold(list, on)`: while `on`, the list is read-only (the same flag): what a bot scores
    // cannot change under it.
    #[link_name = "meeple_hold"]
    fn hold(l: *mut lua_State) -> c_int;
    // `put(t, k, v)`: a raw write that a read-only table takes too (the runtime's own).
    #[link_name = "meeple_put"]
    fn put(l: *mut lua_State) -> c_int;
}

/// `tied(fixed, score, G, ctx, seat, list, tied, out)` → the best score, how many options
/// reach it (their indices in tied[1..n]) and whether `score` ran. Each option's score is
/// fixed[verb] when that is a number, else score(G, ctx, seat, option); it is also stored in
/// out[i] when `out` is a table. A score that is not a number (or is NaN) returns nil, the
/// option's index and the score instead, for the driver to name in its error.
unsafe extern "C-unwind" fn tied(l: *mut lua_State) -> c_int {
    const FIXED: c_int = 1;
    const SCORE: c_int = 2;
    const LIST: c_int = 6;
    const TIED: c_int = 7;
    const OUT: c_int = 8;
    ffi::lua_settop(l, 8);
    let has_fixed = ffi::lua_type(l, FIXED) == ffi::LUA_TTABLE;
    let has_out = ffi::lua_type(l, OUT) == ffi::LUA_TTABLE;
    let (mut best, mut n, mut ran) = (f64::NEG_INFINITY, 0, false);
    ffi::lua_pushnumber(l, best); // index 9: the best score as the rules gave it
    for i in 1..=ffi::lua_rawlen(l, LIST) as i64 {
        ffi::lua_rawgeti(l, LIST, i); // 10: the option
        let mut fixed = false;
        if has_fixed {
            ffi::lua_rawgeti(l, 10, 1);
            fixed = ffi::lua_rawget(l, FIXED) == ffi::LUA_TNUMBER; // 11: fixed[verb]
        }
        if !fixed {
            ffi::lua_settop(l, 10);
            for at in [SCORE, 3, 4, 5, 10] {
                ffi::lua_pushvalue(l, at);
            }
            ffi::lua_call(l, 4, 1); // 11: the score
            ran = true;
        }
        let mut number = 0;
        let s = ffi::lua_tonumberx(l, 11, &mut number);
        if ffi::lua_type(l, 11) != ffi::LUA_TNUMBER || s.is_nan() || number == 0 {
            ffi::lua_pushnil(l);
            ffi::lua_pushinteger(l, i);
            ffi::lua_pushvalue(l, 11);
            return 3;
        }
        if has_out {
            ffi::lua_pushvalue(l, 11);
            ffi::lua_rawseti(l, OUT, i);
        }
        if s > best {
            (best, n) = (s, 1);
            ffi::lua_copy(l, 11, 9);
        } else if s == best {
            n += 1;
        } else {
            ffi::lua_settop(l, 9);
            continue;
        }
        ffi::lua_pushinteger(l, i);
        ffi::lua_rawseti(l, TIED, n);
        ffi::lua_settop(l, 9);
    }
    ffi::lua_pushinteger(l, n);
    ffi::lua_pushboolean(l, ran as c_int);
    3
}

/// `pile:counts(k)` → a list of k counts, count c + 1 the copies of item code c in the pile
/// (codes outside 0..k are not counted).
unsafe extern "C-unwind" fn counts(l: *mut lua_State) -> c_int {
    ffi::lua_settop(l, 2);
    super::method::need_self(l);
    if ffi::lua_getfield(l, 1, c"list".as_ptr()) != ffi::LUA_TTABLE {
        raise(
            l,
            format_args!("counts: call it on a pile with a colon (pile:counts(...))"),
        );
    }
    let mut valid = 0;
    let k = ffi::lua_tointegerx(l, 2, &mut valid);
    if valid == 0 || k < 0 {
        ffi::luaL_tolstring(l, 2, std::ptr::null_mut());
        let got = CStr::from_ptr(ffi::lua_tolstring(l, -1, std::ptr::null_mut()));
        let got = Msg::of(got.to_string_lossy());
        raise(
            l,
            format_args!("counts: expected a whole number of at least 0, got {got}"),
        );
    }
    let k = k.min(i32::MAX as i64 / 2) as c_int;
    ffi::lua_createtable(l, k, 0);
    for c in 1..=k {
        ffi::lua_pushinteger(l, 0);
        ffi::lua_rawseti(l, 4, c as i64);
    }
    let n = ffi::lua_rawlen(l, 3) as i64;
    for i in 1..=n {
        ffi::lua_rawgeti(l, 3, i);
        let code = ffi::lua_tointegerx(l, -1, &mut valid);
        ffi::lua_settop(l, -2);
        if valid != 0 && (0..k as i64).contains(&code) {
            ffi::lua_rawgeti(l, 4, code + 1);
            let was = ffi::lua_tointeger(l, -1);
            ffi::lua_settop(l, -2);
            ffi::lua_pushinteger(l, was + 1);
            ffi::lua_rawseti(l, 4, code + 1);
        }
    }
    1
}

/// Raises `text` at the calling line.
unsafe fn raise(l: *mut lua_State, text: std::fmt::Arguments) -> ! {
    super::rawgrid::raise(l, Msg::of(text))
}

/// `copy(t, meta, keys)` → a new table with t's values at `keys` (a list), made at its size
/// at once, and `meta` as its metatable: `ctx:item`'s copy of an item, which rules ask for
/// in their logs and scores (built in Lua, it grew and rehashed on the way, and cost more than
/// the rules' own work around it).
unsafe extern "C-unwind" fn copy(l: *mut lua_State) -> c_int {
    ffi::lua_settop(l, 3);
    let n = ffi::lua_rawlen(l, 3) as i64;
    ffi::lua_createtable(l, 0, n.min(i32::MAX as i64) as c_int);
    for i in 1..=n {
        ffi::lua_rawgeti(l, 3, i);
        ffi::lua_pushvalue(l, -1);
        ffi::lua_rawget(l, 1);
        ffi::lua_rawset(l, 4);
    }
    ffi::lua_pushvalue(l, 2);
    ffi::lua_setmetatable(l, 4);
    1
}
