//! Where the Lua work goes (`sim --profile`): while a thread samples, every game started on
//! it gets a count hook that, every `EVERY` VM instructions, counts the running function (its
//! self share), each function on the stack once (its total share) and the running line.
//! Counting instructions, not time, makes a profile repeat exactly for the same games on one
//! thread. The runtime's own Lua (driver, `ctx` methods) counts as one function, `RUNTIME`.

use mlua::ffi;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::os::raw::c_int;

/// VM instructions between two samples (the watchdog's budget hook samples at the same rate).
pub const EVERY: u64 = 1000;
/// The file named for the runtime's own Lua.
pub const RUNTIME: &str = "meeple";

/// A file and a line in it: where a function is defined, or a line that ran.
pub type At = (String, u32);

/// What one or several threads sampled.
#[derive(Debug, Default)]
pub struct Profile {
    pub samples: u64,
    /// By where each function is defined (line 0: a file's main chunk): samples in which it
    /// was running, and samples in which it was on the stack.
    pub functions: BTreeMap<At, (u64, u64)>,
    /// Samples by the game's line that was running.
    pub lines: BTreeMap<At, u64>,
}

impl Profile {
    pub fn merge(&mut self, other: Profile) {
        self.samples += other.samples;
        for (at, (own, total)) in other.functions {
            let entry = self.functions.entry(at).or_default();
            entry.0 += own;
            entry.1 += total;
        }
        for (at, n) in other.lines {
            *self.lines.entry(at).or_default() += n;
        }
    }
}

/// A function or line as the hook sees it: the address of its chunk's source text (stable
/// while the VM lives) and a line. `Sampler::files` names the address.
type Key = (usize, c_int);

/// The key all the runtime's own functions count under.
const RUNTIME_KEY: Key = (0, 0);

#[derive(Default)]
struct Sampler {
    /// The next game to start is sampled (`next_game`).
    armed: bool,
    /// The main state of the game sampled now (0: none); no other state is sampled.
    state: usize,
    samples: u64,
    functions: HashMap<Key, (u64, u64)>,
    lines: HashMap<Key, u64>,
    /// The chunk name of each source address seen in this game's VM (None: the runtime's).
    files: HashMap<usize, Option<String>>,
    /// What the games before this one sampled, by name.
    done: Profile,
    /// The functions on the stack in the sample being taken (kept between samples).
    seen: Vec<Key>,
}

impl Sampler {
    /// Moves what the current game sampled into `done`, by name: a later VM may reuse an
    /// address for another chunk.
    fn fold(&mut self) {
        let files = std::mem::take(&mut self.files);
        let name = |(src, line): Key| -> At {
            let file = files.get(&src).cloned().flatten();
            let file = file.unwrap_or_else(|| RUNTIME.to_string());
            (file, line.max(0) as u32)
        };
        let mut part = Profile {
            samples: std::mem::take(&mut self.samples),
            ..Profile::default()
        };
        for (key, counts) in self.functions.drain() {
            let entry = part.functions.entry(name(key)).or_default();
            entry.0 += counts.0;
            entry.1 += counts.1;
        }
        for (key, n) in self.lines.drain() {
            *part.lines.entry(name(key)).or_default() += n;
        }
        self.done.merge(part);
    }

    /// The key of the function `frame` describes (filled by lua_getinfo "S").
    fn key_of(&mut self, frame: &ffi::lua_Debug) -> Key {
        let src = frame.source as usize;
        let file = self.files.entry(src).or_insert_with(|| {
            // SAFETY: lua_getinfo "S" points `source` at the chunk's terminated name.
            let name = unsafe { std::ffi::CStr::from_ptr(frame.source) }.to_string_lossy();
            let name = name.strip_prefix(['@', '=']).unwrap_or(&name);
            (!crate::diag::is_runtime(name)).then(|| name.to_string())
        });
        match file {
            None => RUNTIME_KEY,
            Some(_) => (src, frame.linedefined),
        }
    }
}

thread_local! {
    static SAMPLER: RefCell<Option<Sampler>> = const { RefCell::new(None) };
}

fn with<R>(f: impl FnOnce(&mut Sampler) -> R) -> Option<R> {
    SAMPLER.with(|s| s.borrow_mut().as_mut().map(f))
}

/// Samples the games this thread starts after `next_game`, until `finish`.
pub fn start() {
    SAMPLER.with(|s| *s.borrow_mut() = Some(Sampler::default()));
}

/// Stops sampling on this thread and returns what was sampled.
pub fn finish() -> Profile {
    let sampler = SAMPLER.with(|s| s.borrow_mut().take());
    sampler.map_or_else(Profile::default, |mut s| {
        s.fold();
        s.done
    })
}

/// The next game this thread starts is sampled, from its set-up on (a game made to be
/// restarted at once is not: its set-up would count twice).
pub fn next_game() {
    with(|s| s.armed = true);
}

/// Forgets what the game under way sampled (a game stopped part-way is no game played).
pub fn discard_game() {
    with(|s| {
        s.samples = 0;
        s.functions.clear();
        s.lines.clear();
    });
}

/// A game starts on `state`: sampled when `next_game` said so, else not (and a game sampled
/// before on `state` is over). A VM sampled for its last game keeps its hook and its count:
/// counting from each game's start would sample every short game at the same instruction,
/// and drop what each game left short of a sample.
///
/// # Safety
/// `state` is a VM's main state, on this thread, outside any hook.
pub(super) unsafe fn game_starts(state: *mut ffi::lua_State) {
    let hook = with(|s| {
        let armed = std::mem::take(&mut s.armed);
        let was = s.state;
        if armed || was == state as usize {
            s.fold();
            s.state = if armed { state as usize } else { 0 };
        }
        s.state != was
    });
    if hook == Some(true) {
        // SAFETY: as this function's.
        unsafe { resume(state) };
    }
}

/// Puts the sampling hook back on `state` when its game is sampled, else no hook: the
/// watchdog calls this after its own hook.
///
/// # Safety
/// `state` is a live state of this thread, outside any hook.
pub(super) unsafe fn resume(state: *mut ffi::lua_State) {
    let sampled = with(|s| s.state == state as usize) == Some(true);
    // SAFETY: as this function's.
    unsafe {
        match sampled {
            true => ffi::lua_sethook(state, Some(hook), ffi::LUA_MASKCOUNT, EVERY as c_int),
            false => ffi::lua_sethook(state, None, 0, 0),
        };
    }
}

unsafe extern "C-unwind" fn hook(state: *mut ffi::lua_State, _: *mut ffi::lua_Debug) {
    // SAFETY: Lua passes the hook a valid state.
    unsafe { sample(state) }
}

/// Counts one sample of `state` (the game's main state or one of its coroutines) when its
/// game is sampled: the running function (self), each function on the stack once (total)
/// and the running line.
///
/// # Safety
/// `state` is the one Lua passed a hook.
pub(super) unsafe fn sample(state: *mut ffi::lua_State) {
    // SAFETY: as this function's (a hook has room on the stack for a value).
    let main = unsafe { main_of(state) };
    with(|s| {
        if s.state != main as usize {
            return;
        }
        s.samples += 1;
        let mut seen = std::mem::take(&mut s.seen);
        seen.clear();
        // SAFETY: a zeroed record is what lua_getstack fills; lua_getinfo "Sl" then sets
        // `what` to a static string and `source` to the chunk's name.
        let mut frame: ffi::lua_Debug = unsafe { std::mem::zeroed() };
        let mut level = 0;
        while unsafe { ffi::lua_getstack(state, level, &mut frame) } != 0 {
            unsafe { ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut frame) };
            let running = level == 0;
            level += 1;
            if unsafe { *frame.what } as u8 == b'C' {
                continue;
            }
            let key = s.key_of(&frame);
            if running {
                s.functions.entry(key).or_default().0 += 1;
                if key != RUNTIME_KEY {
                    let line = (key.0, frame.currentline);
                    *s.lines.entry(line).or_default() += 1;
                }
            }
            if !seen.contains(&key) {
                seen.push(key);
                s.functions.entry(key).or_default().1 += 1;
            }
        }
        s.seen = seen;
    });
}

/// The main state of the VM `state` runs in: itself, or the VM's for a coroutine (which
/// inherits the hook of the state that made it).
///
/// # Safety
/// `state` is a live state with room on its stack for one value.
unsafe fn main_of(state: *mut ffi::lua_State) -> *mut ffi::lua_State {
    unsafe {
        ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_MAINTHREAD);
        let main = ffi::lua_tothread(state, -1);
        ffi::lua_pop(state, 1);
        main
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::Lua;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A VM whose game this thread samples.
    fn sampled_vm() -> (Lua, *mut ffi::lua_State) {
        let lua = Lua::new();
        let mut state = std::ptr::null_mut();
        unsafe { lua.exec_raw::<()>((), |s| state = s).unwrap() };
        start();
        next_game();
        unsafe { game_starts(state) };
        (lua, state)
    }

    fn stop(state: *mut ffi::lua_State) -> Profile {
        let p = finish();
        unsafe { resume(state) };
        p
    }

    /// A chunk whose `heavy` loop runs a hundred times as long as `light`'s, both called from
    /// `main`: `heavy` has nearly all the self samples, `main` is on the stack in all of them,
    /// and the hottest line is the heavy loop's.
    #[test]
    fn samples_count_the_running_function_the_stack_and_the_line() {
        let (lua, state) = sampled_vm();
        lua.load(
            "local function heavy(n)\n\
               local s = 0\n\
               for i = 1, n do s = s + i % 7 end\n\
               return s\n\
             end\n\
             local function light(n)\n\
               local s = 0\n\
               for i = 1, n do s = s + i % 7 end\n\
               return s\n\
             end\n\
             local function main()\n\
               return heavy(200000) + light(2000)\n\
             end\n\
             local total = main()\n\
             return total",
        )
        .set_name("=demo.lua")
        .exec()
        .unwrap();
        let p = stop(state);
        let at = |line: u32| ("demo.lua".to_string(), line);
        let f = |line: u32| p.functions.get(&at(line)).copied().unwrap_or_default();
        assert!(p.samples > 500, "{} samples", p.samples);
        let (heavy, light) = (f(1), f(6));
        assert!(
            heavy.0 * 100 >= p.samples * 95,
            "heavy {heavy:?} of {}",
            p.samples
        );
        assert!(
            light.0 * 100 <= p.samples * 2,
            "light {light:?} of {}",
            p.samples
        );
        assert_eq!(
            f(11).1,
            p.samples - f(0).0,
            "main is under all but the chunk's own"
        );
        assert_eq!(f(0).1, p.samples, "the chunk is under every sample");
        let hottest = p.lines.iter().max_by_key(|(_, n)| **n).unwrap().0;
        assert_eq!(hottest, &at(3));
    }

    /// Games shorter than a sample's span are sampled as their work adds up, not once each
    /// at the same instruction (nor never).
    #[test]
    fn short_games_add_up_to_their_samples() {
        let (lua, state) = sampled_vm();
        for _ in 0..20 {
            next_game();
            unsafe { game_starts(state) };
            let code = "local s = 0 for i = 1, 300 do s = s + i end";
            lua.load(code).set_name("=short.lua").exec().unwrap();
        }
        let p = stop(state);
        assert!((10..=14).contains(&p.samples), "{} samples", p.samples);
    }

    /// Work in a coroutine of the game's VM is sampled too.
    #[test]
    fn a_coroutine_is_sampled_with_its_vm() {
        let (lua, state) = sampled_vm();
        let code = "local f = coroutine.wrap(function()\n\
                      local s = 0 for i = 1, 400000 do s = s + i end return s\n\
                    end)\n\
                    return f()";
        lua.load(code).set_name("=co.lua").exec().unwrap();
        let p = stop(state);
        let inner = p.functions[&("co.lua".to_string(), 1)];
        assert!(
            inner.0 * 100 >= p.samples * 95,
            "{inner:?} of {}",
            p.samples
        );
        assert!(p.samples > 500, "{} samples", p.samples);
    }

    /// Only a game announced by `next_game` is sampled, and a discarded game counts nothing.
    #[test]
    fn only_announced_games_are_sampled() {
        let (lua, state) = sampled_vm();
        let spin = |name: &str| {
            let code = "local s = 0 for i = 1, 100000 do s = s + i end";
            lua.load(code).set_name(format!("={name}")).exec().unwrap();
        };
        spin("played.lua");
        unsafe { game_starts(state) };
        spin("unannounced.lua");
        next_game();
        unsafe { game_starts(state) };
        spin("discarded.lua");
        discard_game();
        let p = stop(state);
        let files: Vec<&str> = p.functions.keys().map(|(f, _)| f.as_str()).collect();
        assert_eq!(files, ["played.lua"]);
    }

    /// A call long enough for the watchdog to arm its budget hook is sampled on through it,
    /// and the sampling hook is back once the call is over.
    #[test]
    fn a_call_the_watchdog_times_is_sampled_through_and_after() {
        let (lua, state) = sampled_vm();
        // The samples taken when the spin first saw the watchdog armed.
        let armed_at: Rc<Cell<Option<u64>>> = Rc::default();
        let seen = armed_at.clone();
        let began = std::time::Instant::now();
        let probe = lua
            .create_function(move |_, ()| {
                if seen.get().is_none() && super::super::watchdog::armed() {
                    seen.set(with(|s| s.samples));
                }
                Ok(began.elapsed().as_secs_f64())
            })
            .unwrap();
        lua.globals().set("now", probe).unwrap();
        let spin = "while now() < 1.3 do end";
        let guard = super::super::watchdog::Guard::new(state, u64::MAX / 2);
        lua.load(spin).set_name("=spin.lua").exec().unwrap();
        assert_eq!(guard.spent(), None);
        drop(guard);
        let spun = with(|s| s.samples).unwrap();
        lua.load("local s = 0 for i = 1, 300000 do s = s + i end")
            .set_name("=after.lua")
            .exec()
            .unwrap();
        let p = stop(state);
        let armed = armed_at.get().expect("the watchdog armed during the spin");
        assert!(
            spun > armed + 100,
            "{armed} samples when armed, {spun} at the end"
        );
        let after = p.functions[&("after.lua".to_string(), 0)].1;
        assert!(after >= 500, "{after} samples after the watched call");
    }
}
