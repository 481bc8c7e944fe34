//! The receiver of a `ctx` method (`ctx:win(1)`, `ctx.grid:get(r, c)`), always a table. A
//! method called with a dot (`ctx.grid.set(r, c, p)`) would take its first argument for the
//! receiver and quietly do something else: it is an error that says to use a colon, both for
//! the Rust callbacks (`This`) and for the raw C functions (`need_self`).

use super::host::api_error;
use super::rawgrid::raise;
use mlua::ffi::{self, lua_State};
use mlua::{FromLua, Lua, Value};
use std::fmt;

/// The receiver of a Rust callback that is a method: a table, or the colon error (which
/// `lua_message` shows without mlua's "bad argument #1" around it).
pub struct This;

impl FromLua for This {
    fn from_lua(this: Value, lua: &Lua) -> mlua::Result<This> {
        if this.is_table() {
            return Ok(This);
        }
        let name = lua.inspect_stack(0, |d| {
            let n = d.names();
            (n.name_what == Some("field"))
                .then(|| n.name.map(|n| n.to_string()))
                .flatten()
        });
        Err(api_error(lua, Colon(name.flatten().as_deref()).to_string()))
    }
}

/// Raises the colon error unless the raw C function running was given a table to work on.
///
/// # Safety
/// `l` is the state of the running C function.
pub(super) unsafe fn need_self(l: *mut lua_State) {
    if ffi::lua_type(l, 1) == ffi::LUA_TTABLE {
        return;
    }
    let mut ar: ffi::lua_Debug = std::mem::zeroed();
    let mut name = None;
    if ffi::lua_getstack(l, 0, &mut ar) != 0
        && ffi::lua_getinfo(l, c"n".as_ptr(), &mut ar) != 0
        && !ar.name.is_null()
        && !ar.namewhat.is_null()
        && std::ffi::CStr::from_ptr(ar.namewhat) == c"field"
    {
        name = Some(std::ffi::CStr::from_ptr(ar.name).to_bytes());
    }
    let name = name.and_then(|n| std::str::from_utf8(n).ok());
    raise(l, Colon(name))
}

/// The colon error's text for method `name` (when the call names it), for the prelude's own
/// methods (`native.colon`).
pub(super) fn colon(name: Option<&str>) -> String {
    Colon(name).to_string()
}

/// The colon error of method `name` (when the call names it).
struct Colon<'a>(Option<&'a str>);

impl fmt::Display for Colon<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.0 {
            Some(n) => write!(
                f,
                "'{n}' is a method: call it with a colon (x:{n}(…)), not a dot"
            ),
            None => write!(
                f,
                "a method called without its table: call it with a colon (x:f(…))"
            ),
        }
    }
}
