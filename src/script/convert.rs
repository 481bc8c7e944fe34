//! `G` as plain data: Lua values to JSON and back. Only nil, booleans, numbers, strings and
//! tables (no functions, userdata or cycles) survive in `G`; anything else there is an error
//! naming its path (`G.players[2].on_land`). A value only shown (eval, the console) shows a
//! function as `"<function>"`. Integer keys of non-sequence tables are written `"#<n>"`.
//! Both ways work on the Lua stack through the C API: a position is saved and put back at
//! every decision `check` shows and every search that re-deals.

use super::sync::push_text;
use mlua::ffi::{self, lua_State};
use mlua::{Lua, Value};
use serde_json::{Map, Number, Value as Json};
use std::ffi::CStr;
use std::fmt::Write;
use std::os::raw::c_int;

const MAX_DEPTH: usize = 64;

/// `value` as JSON, or what in it is not plain data, named by its path from `name`.
pub fn to_json(lua: &Lua, value: &Value, name: &str) -> Result<Json, String> {
    let (mut out, mut path) = (Ok(Json::Null), name.to_string());
    // SAFETY: the walk calls only C API functions that raise nothing (lua_next on a table
    // left unchanged, reads and pops; the stack is made big enough first), so the Rust data it
    // builds is always dropped.
    let ran = unsafe {
        lua.exec_raw::<()>(value, |l| {
            out = match ffi::lua_checkstack(l, 6 * MAX_DEPTH as c_int + 8) {
                0 => Err(format!("{path}: nested too deep to save")),
                _ => read(l, 1, &mut path, &mut Vec::new()),
            };
        })
    };
    ran.map_err(|e| format!("{name}: {e}"))?;
    out
}

/// The value at stack index `at` (absolute) as JSON; `path` names it, `stack` holds the
/// tables it is inside of.
unsafe fn read(
    l: *mut lua_State,
    at: c_int,
    path: &mut String,
    stack: &mut Vec<*const std::ffi::c_void>,
) -> Result<Json, String> {
    Ok(match ffi::lua_type(l, at) {
        ffi::LUA_TNIL => Json::Null,
        ffi::LUA_TBOOLEAN => Json::Bool(ffi::lua_toboolean(l, at) != 0),
        ffi::LUA_TNUMBER if ffi::lua_isinteger(l, at) != 0 => {
            Json::Number(ffi::lua_tointeger(l, at).into())
        }
        ffi::LUA_TNUMBER => {
            let n = ffi::lua_tonumber(l, at);
            Json::Number(
                Number::from_f64(n).ok_or_else(|| format!("{path}: {n} is not a finite number"))?,
            )
        }
        ffi::LUA_TSTRING => Json::String(
            text(l, at)
                .ok_or_else(|| format!("{path}: string is not valid UTF-8"))?
                .to_string(),
        ),
        ffi::LUA_TTABLE => {
            if let Some(shown) = pile(l, at).filter(|_| path.starts_with('G')) {
                return Err(format!(
                    "{path}: the pile {shown} cannot be saved (G must be plain data): keep the \
                     zone's name in G and read ctx.zone[name] where the pile is needed"
                ));
            }
            let top = ffi::lua_gettop(l);
            let json = table(l, view_target(l, at), path, stack);
            ffi::lua_settop(l, top);
            json?
        }
        // What eval and the console show: a function reads as what it is.
        other if !path.starts_with('G') => Json::String(format!("<{}>", type_name(l, other))),
        other => {
            // Where the rules made it: the line that put it in G is near.
            let made = defined_at(l, at).map_or(String::new(), |at| format!(" (made at {at})"));
            let kind = type_name(l, other);
            return Err(format!(
                "{path}: a {kind}{made} cannot be saved (G must be plain data)"
            ));
        }
    })
}

/// The table a read-only view at `at` reads (ctx.counters.cash, ctx.board.owners: its
/// metatable hidden, its `__index` a table), pushed; `at` for any other table. A view is
/// saved and shown as what it reads, not as the empty table it is.
unsafe fn view_target(l: *mut lua_State, at: c_int) -> c_int {
    if ffi::lua_getmetatable(l, at) == 0 {
        return at;
    }
    let mt = ffi::lua_gettop(l);
    // (both names are the VM's own strings: pushing them allocates nothing)
    ffi::lua_pushstring(l, c"__metatable".as_ptr());
    let hidden = ffi::lua_rawget(l, mt) == ffi::LUA_TBOOLEAN && ffi::lua_toboolean(l, -1) == 0;
    ffi::lua_pushstring(l, c"__index".as_ptr());
    match hidden && ffi::lua_rawget(l, mt) == ffi::LUA_TTABLE {
        true => ffi::lua_gettop(l),
        false => at,
    }
}

/// How the rules name the zone pile at stack index `at` (`ctx.zone.hole[2]`), or None for a
/// table that is no pile (a pile's metatable is named `pile`, and the pile holds its name).
unsafe fn pile(l: *mut lua_State, at: c_int) -> Option<String> {
    if ffi::lua_getmetatable(l, at) == 0 {
        return None;
    }
    let top = ffi::lua_gettop(l) - 1;
    ffi::lua_pushstring(l, c"__name".as_ptr());
    let shown = (ffi::lua_rawget(l, -2) == ffi::LUA_TSTRING && text(l, -1) == Some("pile") && {
        ffi::lua_pushstring(l, c"shown".as_ptr());
        ffi::lua_rawget(l, at) == ffi::LUA_TSTRING
    })
    .then(|| text(l, -1).map(str::to_string))
    .flatten();
    ffi::lua_settop(l, top);
    shown
}

/// Where the Lua function at stack index `at` is written (`rules.lua:12`); None for a value
/// that is no Lua function.
unsafe fn defined_at(l: *mut lua_State, at: c_int) -> Option<String> {
    if ffi::lua_type(l, at) != ffi::LUA_TFUNCTION || ffi::lua_iscfunction(l, at) != 0 {
        return None;
    }
    let mut ar: ffi::lua_Debug = std::mem::zeroed();
    ffi::lua_pushvalue(l, at);
    ffi::lua_getinfo(l, c">S".as_ptr(), &mut ar);
    // The chunk's whole name (`@path`): short_src is cut past 60 bytes.
    let source = CStr::from_ptr(ar.source).to_string_lossy();
    let src = source.strip_prefix('@').unwrap_or(&source);
    Some(format!("{src}:{}", ar.linedefined))
}

/// The name of Lua type `t` in an error.
unsafe fn type_name(l: *mut lua_State, t: c_int) -> &'static str {
    match t {
        ffi::LUA_TLIGHTUSERDATA => "lightuserdata",
        _ => CStr::from_ptr(ffi::lua_typename(l, t))
            .to_str()
            .unwrap_or("value"),
    }
}

/// The string at stack index `at` (a string, never converted in place), if it is UTF-8.
unsafe fn text<'a>(l: *mut lua_State, at: c_int) -> Option<&'a str> {
    let mut n = 0;
    let p = ffi::lua_tolstring(l, at, &mut n);
    std::str::from_utf8(std::slice::from_raw_parts(p.cast::<u8>(), n)).ok()
}

/// A key of a table being saved.
enum Key {
    Index(i64),
    Name(String),
}

/// The table at `at` as a JSON list when its keys are exactly 1..=n, else as an object (integer
/// keys written `#<n>`). One pass over its pairs reads every key and value.
unsafe fn table(
    l: *mut lua_State,
    at: c_int,
    path: &mut String,
    stack: &mut Vec<*const std::ffi::c_void>,
) -> Result<Json, String> {
    let ptr = ffi::lua_topointer(l, at);
    if stack.contains(&ptr) {
        let why = match path.starts_with('G') {
            true => "G must not contain cycles",
            false => "it cannot be shown",
        };
        return Err(format!("{path}: table refers back to itself ({why})"));
    }
    if stack.len() >= MAX_DEPTH {
        return Err(format!("{path}: nested deeper than {MAX_DEPTH} tables"));
    }
    stack.push(ptr);
    let len = ffi::lua_rawlen(l, at) as i64;
    let mut entries: Vec<(Key, Json)> = Vec::new();
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, at) != 0 {
        let keep = path.len();
        let key = match ffi::lua_type(l, -2) {
            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, -2) != 0 => {
                let i = ffi::lua_tointeger(l, -2);
                let _ = write!(path, "[{i}]");
                Key::Index(i)
            }
            ffi::LUA_TSTRING => {
                let name = text(l, -2).ok_or_else(|| format!("{path}: key is not valid UTF-8"))?;
                path.push('.');
                path.push_str(name);
                Key::Name(name.to_string())
            }
            other => {
                let kind = type_name(l, other);
                return Err(format!(
                    "{path}: a {kind} key cannot be saved (use strings or integers)"
                ));
            }
        };
        entries.push((key, read(l, ffi::lua_gettop(l), path, stack)?));
        path.truncate(keep);
        ffi::lua_settop(l, -2);
    }
    stack.pop();
    let in_range = |k: &Key| matches!(k, Key::Index(i) if (1..=len).contains(i));
    if len > 0 && entries.len() == len as usize && entries.iter().all(|(k, _)| in_range(k)) {
        let mut items = vec![Json::Null; len as usize];
        for (k, v) in entries {
            if let Key::Index(i) = k {
                items[i as usize - 1] = v;
            }
        }
        return Ok(Json::Array(items));
    }
    let mut map = Map::new();
    for (k, v) in entries {
        let key = match k {
            Key::Index(i) => format!("#{i}"),
            Key::Name(name) => escape(&name),
        };
        map.insert(key, v);
    }
    Ok(Json::Object(map))
}

fn escape(key: &str) -> String {
    if key.starts_with('#') {
        format!("#{key}")
    } else {
        key.to_string()
    }
}

/// The Lua value of `json` (what `to_json` wrote): `#<n>` keys become integer keys again.
pub fn from_json(lua: &Lua, json: &Json) -> mlua::Result<Value> {
    // SAFETY: the closure runs protected and holds only references, so an error raised by
    // the VM (out of memory, a stack too deep) unwinds past no destructor.
    unsafe { lua.exec_raw((), |l| push_json(l, json)) }
}

/// Pushes the Lua value of `json`.
unsafe fn push_json(l: *mut lua_State, json: &Json) {
    ffi::luaL_checkstack(l, 3, c"saved data nested too deep".as_ptr());
    match json {
        Json::Null => ffi::lua_pushnil(l),
        Json::Bool(b) => ffi::lua_pushboolean(l, *b as c_int),
        Json::Number(n) => match n.as_i64() {
            Some(i) => ffi::lua_pushinteger(l, i),
            None => ffi::lua_pushnumber(l, n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => push_text(l, s),
        Json::Array(items) => {
            ffi::lua_createtable(l, items.len() as c_int, 0);
            for (i, item) in items.iter().enumerate() {
                push_json(l, item);
                ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
            }
        }
        Json::Object(map) => {
            ffi::lua_createtable(l, 0, map.len() as c_int);
            for (k, v) in map {
                match k.strip_prefix('#') {
                    Some(rest) if rest.starts_with('#') => push_text(l, rest),
                    Some(rest) => match rest.parse::<i64>() {
                        Ok(i) => ffi::lua_pushinteger(l, i),
                        Err(_) => push_text(l, k),
                    },
                    None => push_text(l, k),
                }
                push_json(l, v);
                ffi::lua_rawset(l, -3);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_plain_data() {
        let lua = Lua::new();
        let v: Value = lua
            .load(r##"return { a = 1, b = 2.5, list = {1, "x", true}, sparse = {[3] = "c", [10] = "j"}, ["#tag"] = "t", empty = {} }"##)
            .eval()
            .unwrap();
        let json = to_json(&lua, &v, "G").unwrap();
        assert_eq!(
            json.to_string(),
            r###"{"##tag":"t","a":1,"b":2.5,"empty":{},"list":[1,"x",true],"sparse":{"#10":"j","#3":"c"}}"###
        );
        let back = from_json(&lua, &json).unwrap();
        assert_eq!(to_json(&lua, &back, "G").unwrap(), json);
        // As many keys as its length, but a hole and a name among them: every key is kept.
        let holed: Value = lua
            .load("local t = {1, 2, 3, x = 'a'}; t[2] = nil; return t")
            .eval()
            .unwrap();
        let json = to_json(&lua, &holed, "G").unwrap();
        assert_eq!(json.to_string(), r##"{"#1":1,"#3":3,"x":"a"}"##);
    }

    #[test]
    fn non_data_is_named_by_path_and_shown_by_kind() {
        let lua = Lua::new();
        let v: Value = lua
            .load("return { players = { {}, { on_land = print } } }")
            .eval()
            .unwrap();
        assert_eq!(
            to_json(&lua, &v, "G").unwrap_err(),
            "G.players[2].on_land: a function cannot be saved (G must be plain data)"
        );
        assert_eq!(
            to_json(&lua, &v, "result").unwrap().to_string(),
            r#"{"players":[{},{"on_land":"<function>"}]}"#
        );
        let cyc: Value = lua.load("local t = {}; t.me = t; return t").eval().unwrap();
        assert_eq!(
            to_json(&lua, &cyc, "G").unwrap_err(),
            "G.me: table refers back to itself (G must not contain cycles)"
        );
        assert_eq!(
            to_json(&lua, &cyc, "result").unwrap_err(),
            "result.me: table refers back to itself (it cannot be shown)"
        );
    }
}
