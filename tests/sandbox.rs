//! The sandbox under attack: every way a script has tried to hang the game, escape the
//! instruction budget, reach outside its folder or crash the runtime ends with a located
//! error instead (each case runs under a hang detector). Scripts run through `Game::eval` in
//! tic-tac-toe, so each error reads `eval:LINE:`; the same guard holds every hook.

mod common;
use common::*;
use std::sync::mpsc;
use std::time::Duration;

/// What running `code` in a fresh game says: its result as JSON text, or its error. Fails the
/// test if it runs for a minute (a hang).
fn run(code: &'static str) -> String {
    run_in("tictactoe", "board", code)
}

/// `run` in a fresh game of `id` on `map`.
fn run_in(id: &'static str, map: &'static str, code: &'static str) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let game = start(id, map, 2, 1, &[]);
        let said = match game.eval(code) {
            Ok(v) => v.to_string(),
            Err(e) => e.to_string(),
        };
        let _ = tx.send(said);
    });
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("hangs: {code}"))
}

/// `code` fails with exactly `message` (its first line), in `eval`.
fn fails(code: &'static str, message: &str) {
    fails_in("tictactoe", "board", code, message)
}

fn fails_in(id: &'static str, map: &'static str, code: &'static str, message: &str) {
    let said = run_in(id, map, code);
    assert_eq!(said.lines().next(), Some(message), "{code}\n{said}");
    assert!(said.ends_with("    in eval"), "{code}\n{said}");
}

const BUDGET: &str = "instruction budget exceeded (an endless loop?)";

// The VM reads an ipairs step inline when the read is plain (see vendor/lua-src/PATCHES.md):
// every kind of list still iterates as stock Lua's ipairs does.
#[test]
fn ipairs_iterates_every_kind_of_list_as_stock_lua() {
    let said = run(r#"
        local out = {}
        local function add(s) out[#out + 1] = s end
        for i, v in ipairs({ 10, 20, nil, 40 }) do add(i .. "=" .. v) end
        for i in ipairs({ 5, 6 }) do add("i" .. i) end
        for _, _, extra in ipairs({ 7 }) do add(tostring(extra)) end
        local hashed = {}
        hashed[2], hashed[1] = "b", "a"
        for _, v in ipairs(hashed) do add(v) end
        for _, v in ipairs(setmetatable({}, { __index = { 1, 2 } })) do add("view" .. v) end
        local partly = setmetatable({ 100 }, { __index = function(_, k) return k < 3 and k * 1000 or nil end })
        for _, v in ipairs(partly) do add("meta" .. v) end
        for _, v in ipairs("abc") do add(v) end
        local grown = {}
        for i, v in ipairs({ 1, 2, 3 }) do grown[i] = v; if i == 2 then grown[9] = 0 end end
        add(#out .. " " .. #grown)
        local ok, err = pcall(function() for _ in ipairs(nil) do end end)
        add(tostring(ok) .. ": " .. err)
        return table.concat(out, " ")"#);
    assert_eq!(
        said,
        "\"1=10 2=20 i1 i2 nil a b view1 view2 meta100 meta2000 11 3 false: \
         attempt to index a nil value\""
    );
}

#[test]
fn a_plain_endless_loop_is_stopped() {
    fails("while true do end", &format!("eval:1: error: {BUDGET}"));
}

#[test]
fn a_pcall_cannot_swallow_the_budget() {
    fails(
        "while true do pcall(function() while true do end end) end",
        &format!("eval:1: error: {BUDGET}"),
    );
    // The budget runs out wherever the watchdog's count ends: inside the pcall (the error then
    // comes at the next instruction, on line 2) or at the loop's own step (line 1).
    let code = "for _ = 1, 1e18 do\n  local ok = pcall(error, 'x')\nend";
    let said = run_in("tictactoe", "board", code);
    let first = said.lines().next().unwrap_or_default();
    let lines = [1, 2].map(|n| format!("eval:{n}: error: {BUDGET}"));
    assert!(lines.iter().any(|l| l == first), "{code}\n{said}");
    assert!(said.ends_with("    in eval"), "{code}\n{said}");
}

#[test]
fn an_error_handler_cannot_loop_out_of_reach() {
    fails(
        "local function f() while true do end end\nwhile true do xpcall(f, function() while true do end end) end",
        &format!("eval:1: error: {BUDGET}"),
    );
    // xpcall still works: the handler sees the error, once it has unwound.
    assert_eq!(
        run("local ok, e = xpcall(function() error('boom') end, function(m) return 'handled ' .. m end) return e"),
        "\"handled eval:1: boom\""
    );
    fails(
        "error(setmetatable({}, {__tostring = function() while true do end end}))",
        &format!("eval:1: error: {BUDGET}"),
    );
}

#[test]
fn finalizers_are_refused_and_close_handlers_are_budgeted() {
    fails(
        "setmetatable({}, {__gc = function() while true do end end})",
        "eval:1: error: setmetatable: __gc finalizers are not available to game scripts",
    );
    fails(
        "local mt = {__gc = false}\nsetmetatable({}, mt)",
        "eval:2: error: setmetatable: __gc finalizers are not available to game scripts",
    );
    fails(
        "do local x <close> = setmetatable({}, {__close = function() while true do end end}) end",
        &format!("eval:1: error: {BUDGET}"),
    );
}

#[test]
fn library_loops_in_c_are_bounded() {
    fails(
        "return string.rep('', 1e15)",
        "eval:1: error: string.rep: at most 16777216 copies",
    );
    fails(
        "return ('ab'):rep(1e9, ',')",
        "eval:1: error: string.rep: at most 16777216 copies",
    );
    let complex = "eval:1: error: pattern too complex (more than 10000000 steps)";
    fails(
        "return string.find(string.rep('a', 40), string.rep('.-', 20) .. 'b')",
        complex,
    );
    fails(
        "return string.match(string.rep('a', 60), string.rep('a*', 30) .. 'b')",
        complex,
    );
    fails(
        "return (string.rep('a', 40)):gsub(string.rep('.-', 20) .. 'b', '')",
        complex,
    );
    fails(
        "for m in (string.rep('a', 40)):gmatch(string.rep('.-', 20) .. 'b') do end",
        complex,
    );
    fails(
        "return string.find(string.rep('a', 1e7), string.rep('a', 1e6) .. 'b', 1, true)",
        "eval:1: error: search too long (more than 10000000 steps)",
    );
    let walk = "eval:1: error: a table call may walk at most 16777216 elements (asked for ";
    for code in [
        "table.move({}, 1, math.maxinteger - 1, 2)",
        "table.remove(setmetatable({}, {__len = function() return math.maxinteger end}), 1)",
        "table.insert(setmetatable({}, {__len = function() return 1e15 end}), 1, 0)",
        "table.sort(setmetatable({}, {__len = function() return 2^30 end}))",
    ] {
        let said = run(code);
        assert!(said.starts_with(walk), "{code}\n{said}");
    }
    // Loops that call back into Lua are the budget's.
    fails(
        "return table.concat(setmetatable({}, {__index = function() return 'x' end}), '', 1, 1e15)",
        &format!("eval:1: error: {BUDGET}"),
    );
    // Ordinary uses are unchanged.
    assert_eq!(run("return #string.rep('ab', 1000, ',')"), "2999");
    assert_eq!(
        run("return ('key = value'):match('^(%w+)%s*=%s*(%w+)$')"),
        "\"key\""
    );
}

#[test]
fn memory_and_the_stack_are_bounded() {
    let said = run("local t = {} for i = 1, 1e9 do t[i] = i end");
    assert!(
        said.starts_with("eval: error: out of memory (256 MiB limit)"),
        "{said}"
    );
    let said = run("local s = 'x' while true do s = s .. s end");
    assert!(
        said.starts_with("eval: error: out of memory (256 MiB limit)"),
        "{said}"
    );
    let said = run("local function f() return 1 + f() end return f()");
    assert!(said.contains("stack overflow"), "{said}");
}

#[test]
fn files_processes_clocks_and_bytecode_are_out_of_reach() {
    let gone = |lib: &str| {
        format!("eval:1: error: '{lib}' is not available to game scripts (no files, processes or clocks)")
    };
    fails("return io.open('/etc/passwd')", &gone("io"));
    fails("return os.time()", &gone("os"));
    fails("return debug.getinfo(1)", &gone("debug"));
    fails("return package.loaded", &gone("package"));
    fails("return load('return 1')", &gone("load"));
    fails("return dofile('/etc/passwd')", &gone("dofile"));
    fails("return loadfile('/etc/passwd')", &gone("loadfile"));
    fails("return collectgarbage('count')", &gone("collectgarbage"));
    fails(
        "return math.random(6)",
        "eval:1: error: math.random is not available: use ctx.random:int(lo, hi), the game's seeded generator",
    );
    assert_eq!(
        run("return string.dump == nil and coroutine == nil"),
        "true"
    );
    fails(
        "return require('../../etc/passwd')",
        "eval:1: error: require '../../etc/passwd': module names may only use letters, digits, '_' and '.'",
    );
    // The metatable every string shares stays out of reach.
    assert_eq!(run("return getmetatable('')"), "false");
    fails(
        "getmetatable('').__index = nil",
        "eval:1: error: attempt to index a boolean value",
    );
}

/// A binary chunk next to the rules is refused by `require`, whatever its bytes.
#[test]
fn require_loads_source_text_only() {
    let (_tmp, root) = copy_game("tictactoe", "ttt");
    std::fs::write(root.join("blob.lua"), b"\x1bLua return 1").unwrap();
    let pkg = std::sync::Arc::new(meeple::def::load_package(&root).unwrap());
    let game = start_with(&pkg, "board", 2, 1, &[]);
    let said = game.eval("return require('blob')").unwrap_err().to_string();
    assert!(
        said.starts_with("eval:1: error: ") && said.contains("attempt to load a binary chunk"),
        "{said}"
    );
}

/// Overflow is an error at the calling line, never a silent wrap or a panic.
#[test]
fn counters_and_ranges_do_not_overflow() {
    fails_in(
        "monopoly",
        "demo",
        "ctx.counter:set(1, 'cash', math.maxinteger)\nlocal v = ctx.counter:add(1, 'cash', 1)",
        "eval:2: error: counter 'cash' would overflow: 9223372036854775807 + 1 is beyond the integers",
    );
    fails_in(
        "monopoly",
        "demo",
        "ctx.counter:set(1, 'cash', math.mininteger)\nlocal a = ctx.counter:transfer(1, 2, 'cash', 1)",
        "eval:2: error: counter 'cash' would overflow: -9223372036854775808 - 1 is beyond the integers",
    );
    fails(
        "for _ = 1, 3 do ctx:tally('n', 'k', math.maxinteger // 2) end",
        "eval:1: error: ctx:tally: 'n' 'k' would overflow",
    );
    assert_eq!(
        run("local v = ctx.random:int(math.mininteger, math.maxinteger) return math.type(v)"),
        "\"integer\""
    );
}

/// Each attack, saved into the rules of a running game, is refused at its line by the reload,
/// and the game goes on under the last good rules.
#[test]
fn a_running_game_survives_a_reload_of_every_attack() {
    let attacks = [
        (
            "while true do pcall(function() while true do end end) end",
            BUDGET,
        ),
        (
            "setmetatable({}, {__gc = function() while true do end end})",
            "setmetatable: __gc finalizers are not available to game scripts",
        ),
        (
            "local s = string.rep('', 1e15)",
            "string.rep: at most 16777216 copies",
        ),
        (
            "string.find(string.rep('a', 40), string.rep('.-', 20) .. 'b')",
            "pattern too complex (more than 10000000 steps)",
        ),
        (
            "table.move({}, 1, math.maxinteger - 1, 2)",
            "a table call may walk at most 16777216 elements (asked for 9223372036854775806)",
        ),
        (
            "local ok = xpcall(function() while true do end end, function() while true do end end)",
            BUDGET,
        ),
    ];
    let (_tmp, root) = copy_game("tictactoe", "ttt");
    let pkg = std::sync::Arc::new(meeple::def::load_package(&root).unwrap());
    let mut game = start_with(&pkg, "board", 2, 1, &[]);
    let rules = std::fs::read_to_string(root.join("rules.lua")).unwrap();
    let body = rules
        .strip_suffix("return R\n")
        .expect("the rules end returning R");
    let line = body.lines().count() + 1;
    for (attack, message) in attacks {
        std::fs::write(
            root.join("rules.lua"),
            format!("{body}{attack}\nreturn R\n"),
        )
        .unwrap();
        let diags = game.try_reload().expect_err(attack);
        let said = diags[0].to_string();
        assert!(
            said.ends_with(&format!("ttt/rules.lua:{line}: error: {message}")),
            "{attack}: {said}"
        );
        let first = options(&game)[0].clone();
        act(&mut game, &first);
    }
    assert_eq!(
        game.history.len(),
        attacks.len(),
        "one move after every refused reload"
    );
}

/// A label hook that never returns costs its budget once per position, not once per option:
/// the options read as their actions, and the failure is said once.
#[test]
fn a_looping_label_is_stopped_once_per_position() {
    let rules = "R.calls = 0\nR.label = function() R.calls = R.calls + 1 while true do end end";
    let v = variant("tictactoe", rules, "", None);
    let mut game = v.game("board", 2);
    let shown = game.shown(Some(0));
    assert_eq!(shown.labels.len(), 9);
    assert_eq!(shown.labels[0], "place 1 1");
    let problem = shown.problem.expect("the failure is said");
    assert!(
        problem.ends_with(&format!(
            "rules.lua:3: error: {BUDGET} · in hook 'R.label' (state 'turn', player 1, turn 1)"
        )),
        "{problem}"
    );
    assert_eq!(eval(&game, "R.calls"), 1);
}
