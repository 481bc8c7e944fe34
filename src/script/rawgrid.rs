//! The `ctx.grid` calls a playout or a search makes on every move (get, set, stones, runs,
//! line, longest, random_empty, random_near, empty_options) as plain Lua C functions, a third
//! of a Rust callback's cost. Each works on the world behind a borrow that ends before an
//! error is raised at the rules' line. Also what every raw C function of the host shares:
//! `c_closure`, `on_cell` (the borrow and the panic guard), `raise` and `Msg`.

use crate::core::grid::{GridState, DIRECTIONS};
use crate::core::live::Live;
use mlua::ffi::{self, lua_State};
use mlua::{Function, Lua, Table};
use std::cell::RefCell;
use std::ffi::c_void;
use std::fmt::Write;
use std::os::raw::c_int;
use std::rc::Rc;

/// Keeps everything a VM's C functions point at alive as long as the VM.
struct Owned {
    held: Vec<Rc<dyn std::any::Any>>,
}

/// Sets the fast calls on the `ctx.grid` table `t`.
pub fn install(lua: &Lua, t: &Table, world: &Rc<RefCell<Live>>) -> mlua::Result<()> {
    let calls: [(&str, ffi::lua_CFunction); 11] = [
        ("get", get),
        ("set", set),
        ("level", level),
        ("set_level", set_level),
        ("stones", stones),
        ("runs", runs),
        ("line", line),
        ("longest", longest),
        ("random_empty", random_empty),
        ("random_near", random_near),
        ("empty_options", empty_options),
    ];
    for (name, f) in calls {
        t.raw_set(name, c_closure(lua, world, f, &[])?)?;
    }
    Ok(())
}

/// A C function whose first upvalue points at `data` (a world, the tie-break generators),
/// which the VM keeps alive; `extra` values follow as upvalues 2, 3, ….
pub(super) fn c_closure<T: 'static>(
    lua: &Lua,
    data: &Rc<T>,
    f: ffi::lua_CFunction,
    extra: &[mlua::Value],
) -> mlua::Result<Function> {
    let keep: Rc<dyn std::any::Any> = data.clone();
    let kept = lua
        .app_data_mut::<Owned>()
        .map(|mut o| o.held.push(keep.clone()));
    if kept.is_none() {
        lua.set_app_data(Owned { held: vec![keep] });
    }
    let ptr = Rc::as_ptr(data) as *mut c_void;
    // SAFETY: the values arrive as the arguments; the closure takes them after the pointer.
    unsafe {
        lua.exec_raw(mlua::Variadic::from_iter(extra.iter().cloned()), |l| {
            let n = ffi::lua_gettop(l);
            ffi::lua_pushlightuserdata(l, ptr);
            ffi::lua_insert(l, 1);
            ffi::lua_pushcclosure(l, f, n + 1);
        })
    }
}

/// What a call can get wrong; small and without heap data, so nothing needs dropping when Lua
/// jumps away with the error.
pub(super) enum Problem {
    NotGrid,
    Busy,
    Internal,
    OffBoard {
        r: i64,
        c: i64,
        rows: usize,
        cols: usize,
    },
    Seat(i64, usize),
    /// A mark for an empty cell: (r, c) from 1.
    NoStone(i64, i64),
    Level(i64),
    Direction(i64, i64),
    Distance(i64),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Problem::NotGrid => {
                write!(f, "this map is not a grid (ctx.grid needs kind = \"grid\")")
            }
            Problem::Busy => write!(f, "the game state is busy"),
            Problem::Internal => write!(f, "internal error"),
            Problem::OffBoard { r, c, rows, cols } => {
                write!(f, "cell ({r}, {c}) is off the {rows}×{cols} board")
            }
            Problem::Seat(p, seats) => write!(f, "seat {p} out of range (1..{seats})"),
            Problem::NoStone(r, c) => {
                write!(
                    f,
                    "cell ({r}, {c}) is empty: only a stone is marked (set it first)"
                )
            }
            Problem::Level(n) => write!(f, "level {n} out of range (0..{MAX_LEVEL})"),
            Problem::Distance(d) => write!(f, "distance {d} is negative"),
            Problem::Direction(dr, dc) => {
                write!(f, "direction ({dr}, {dc}) is not a step to a neighbour")
            }
        }
    }
}

/// The message of a problem, formatted into a buffer on the stack.
pub(super) struct Msg {
    buf: [u8; 128],
    len: usize,
}

impl Msg {
    /// `text` (cut at 128 bytes) copied onto the stack.
    pub(super) fn of(text: impl std::fmt::Display) -> Msg {
        let mut m = Msg {
            buf: [0; 128],
            len: 0,
        };
        let _ = write!(m, "{text}");
        m
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl From<Problem> for Msg {
    fn from(p: Problem) -> Msg {
        Msg::of(p)
    }
}

impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Write for Msg {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.floor_char_boundary(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Raises `p` as a Lua error at the caller's line. `p` must own no heap memory: the error
/// jumps past its drop.
pub(super) unsafe fn raise(l: *mut lua_State, p: impl std::fmt::Display) -> ! {
    let m = Msg::of(p);
    ffi::luaL_where(l, 1);
    ffi::lua_pushlstring(l, m.buf.as_ptr().cast(), m.len);
    ffi::lua_concat(l, 2);
    ffi::lua_error(l)
}

/// Runs `f` on the data behind the closure's first upvalue (the `RefCell<T>` a `c_closure`
/// points at) and returns its result; `Err` also when the data is borrowed elsewhere or `f`
/// panics (a panic must not unwind through Lua's C frames). Raises nothing: the caller raises
/// after the borrow has ended.
pub(super) unsafe fn on_cell<T, R, E: From<Problem>>(
    l: *mut lua_State,
    f: impl FnOnce(&mut T) -> Result<R, E>,
) -> Result<R, E> {
    let cell = &*(ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)) as *const RefCell<T>);
    let run = std::panic::AssertUnwindSafe(|| match cell.try_borrow_mut() {
        Ok(mut w) => f(&mut w),
        Err(_) => Err(Problem::Busy.into()),
    });
    std::panic::catch_unwind(run).unwrap_or_else(|_| Err(Problem::Internal.into()))
}

/// Runs `f` on the grid (`on_cell`); raises any error.
unsafe fn on_grid<R>(l: *mut lua_State, f: impl FnOnce(&mut Live) -> Result<R, Problem>) -> R {
    let result = on_cell(l, |w: &mut Live| match w.grid {
        Some(_) => f(w),
        None => Err(Problem::NotGrid),
    });
    match result {
        Ok(r) => r,
        Err(m) => raise(l, m),
    }
}

fn grid(w: &mut Live) -> &mut GridState {
    w.grid.as_mut().expect("checked by on_grid")
}

/// 1-based (r, c) → 0-based, or an error naming the cell.
pub(super) fn cell(g: &GridState, r: i64, c: i64) -> Result<(usize, usize), Problem> {
    if r >= 1 && c >= 1 && g.contains(r - 1, c - 1) {
        Ok((r as usize - 1, c as usize - 1))
    } else {
        Err(Problem::OffBoard {
            r,
            c,
            rows: g.rows,
            cols: g.cols,
        })
    }
}

/// Seat `p` of a game of `seats` seats, as the grid stores it.
pub(super) fn seat(p: i64, seats: usize) -> Result<u8, Problem> {
    match p {
        1..=250 if p as usize <= seats => Ok(p as u8),
        _ => Err(Problem::Seat(p, seats)),
    }
}

unsafe fn int(l: *mut lua_State, arg: c_int) -> i64 {
    ffi::luaL_checkinteger(l, arg)
}

unsafe fn push_count(l: *mut lua_State, n: usize) {
    ffi::lua_pushinteger(l, n as ffi::lua_Integer);
}

unsafe extern "C-unwind" fn get(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let (r, c) = (int(l, 2), int(l, 3));
    let v = on_grid(l, |w| {
        let g = grid(w);
        let (r, c) = cell(g, r, c)?;
        Ok(g.get(r, c))
    });
    match v {
        0 => ffi::lua_pushnil(l),
        v => push_count(l, v as usize),
    }
    1
}

unsafe extern "C-unwind" fn set(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let (r, c) = (int(l, 2), int(l, 3));
    let p = if ffi::lua_isnoneornil(l, 4) != 0 {
        None
    } else {
        Some(int(l, 4))
    };
    on_grid(l, |w| {
        let seats = w.seats;
        let g = grid(w);
        let (r, c) = cell(g, r, c)?;
        g.set(r, c, p.map(|p| seat(p, seats)).transpose()?.unwrap_or(0));
        Ok(())
    });
    0
}

/// The highest mark a stone takes.
const MAX_LEVEL: i64 = 250;

unsafe extern "C-unwind" fn level(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let (r, c) = (int(l, 2), int(l, 3));
    let v = on_grid(l, |w| {
        let g = grid(w);
        let (r, c) = cell(g, r, c)?;
        Ok(g.level(r, c))
    });
    push_count(l, v as usize);
    1
}

unsafe extern "C-unwind" fn set_level(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let (r, c, n) = (int(l, 2), int(l, 3), int(l, 4));
    on_grid(l, |w| {
        let g = grid(w);
        let (row, col) = cell(g, r, c)?;
        if g.get(row, col) == 0 {
            return Err(Problem::NoStone(r, c));
        }
        let level = (u8::try_from(n).ok()).filter(|v| i64::from(*v) <= MAX_LEVEL);
        g.set_level(row, col, level.ok_or(Problem::Level(n))?);
        Ok(())
    });
    0
}

unsafe extern "C-unwind" fn stones(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let n = on_grid(l, |w| Ok(grid(w).stones()));
    push_count(l, n);
    1
}

unsafe extern "C-unwind" fn runs(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let (r, c, p) = (int(l, 2), int(l, 3), int(l, 4));
    let lens = on_grid(l, |w| {
        let who = seat(p, w.seats)?;
        let g = grid(w);
        let (r, c) = cell(g, r, c)?;
        Ok(DIRECTIONS.map(|dir| g.line(r, c, dir, who).0))
    });
    for n in lens {
        push_count(l, n);
    }
    4
}

unsafe extern "C-unwind" fn line(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let (r, c, dr, dc, p) = (int(l, 2), int(l, 3), int(l, 4), int(l, 5), int(l, 6));
    let (len, open) = on_grid(l, |w| {
        let who = seat(p, w.seats)?;
        let g = grid(w);
        let (r, c) = cell(g, r, c)?;
        let step = -1..=1;
        if !step.contains(&dr) || !step.contains(&dc) || (dr, dc) == (0, 0) {
            return Err(Problem::Direction(dr, dc));
        }
        Ok(g.line(r, c, (dr, dc), who))
    });
    push_count(l, len);
    push_count(l, open);
    2
}

unsafe extern "C-unwind" fn longest(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let (r, c, p) = (int(l, 2), int(l, 3), int(l, 4));
    let n = on_grid(l, |w| {
        let who = seat(p, w.seats)?;
        let g = grid(w);
        let (r, c) = cell(g, r, c)?;
        Ok(g.longest(r, c, who))
    });
    push_count(l, n);
    1
}

unsafe extern "C-unwind" fn random_empty(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let at = on_grid(l, |w| {
        let g = w.grid.as_ref().expect("checked by on_grid");
        Ok(g.random_empty(&mut w.rng).map(|i| (i, g.cols)))
    });
    push_cell(l, at)
}

unsafe extern "C-unwind" fn random_near(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    let d = int(l, 2);
    let at = on_grid(l, |w| {
        let g = w.grid.as_ref().expect("checked by on_grid");
        let d = usize::try_from(d).map_err(|_| Problem::Distance(d))?;
        Ok(g.random_near(d, &mut w.rng).map(|i| (i, g.cols)))
    });
    push_cell(l, at)
}

/// `grid:empty_options([verb])`: the option `{verb, r, c}` (`"place"` by default) for every
/// empty cell, row by row, in a list made here: a grid game lists its moves this way at every
/// node of a search. Each cell is read under its own short borrow, so nothing is held when a
/// table's allocation raises.
unsafe extern "C-unwind" fn empty_options(l: *mut lua_State) -> c_int {
    super::method::need_self(l);
    if ffi::lua_isnoneornil(l, 2) != 0 {
        ffi::lua_settop(l, 1);
        ffi::lua_pushstring(l, c"place".as_ptr());
    } else if ffi::lua_type(l, 2) != ffi::LUA_TSTRING {
        raise(l, "empty_options: the verb must be a string");
    }
    let (cells, cols, empty) = on_grid(l, |w| {
        let g = grid(w);
        Ok((
            g.cells.len(),
            g.cols,
            g.cells.iter().filter(|v| **v == 0).count(),
        ))
    });
    ffi::lua_createtable(l, c_int::try_from(empty).unwrap_or(0), 0);
    let mut n = 0;
    for i in 0..cells {
        if on_grid(l, |w| Ok(grid(w).cells.get(i).copied().unwrap_or(1))) != 0 {
            continue;
        }
        ffi::lua_createtable(l, 3, 0);
        ffi::lua_pushvalue(l, 2);
        ffi::lua_rawseti(l, -2, 1);
        push_count(l, i / cols + 1);
        ffi::lua_rawseti(l, -2, 2);
        push_count(l, i % cols + 1);
        ffi::lua_rawseti(l, -2, 3);
        n += 1;
        ffi::lua_rawseti(l, -2, n);
    }
    1
}

/// Pushes cell index `i` on a board of `cols` columns as 1-based `r, c`, or `nil, nil`.
unsafe fn push_cell(l: *mut lua_State, at: Option<(usize, usize)>) -> c_int {
    match at.map(|(i, cols)| (i / cols + 1, i % cols + 1)) {
        Some((r, c)) => {
            push_count(l, r);
            push_count(l, c);
        }
        None => {
            ffi::lua_pushnil(l);
            ffi::lua_pushnil(l);
        }
    }
    2
}
