//! The field names the host reads and writes in the flow's tables (`S`, the driver's run
//! record, a claim), made into Lua strings once per VM. A name given as `&str` is made into a
//! Lua string again on every access, under a protected call because the VM has a memory
//! limit: about a thousand instructions each, paid on every game's start and search's restore.

use mlua::{Lua, LuaString};

macro_rules! keys {
    ($($field:ident = $name:literal),* $(,)?) => {
        /// One Lua string per field name the host uses often.
        pub struct Keys {
            $(pub $field: LuaString,)*
        }

        impl Keys {
            pub fn new(lua: &Lua) -> mlua::Result<Keys> {
                Ok(Keys { $($field: lua.create_string($name)?,)* })
            }
        }
    };
}

keys! {
    g = "G", hook = "hook", seat = "seat", turn = "turn", forced = "forced", state = "state",
    entered = "entered", pending = "pending", pending_seat = "pending_seat", claim = "claim",
    decisions = "decisions", current = "current", seats = "seats", named = "named",
    answers = "answers", begin = "begin", drive = "drive", apply = "apply",
    options_of = "options_of", scores = "scores", best = "best",
}
