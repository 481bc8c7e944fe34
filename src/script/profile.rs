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
#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Default)]
struct Sampler {
    samples: u64,
    functions: HashMap<Key, (u64, u64)>,
    lines: HashMap<Key, u64>,
    /// The chunk name of each source address seen in this VM (None: the runtime's, whose
    /// functions all count as the key (0, 0)).
    files: HashMap<usize, Option<String>>,
    /// What was sampled before the current game, by name.
    done: Profile,
}

impl Sampler {
    /// Moves what the current game sampled into `done`, by name: a later VM may reuse an
    /// address for another chunk.
    fn fold(&mut self) {
        let name = |files: &HashMap<usize, Option<String>>, (src, line): Key| -> At {
            let file = files.get(&src).cloned().flatten();
            (
                file.unwrap_or_else(|| RUNTIME.to_string()),
                line.max(0) as u32,
            )
        };
        let mut part = Profile {
            samples: std::mem::take(&mut self.samples),
            ..Profile::default()
        };
        for (key, counts) in self.functions.drain() {
            let entry = part.functions.entry(name(&self.files, key)).or_default();
            entry.0 += counts.0;
            entry.1 += counts.1;
        }
        for (key, n) in self.lines.drain() {
            *part.lines.entry(name(&self.files, key)).or_default() += n;
        }
        self.files.clear();
        self.done.merge(part);
    }
}

thread_local! {
    static SAMPLER: RefCell<Option<Sampler>> = const { RefCell::new(None) };
}

/// Samples the games started on this thread until `finish`.
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

fn sampling() -> bool {
    SAMPLER.with(|s| s.borrow().is_some())
}

/// A game starts on `state`: from here it is sampled when the thread samples. The hook's
/// count starts again, so that a game's samples do not depend on the games played before it
/// on this thread (nor, then, on the number of threads).
///
/// # Safety
/// `state` is a VM's main state, on this thread, outside any hook.
pub unsafe fn game_starts(state: *mut ffi::lua_State) {
    if sampling() {
        SAMPLER.with(|s| s.borrow_mut().as_mut().map(Sampler::fold));
        // SAFETY: as this function's.
        unsafe { resume(state) };
    }
}

/// Puts the sampling hook back on `state` (or no hook when the thread does not sample): the
/// watchdog calls this after its own hook.
///
/// # Safety
/// `state` is a live state of this thread, outside any hook.
pub unsafe fn resume(state: *mut ffi::lua_State) {
    // SAFETY: as this function's.
    unsafe {
        match sampling() {
            true => ffi::lua_sethook(state, Some(hook), ffi::LUA_MASKCOUNT, EVERY as c_int),
            false => ffi::lua_sethook(state, None, 0, 0),
        };
    }
}

unsafe extern "C-unwind" fn hook(state: *mut ffi::lua_State, _: *mut ffi::lua_Debug) {
    // SAFETY: Lua passes the hook a valid state.
    unsafe { sample(state) }
}

/// Counts one sample of `state` when this thread samples.
///
/// # Safety
/// `state` is the one Lua passed a hook.
pub unsafe fn sample(state: *mut ffi::lua_State) {
    SAMPLER.with(|s| {
        let mut s = s.borrow_mut();
        let Some(s) = s.as_mut() else { return };
        s.samples += 1;
        let mut seen: Vec<Key> = Vec::with_capacity(16);
        // SAFETY: a zeroed record is what lua_getstack fills.
        let mut frame: ffi::lua_Debug = unsafe { std::mem::zeroed() };
        let mut level = 0;
        // SAFETY: `frame` is filled by lua_getstack before lua_getinfo reads it.
        while unsafe { ffi::lua_getstack(state, level, &mut frame) } != 0 {
            unsafe { ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut frame) };
            let running = level == 0;
            level += 1;
            // SAFETY: lua_getinfo "S" sets `what` to a static string.
            if unsafe { *frame.what } as u8 == b'C' {
                continue;
            }
            let src = frame.source as usize;
            let file = s.files.entry(src).or_insert_with(|| {
                // SAFETY: lua_getinfo "S" points `source` at the chunk's terminated name.
                let name = unsafe { std::ffi::CStr::from_ptr(frame.source) }.to_string_lossy();
                let name = name.strip_prefix(['@', '=']).unwrap_or(&name);
                (!crate::diag::is_runtime(name)).then(|| name.to_string())
            });
            let key = match file {
                None => (0, 0),
                Some(_) => (src, frame.linedefined),
            };
            if running {
                s.functions.entry(key).or_default().0 += 1;
                if key.0 != 0 {
                    *s.lines.entry((src, frame.currentline)).or_default() += 1;
                }
            }
            if !seen.contains(&key) {
                seen.push(key);
                s.functions.entry(key).or_default().1 += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::Lua;

    /// A chunk whose `heavy` loop runs a hundred times as long as `light`'s, both called from
    /// `main`: `heavy` has nearly all the self samples, `main` is on the stack in all of them,
    /// and the hottest line is the heavy loop's.
    #[test]
    fn samples_count_the_running_function_the_stack_and_the_line() {
        let lua = Lua::new();
        let mut state = std::ptr::null_mut();
        unsafe { lua.exec_raw::<()>((), |s| state = s).unwrap() };
        start();
        unsafe { game_starts(state) };
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
        let p = finish();
        unsafe { resume(state) };
        let at = |line: u32| ("demo.lua".to_string(), line);
        let f = |line: u32| p.functions.get(&at(line)).copied().unwrap_or_default();
        assert!(p.samples > 500, "{} samples", p.samples);
        assert!(
            f(1).0 * 100 >= p.samples * 95,
            "heavy {:?} of {}",
            f(1),
            p.samples
        );
        assert!(
            f(6).0 * 100 <= p.samples * 2,
            "light {:?} of {}",
            f(6),
            p.samples
        );
        assert_eq!(
            f(11).1,
            p.samples - f(0).0,
            "main is under every sample but the chunk's"
        );
        assert_eq!(f(0).1, p.samples, "the chunk is under every sample");
        let hottest = p.lines.iter().max_by_key(|(_, n)| **n).unwrap().0;
        assert_eq!(hottest, &at(3));
    }

    /// A call long enough for the watchdog to arm its budget hook is still sampled, and the
    /// sampling hook is back once the call is over.
    #[test]
    fn a_call_the_watchdog_times_is_sampled_through_and_after() {
        let lua = Lua::new();
        let mut state = std::ptr::null_mut();
        unsafe { lua.exec_raw::<()>((), |s| state = s).unwrap() };
        start();
        unsafe { game_starts(state) };
        let spin = "local t = os.clock() while os.clock() - t < 1.3 do end";
        let guard = super::super::watchdog::Guard::new(state, u64::MAX / 2);
        lua.load(spin).set_name("=spin.lua").exec().unwrap();
        assert_eq!(guard.spent(), None);
        drop(guard);
        lua.load("local s = 0 for i = 1, 300000 do s = s + i end")
            .set_name("=after.lua")
            .exec()
            .unwrap();
        let p = finish();
        unsafe { resume(state) };
        let samples = |file: &str| p.functions[&(file.to_string(), 0)].1;
        let (spun, after) = (samples("spin.lua"), samples("after.lua"));
        assert_eq!(spun + after, p.samples);
        assert!(after >= 500, "{after} samples after the watched call");
    }
}
