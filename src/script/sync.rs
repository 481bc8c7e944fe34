//! The components that live in the Lua table `S` (turn order, tokens, owners, levels,
//! counters, zones, tallies, the decisions played), written from a snapshot's world and read
//! into one, each way in one raw pass inside one protected call (`sim` starts and ends
//! thousands of games a second); a write also puts the flow's fields there. `S` is their one
//! live copy; nothing in Rust mirrors it. The prelude fills S's tables in place, so reading
//! allocates nothing in the VM.

use crate::core::world::World;
use crate::core::zone::ZoneSpec;
use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table, Value};
use std::collections::BTreeMap;
use std::ffi::CStr;
use std::os::raw::c_int;

/// S's index on the stack of the protected call.
const S: c_int = 1;

/// The flow's fields of a position: its state's name, whether that state's enter hook has
/// run, and its open claim (a table, or nil).
pub struct Flow<'a> {
    pub state: &'a str,
    pub entered: bool,
    pub claim: Value,
}

/// Writes `w`'s Lua-kept components into S, and `flow` with nothing pending when given (a
/// start or a restore; without it, the flow stays as it is).
pub fn push(lua: &Lua, state: &Table, w: &World, flow: Option<Flow>) -> mlua::Result<()> {
    let (fields, claim) = match flow {
        Some(f) => (Some((f.state, f.entered)), f.claim),
        None => (None, Value::Nil),
    };
    // SAFETY: the closure runs protected with S at index 1 and the claim at 2, and holds
    // only references, so a memory error unwinding past it skips no destructor.
    unsafe {
        lua.exec_raw::<()>((state, claim), |l| {
            push_raw(l, w);
            if let Some((name, entered)) = fields {
                push_flow(l, name, entered, w.outcome.is_some());
            }
        })
    }
}

/// S's flow fields; the claim is at index 2.
unsafe fn push_flow(l: *mut lua_State, state: &str, entered: bool, over: bool) {
    ffi::lua_pushlstring(l, state.as_ptr().cast(), state.len());
    ffi::lua_setfield(l, S, c"state".as_ptr());
    ffi::lua_pushvalue(l, 2);
    ffi::lua_setfield(l, S, c"claim".as_ptr());
    for (name, on) in [(c"entered", entered), (c"over", over)] {
        ffi::lua_pushboolean(l, on as c_int);
        ffi::lua_setfield(l, S, name.as_ptr());
    }
    for name in [c"pending", c"pending_seat"] {
        ffi::lua_pushnil(l);
        ffi::lua_setfield(l, S, name.as_ptr());
    }
}

/// Reads S's components into `w` (sized for the game: its owners, levels and zones are filled
/// in place). A value S should never hold (a rules line that wrote into a pile's list, say)
/// is an error naming it, never a panic inside the VM.
/// `zones` name the piles and `kinds` bounds an item code (0: the game names no items).
pub fn pull(
    lua: &Lua,
    state: &Table,
    w: &mut World,
    zones: &[ZoneSpec],
    kinds: usize,
) -> mlua::Result<()> {
    let mut read = Ok(());
    // SAFETY: as `push`; after the tables are on the stack (the only step that looks keys
    // up) the reads below raise nothing, so the vectors built meanwhile are always dropped.
    unsafe { lua.exec_raw::<()>(state, |l| read = pull_raw(l, w, zones, kinds))? };
    read.map_err(mlua::Error::RuntimeError)
}

unsafe fn push_raw(l: *mut lua_State, w: &World) {
    ffi::luaL_checkstack(l, 8, std::ptr::null());
    set_int(l, c"current", w.current as i64 + 1);
    set_int(l, c"turn", w.turn as i64);
    set_int(l, c"round", w.round as i64);
    set_int(l, c"decisions", w.decisions as i64);
    with_field(l, c"in_play", |l, t| {
        for (i, p) in w.in_play.iter().enumerate() {
            ffi::lua_pushboolean(l, *p as c_int);
            ffi::lua_rawseti(l, t, i as ffi::lua_Integer + 1);
        }
    });
    // The turn order's successors and the count of seats in play follow in_play.
    ffi::lua_getfield(l, S, c"seated".as_ptr());
    ffi::lua_call(l, 0, 0);
    let tokens = w.board.tokens.iter().map(|t| Some(*t as i64 + 1));
    with_field(l, c"token", |l, t| set_all(l, t, tokens));
    let owners = w.board.owners.iter().map(|o| o.map(|p| p as i64 + 1));
    with_field(l, c"owner", |l, t| set_all(l, t, owners));
    // Each seat's list of owned spaces follows the owners.
    ffi::lua_getfield(l, S, c"owners_set".as_ptr());
    ffi::lua_call(l, 0, 0);
    let levels = w.board.levels.iter().map(|v| Some(*v));
    with_field(l, c"level", |l, t| set_all(l, t, levels));
    with_field(l, c"counter", |l, t| {
        for (c, values) in w.counters.iter().enumerate() {
            ffi::lua_rawgeti(l, t, c as ffi::lua_Integer + 1);
            set_all(l, ffi::lua_gettop(l), values.iter().map(|v| Some(*v)));
            ffi::lua_pop(l, 1);
        }
    });
    with_field(l, c"zones", |l, t| push_zones(l, t, w));
    with_field(l, c"tallies", |l, t| push_tallies(l, t, w));
}

/// `S[name] = v`.
unsafe fn set_int(l: *mut lua_State, name: &CStr, v: i64) {
    ffi::lua_pushinteger(l, v);
    ffi::lua_setfield(l, S, name.as_ptr());
}

/// Runs `f` with S's table `name` at the returned stack index, then pops it.
unsafe fn with_field(l: *mut lua_State, name: &CStr, f: impl FnOnce(*mut lua_State, c_int)) {
    ffi::lua_getfield(l, S, name.as_ptr());
    f(l, ffi::lua_gettop(l));
    ffi::lua_pop(l, 1);
}

/// `t[i] = v` for each value from 1 (nil for `None`).
unsafe fn set_all(l: *mut lua_State, t: c_int, values: impl Iterator<Item = Option<i64>>) {
    for (i, v) in values.enumerate() {
        match v {
            Some(v) => ffi::lua_pushinteger(l, v),
            None => ffi::lua_pushnil(l),
        }
        ffi::lua_rawseti(l, t, i as ffi::lua_Integer + 1);
    }
}

/// Each pile's `list` holds exactly the world's items.
unsafe fn push_zones(l: *mut lua_State, zones: c_int, w: &World) {
    for (z, piles) in w.zones.iter().enumerate() {
        ffi::lua_rawgeti(l, zones, z as ffi::lua_Integer + 1);
        for (p, items) in piles.iter().enumerate() {
            ffi::lua_rawgeti(l, -1, p as ffi::lua_Integer + 1);
            ffi::lua_getfield(l, -1, c"list".as_ptr());
            let list = ffi::lua_gettop(l);
            let old = ffi::lua_rawlen(l, list) as usize;
            let cleared = std::iter::repeat_n(None, old.saturating_sub(items.len()));
            set_all(l, list, items.iter().map(|v| Some(*v)).chain(cleared));
            ffi::lua_pop(l, 2);
        }
        ffi::lua_pop(l, 1);
    }
}

/// The tallies table holds exactly the world's counts (name -> key -> count).
unsafe fn push_tallies(l: *mut lua_State, tallies: c_int, w: &World) {
    // Emptied first: setting a field to nil while traversing is allowed.
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, tallies) != 0 {
        ffi::lua_pop(l, 1);
        ffi::lua_pushvalue(l, -1);
        ffi::lua_pushnil(l);
        ffi::lua_rawset(l, tallies);
    }
    for (name, counts) in &w.tallies {
        push_text(l, name);
        ffi::lua_createtable(l, 0, counts.len() as c_int);
        for (key, n) in counts {
            push_text(l, key);
            ffi::lua_pushinteger(l, *n as i64);
            ffi::lua_rawset(l, -3);
        }
        ffi::lua_rawset(l, tallies);
    }
}

pub(super) unsafe fn push_text(l: *mut lua_State, text: &str) {
    ffi::lua_pushlstring(l, text.as_ptr().cast(), text.len());
}

/// Reads S into `w`; stops at the first value out of place (what was read before it is kept).
unsafe fn pull_raw(
    l: *mut lua_State,
    w: &mut World,
    specs: &[ZoneSpec],
    kinds: usize,
) -> Result<(), String> {
    ffi::luaL_checkstack(l, 16, std::ptr::null());
    w.current = index(int(l, c"current"), "S.current")?;
    w.turn = count(int(l, c"turn"), "S.turn")?;
    w.round = count(int(l, c"round"), "S.round")?;
    w.decisions = count(int(l, c"decisions"), "S.decisions")?;
    let names = [
        c"in_play", c"token", c"owner", c"level", c"counter", c"zones", c"tallies",
    ];
    for name in names {
        ffi::lua_getfield(l, S, name.as_ptr());
    }
    ffi::lua_pushstring(l, c"list".as_ptr());
    let [in_play, token, owner, level, counter, zones, tallies, list_key] =
        [2, 3, 4, 5, 6, 7, 8, 9];
    // From here on nothing raises (see the invariant).
    w.in_play = (1..=len(l, in_play))
        .map(|i| {
            ffi::lua_rawgeti(l, in_play, i);
            let b = ffi::lua_toboolean(l, -1) != 0;
            ffi::lua_pop(l, 1);
            b
        })
        .collect();
    let tokens = ints(l, token, "a token")?.into_iter();
    w.board.tokens = tokens
        .map(|t| index(Some(t), "a token"))
        .collect::<Result<_, _>>()?;
    for (i, o) in w.board.owners.iter_mut().enumerate() {
        ffi::lua_rawgeti(l, owner, i as ffi::lua_Integer + 1);
        let nil = ffi::lua_isnil(l, -1) != 0;
        let seat = at(l, -1);
        ffi::lua_pop(l, 1);
        *o = if nil {
            None
        } else {
            Some(index(seat, "an owner")?)
        };
    }
    w.board.levels = ints(l, level, "a level")?;
    w.counters = (1..=len(l, counter))
        .map(|c| {
            ffi::lua_rawgeti(l, counter, c);
            let column = ints(l, ffi::lua_gettop(l), "a counter");
            ffi::lua_pop(l, 1);
            column
        })
        .collect::<Result<_, _>>()?;
    for (z, piles) in w.zones.iter_mut().enumerate() {
        ffi::lua_rawgeti(l, zones, z as ffi::lua_Integer + 1);
        for (p, items) in piles.iter_mut().enumerate() {
            ffi::lua_rawgeti(l, -1, p as ffi::lua_Integer + 1);
            ffi::lua_pushvalue(l, list_key);
            ffi::lua_rawget(l, -2);
            let list = zone_items(l, ffi::lua_gettop(l), kinds);
            ffi::lua_pop(l, 2);
            *items = list.map_err(|bad| {
                let spec = &specs[z];
                let of = match spec.per_seat {
                    true => format!("ctx.zone.{}[{}]", spec.name, p + 1),
                    false => format!("ctx.zone.{}", spec.name),
                };
                format!(
                    "{of} holds {bad}: a pile changes only through its methods (add, take, \
                     move, deal, …); its list is for reading"
                )
            })?;
        }
        ffi::lua_pop(l, 1);
    }
    w.tallies = pull_tallies(l, tallies);
    ffi::lua_pop(l, 8);
    Ok(())
}

/// A 1-based seat or space number as a 0-based index.
fn index(v: Option<i64>, what: &str) -> Result<usize, String> {
    v.and_then(|v| usize::try_from(v.checked_sub(1)?).ok())
        .ok_or_else(|| format!("the live state holds {what} that is not a number from 1"))
}

/// A count (turn, round) that cannot be negative.
fn count(v: Option<i64>, what: &str) -> Result<u64, String> {
    v.and_then(|v| u64::try_from(v).ok())
        .ok_or_else(|| format!("the live state holds {what} that is not a count"))
}

/// `S[name]` as an integer, if it is one.
unsafe fn int(l: *mut lua_State, name: &CStr) -> Option<i64> {
    ffi::lua_getfield(l, S, name.as_ptr());
    let v = at(l, -1);
    ffi::lua_pop(l, 1);
    v
}

/// The integer at stack index `i`, or `None` for anything else (nil, a float, a numeric
/// text: the ctx functions store integers only, so anything else is out of place).
unsafe fn at(l: *mut lua_State, i: c_int) -> Option<i64> {
    (ffi::lua_isinteger(l, i) != 0).then(|| ffi::lua_tointeger(l, i))
}

unsafe fn len(l: *mut lua_State, t: c_int) -> ffi::lua_Integer {
    ffi::lua_rawlen(l, t) as ffi::lua_Integer
}

/// The sequence of integers in the table at `t` (each `what`).
unsafe fn ints(l: *mut lua_State, t: c_int, what: &str) -> Result<Vec<i64>, String> {
    (1..=len(l, t))
        .map(|i| {
            ffi::lua_rawgeti(l, t, i);
            let v = at(l, -1);
            ffi::lua_pop(l, 1);
            v.ok_or_else(|| format!("the live state holds {what} that is not an integer"))
        })
        .collect()
}

/// The item codes in the pile list at `t`, or what is wrong with one (`"x" at position 3`).
unsafe fn zone_items(l: *mut lua_State, t: c_int, kinds: usize) -> Result<Vec<i64>, String> {
    (1..=len(l, t))
        .map(|i| {
            ffi::lua_rawgeti(l, t, i);
            let (v, shown) = (at(l, -1), shown(l, -1));
            ffi::lua_pop(l, 1);
            match v {
                Some(v) if kinds == 0 || (0..kinds as i64).contains(&v) => Ok(v),
                Some(_) => Err(format!(
                    "{shown} at position {i}, not an item code (game.toml names {kinds} items: \
                     0..{})",
                    kinds - 1
                )),
                None => Err(format!("{shown} at position {i}, not an item code")),
            }
        })
        .collect()
}

/// The value at `i` as an error shows it: `"x"`, `2.5`, `a table`.
unsafe fn shown(l: *mut lua_State, i: c_int) -> String {
    match ffi::lua_type(l, i) {
        ffi::LUA_TSTRING => format!("{:?}", text(l, i)),
        ffi::LUA_TNUMBER if ffi::lua_isinteger(l, i) != 0 => ffi::lua_tointeger(l, i).to_string(),
        ffi::LUA_TNUMBER => format!("{:?}", ffi::lua_tonumber(l, i)),
        ffi::LUA_TBOOLEAN => format!("{}", ffi::lua_toboolean(l, i) != 0),
        t => format!(
            "a {}",
            CStr::from_ptr(ffi::lua_typename(l, t)).to_string_lossy()
        ),
    }
}

/// name -> key -> count, from the tallies table at `t` (its keys are always text: `ctx:tally`
/// turns numbers into their text).
unsafe fn pull_tallies(l: *mut lua_State, t: c_int) -> BTreeMap<String, BTreeMap<String, u64>> {
    let mut out = BTreeMap::new();
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, t) != 0 {
        let counts = ffi::lua_gettop(l);
        let mut inner = BTreeMap::new();
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, counts) != 0 {
            inner.insert(text(l, -2), at(l, -1).unwrap_or(0) as u64);
            ffi::lua_pop(l, 1);
        }
        out.insert(text(l, -2), inner);
        ffi::lua_pop(l, 1);
    }
    out
}

/// The key at stack index `i` as text. The prelude only ever makes text keys; anything else
/// reads as an empty text (and is never converted in place, which would break `lua_next`).
unsafe fn text(l: *mut lua_State, i: c_int) -> String {
    if ffi::lua_type(l, i) != ffi::LUA_TSTRING {
        return String::new();
    }
    let mut n = 0;
    let p = ffi::lua_tolstring(l, i, &mut n);
    String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), n)).into_owned()
}
