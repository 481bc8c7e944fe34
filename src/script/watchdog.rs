//! The guard against runaway scripts, free for scripts that behave: a watchdog thread times
//! each call into Lua, and one still running after `ARM_AFTER` gets an instruction-count hook
//! (set from a signal handler on the script's thread). Then the call has `budget` instructions
//! left and stops with an error at its Lua line; a spent budget stays spent, so a `pcall` only
//! moves the error to the next line.

use mlua::ffi;
use std::cell::Cell;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Wall-clock time a call may run before its instructions are counted.
pub const ARM_AFTER: Duration = Duration::from_millis(1000);
/// How often the watchdog looks at the running calls.
const TICK: Duration = Duration::from_millis(20);
/// Instructions between two checks of the budget once armed.
const HOOK_EVERY: c_int = super::profile::EVERY as c_int;
const SIGNAL: c_int = libc::SIGUSR2;

/// What the watchdog thread shares with one script thread.
struct Slot {
    thread: libc::pthread_t,
    /// Milliseconds since `epoch()` at which the running call is armed; 0 when idle.
    deadline: AtomicU64,
    /// Number of the running call, and of the last call the watchdog signalled.
    call: AtomicU64,
    signalled: AtomicU64,
}

thread_local! {
    /// Non-null only while a guarded call runs on this thread; the hook is removed before the
    /// guard is dropped. A guard made while another is active does nothing. (Finalizers, which
    /// run with hooks off, are refused by the patched `setmetatable`.)
    static STATE: Cell<*mut ffi::lua_State> = const { Cell::new(std::ptr::null_mut()) };
    static SLOT: Cell<*const Slot> = const { Cell::new(std::ptr::null()) };
    static CALL: Cell<u64> = const { Cell::new(0) };
    static TICKS_LEFT: Cell<i64> = const { Cell::new(0) };
    static HOOKED: Cell<bool> = const { Cell::new(false) };
    /// The error of the running call's spent budget, raised again at every instruction.
    static SPENT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64 + 1
}

/// `now_ms()` as of the watchdog's last tick: what a call reads to set its deadline, so that
/// starting a call costs an atomic load instead of a clock read.
static TICK_MS: AtomicU64 = AtomicU64::new(0);

fn slots() -> &'static Mutex<Vec<Arc<Slot>>> {
    static SLOTS: OnceLock<Mutex<Vec<Arc<Slot>>>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        TICK_MS.store(now_ms(), Ordering::Release);
        install_signal_handler();
        std::thread::Builder::new()
            .name("meeple-watchdog".into())
            .spawn(watch)
            .expect("the watchdog thread starts");
        Mutex::new(Vec::new())
    })
}

fn watch() {
    loop {
        std::thread::sleep(TICK);
        let now = now_ms();
        TICK_MS.store(now, Ordering::Release);
        let list = slots().lock().expect("watchdog lock").clone();
        for slot in list {
            let deadline = slot.deadline.load(Ordering::Acquire);
            let call = slot.call.load(Ordering::Acquire);
            if deadline != 0 && now >= deadline && slot.signalled.load(Ordering::Acquire) != call {
                slot.signalled.store(call, Ordering::Release);
                // SAFETY: the slot's thread is alive while its deadline is set.
                unsafe { libc::pthread_kill(slot.thread, SIGNAL) };
            }
        }
    }
}

fn install_signal_handler() {
    // SAFETY: a plain sigaction with a handler that only touches this thread's state.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as *const () as usize;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(SIGNAL, &action, std::ptr::null_mut());
    }
}

extern "C" fn on_signal(_: c_int) {
    let state = STATE.with(|s| s.get());
    let slot = SLOT.with(|s| s.get());
    if state.is_null() || slot.is_null() {
        return;
    }
    // SAFETY: SLOT points at this thread's slot, kept alive by the registry.
    let signalled = unsafe { (*slot).signalled.load(Ordering::Acquire) };
    if signalled == CALL.with(|c| c.get()) {
        HOOKED.with(|h| h.set(true));
        // SAFETY: lua_sethook may be called asynchronously from a signal on the Lua thread.
        unsafe { ffi::lua_sethook(state, Some(budget_hook), ffi::LUA_MASKCOUNT, HOOK_EVERY) };
    }
}

unsafe extern "C-unwind" fn budget_hook(state: *mut ffi::lua_State, ar: *mut ffi::lua_Debug) {
    let spent = SPENT.with(|s| s.borrow().is_some());
    if !spent {
        // SAFETY: the state Lua passed this hook; a profile samples at the budget's rate.
        unsafe { super::profile::sample(state) };
        let left = TICKS_LEFT.with(|t| {
            t.set(t.get() - 1);
            t.get()
        });
        if left >= 0 {
            return;
        }
        // SAFETY: called by Lua with a valid state and activation record; from now on the
        // hook runs at every instruction.
        let message = unsafe {
            let (src, line) = game_line(state, ar);
            ffi::lua_sethook(state, Some(budget_hook), ffi::LUA_MASKCOUNT, 1);
            format!("{src}:{line}: instruction budget exceeded (an endless loop?)")
        };
        SPENT.with(|s| *s.borrow_mut() = Some(message));
    }
    // The message is copied onto the Lua stack; nothing is left to drop when Lua jumps away.
    SPENT.with(|s| {
        let s = s.borrow();
        let m = s.as_deref().unwrap_or_default();
        // SAFETY: a valid state with room for one value (hooks get LUA_MINSTACK slots).
        unsafe { ffi::lua_pushlstring(state, m.as_ptr() as *const _, m.len()) };
    });
    // SAFETY: raising from a count hook is allowed; the borrow above has ended.
    unsafe { ffi::lua_error(state) };
}

/// Where the game's own scripts were when the hook ran: the innermost frame on a line of a
/// file that is not the runtime's (a loop that spends its budget in a pile's method is the
/// loop's line), else the running function's.
///
/// # Safety
/// `state` and `ar` are those Lua passed the hook.
unsafe fn game_line(state: *mut ffi::lua_State, ar: *mut ffi::lua_Debug) -> (String, c_int) {
    let mut frame: ffi::lua_Debug = std::mem::zeroed();
    let mut level = 0;
    while ffi::lua_getstack(state, level, &mut frame) != 0 {
        ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut frame);
        let src = std::ffi::CStr::from_ptr(frame.short_src.as_ptr()).to_string_lossy();
        if frame.currentline > 0 && !crate::diag::is_runtime(&src) {
            return (src.into_owned(), frame.currentline);
        }
        level += 1;
    }
    ffi::lua_getinfo(state, c"Sl".as_ptr(), ar);
    let src = std::ffi::CStr::from_ptr((*ar).short_src.as_ptr()).to_string_lossy();
    (src.into_owned(), (*ar).currentline)
}

/// Whether the call running on this thread has its instructions counted.
#[cfg(test)]
pub fn armed() -> bool {
    HOOKED.with(|h| h.get())
}

fn this_slot() -> *const Slot {
    let existing = SLOT.with(|s| s.get());
    if !existing.is_null() {
        return existing;
    }
    let slot = Arc::new(Slot {
        // SAFETY: pthread_self has no preconditions.
        thread: unsafe { libc::pthread_self() },
        deadline: AtomicU64::new(0),
        call: AtomicU64::new(0),
        signalled: AtomicU64::new(0),
    });
    let ptr = Arc::as_ptr(&slot);
    slots().lock().expect("watchdog lock").push(slot);
    SLOT.with(|s| s.set(ptr));
    ptr
}

/// Guards one call into Lua on `state`; the budget applies once the call is armed.
pub struct Guard {
    state: *mut ffi::lua_State,
    /// Null for a guard made inside another's call (it leaves the outer guard in charge).
    slot: *const Slot,
}

impl Guard {
    pub fn new(state: *mut ffi::lua_State, budget: u64) -> Guard {
        if !STATE.with(|s| s.get()).is_null() {
            return Guard {
                state,
                slot: std::ptr::null(),
            };
        }
        SPENT.with(|s| *s.borrow_mut() = None);
        let slot = this_slot();
        let call = CALL.with(|c| {
            c.set(c.get() + 1);
            c.get()
        });
        TICKS_LEFT.with(|t| t.set((budget / HOOK_EVERY as u64) as i64));
        STATE.with(|s| s.set(state));
        // SAFETY: the slot is owned by the registry for the life of the process.
        unsafe {
            (*slot).call.store(call, Ordering::Release);
            (*slot).deadline.store(
                TICK_MS.load(Ordering::Acquire) + ARM_AFTER.as_millis() as u64,
                Ordering::Release,
            );
        }
        Guard { state, slot }
    }

    /// The error of the call's spent budget, if it ran out: whatever the call's own error
    /// became (a `pcall` may have caught it, an error handler may have failed on it), this is
    /// the one to report.
    pub fn spent(&self) -> Option<String> {
        SPENT.with(|s| s.borrow().clone())
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.slot.is_null() {
            return;
        }
        // SAFETY: see Guard::new; the hook is removed on the thread that owns the state.
        unsafe {
            (*self.slot).deadline.store(0, Ordering::Release);
            STATE.with(|s| s.set(std::ptr::null_mut()));
            if HOOKED.with(|h| h.replace(false)) {
                super::profile::resume(self.state);
            }
            SPENT.with(|s| *s.borrow_mut() = None);
        }
    }
}
