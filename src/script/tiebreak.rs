//! The heuristic bots' tie-break generators seen from Lua: one raw C function, `draw(seat, n)`,
//! gives `below(n) + 1` from the seat's own generator, the draw `Heuristic::choose` makes in
//! Rust. The runtime loads the generators before a driver run and stores them back after, so
//! the bots end in exactly the states they would have had step by step.

use super::rawgrid::{on_cell, raise, Msg};
use crate::core::rng::GameRng;
use mlua::ffi::{self, lua_State};
use mlua::{Function, Lua};
use std::cell::RefCell;
use std::os::raw::c_int;
use std::rc::Rc;

type Generators = RefCell<Vec<GameRng>>;

/// The seats' generators and the Lua function that draws from them.
pub struct TieBreak {
    generators: Rc<Generators>,
    pub draw: Function,
}

impl TieBreak {
    pub fn install(lua: &Lua) -> mlua::Result<TieBreak> {
        let generators = Rc::new(RefCell::new(Vec::new()));
        let draw = super::rawgrid::c_closure(lua, &generators, draw_from, &[])?;
        Ok(TieBreak { generators, draw })
    }

    /// Copies in the seats' generators, seat 1 first.
    pub fn load<'a>(&self, seats: impl Iterator<Item = &'a GameRng>) {
        let mut g = self.generators.borrow_mut();
        g.clear();
        g.extend(seats.cloned());
    }

    /// Copies the generators back out, in the order they were loaded.
    pub fn store<'a>(&self, seats: impl Iterator<Item = &'a mut GameRng>) {
        for (to, from) in seats.zip(self.generators.borrow().iter()) {
            *to = from.clone();
        }
    }
}

const BAD_DRAW: &str = "tie-break draw: no generator for this seat, or an empty range";

#[allow(clippy::result_large_err)] // the error is a message on the stack, nothing to drop
unsafe extern "C-unwind" fn draw_from(l: *mut lua_State) -> c_int {
    let seat = ffi::luaL_checkinteger(l, 1);
    let n = ffi::luaL_checkinteger(l, 2);
    let drawn = on_cell(l, |generators: &mut Vec<GameRng>| {
        let index = usize::try_from(seat).ok().and_then(|s| s.checked_sub(1));
        let rng = index.and_then(|i| generators.get_mut(i));
        match (rng, u64::try_from(n).ok().filter(|n| *n > 0)) {
            (Some(rng), Some(n)) => Ok(rng.below(n)),
            _ => Err(Msg::of(BAD_DRAW)),
        }
    });
    match drawn {
        Ok(i) => {
            ffi::lua_pushinteger(l, i as ffi::lua_Integer + 1);
            1
        }
        Err(m) => raise(l, m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_as_the_seats_generator_does() {
        let lua = Lua::new();
        let tie = TieBreak::install(&lua).unwrap();
        let mut seats = [GameRng::from_seed(1), GameRng::from_seed(2)];
        let mut expected = seats[1].clone();
        tie.load(seats.iter());
        for n in [1, 2, 3, 6, 1000] {
            let drawn: i64 = tie.draw.call((2, n)).unwrap();
            assert_eq!(drawn as u64, expected.below(n) + 1);
        }
        tie.store(seats.iter_mut());
        assert_eq!(seats[1], expected);
        assert_eq!(seats[0], GameRng::from_seed(1));
        for (seat, n) in [(3, 2), (0, 2), (1, 0)] {
            let err = tie.draw.call::<i64>((seat, n)).unwrap_err().to_string();
            assert!(err.contains(BAD_DRAW), "{err}");
        }
    }
}
