-- The live components of a game kept in the VM (turn order, tokens, owners, levels, counters,
-- zones, tallies) and the ctx functions over them. The flow itself is driver.lua's.
local native = ...
local M = {}

-- Live components ------------------------------------------------------------------------
-- Turn order, tokens, space owners and levels, per-player counters and tallies live in the
-- table S, changed only through the ctx functions below and read through them or through
-- read-only views (the runtime copies S to and from its snapshot; S.playing, the count of
-- seats in play, and the turn order's successors follow in_play through S.seated). Seats and spaces are 1-based; errors point at the
-- rules line that called.

local tointeger, mtype = math.tointeger, math.type

-- A number's integer value (5 for 5.0), else nil: a numeric string ("5", such as an item's
-- name) is no number. Hot paths test mtype(v) == "integer" first and come here for the rest.
local function toint(v)
  return mtype(v) and tointeger(v)
end

-- A value as an error shows it: a string quoted, so that "5" is not taken for the number 5.
local function shown(v)
  return type(v) == "string" and string.format("the string %q", v) or tostring(v)
end

-- A method called with a dot (ctx.log("…"), ctx.board.place(1, 5)): the error at the caller's
-- line, in the words of the runtime's other methods (src/script/method.rs).
local function dotted(method)
  error(native.colon(method), 3)
end

function M.install(ctx, spec, emit)
  local seats, nspaces, looped = spec.seats, spec.spaces, spec.looped
  -- The runtime fills these tables in place (never replaces them), so functions and views
  -- below keep them. A space nobody owns has no entry in `owner`.
  local owner, level, token, in_play, counter = {}, {}, {}, {}, {}
  local S = { owner = owner, level = level, token = token, in_play = in_play, counter = counter,
              current = 1, turn = 1, round = 1, record = true, playing = seats, seats = seats,
              decisions = 0, entered = true }
  -- A recorded result is noted in S: the driver refuses a game that goes on after it.
  local win, draw = ctx.win, ctx.draw
  function ctx:win(...)
    if self ~= ctx then dotted("win") end
    win(self, ...)
    S.over = true
  end
  function ctx:draw()
    if self ~= ctx then dotted("draw") end
    draw(self)
    S.over = true
  end
  local by_id, column = ctx.board.by_id, {}
  for i, name in ipairs(spec.counters) do
    counter[i] = {}
    column[name] = counter[i]
  end

  -- Validation runs only when the fast table lookup fails; errors name the rules' line.
  local function seat(p)
    if math.type(p) ~= "integer" then
      local i = type(p) == "number" and toint(p)
      if not i then
        error(string.format("expected a seat number, got %s", type(p) == "number" and p or type(p)), 3)
      end
      p = i
    end
    if p < 1 or p > seats then error(string.format("seat %d out of range (1..%d)", p, seats), 3) end
    return p
  end

  local function space(v)
    if level[v] ~= nil then return v end
    if math.type(v) == "integer" then
      error(string.format("space %d out of range (1..%d)", v, nspaces), 3)
    elseif type(v) == "string" then
      local sp = by_id[v]
      if not sp then
        local ids = {}
        for i, each in ipairs(ctx.board.spaces) do ids[i] = each.id end
        local near = M.did_you_mean(v, ids)
        error(string.format("no space '%s' on this board%s", v,
          near and string.format("; did you mean '%s'?", near) or ""), 3)
      end
      return sp.index
    end
    error("expected a space index or id, got " .. (math.type(v) or type(v)), 3)
  end

  local function col(name)
    local c = column[name]
    if not c then
      local declared = #spec.counters > 0 and table.concat(spec.counters, ", ") or "none"
      local near = M.did_you_mean(tostring(name), spec.counters)
      error(string.format("unknown counter '%s'%s (game.toml declares: %s)", tostring(name),
        M.declared_hint(tostring(name), near), declared), 3)
    end
    return c
  end

  local function integer(v, what)
    local i = toint(v)
    if not i then
      error(string.format("%s must be an integer, got %s", what, shown(v)), 3)
    end
    return i
  end

  -- a + b, or an error at the rules line (level 3) when it leaves the integers: Lua's own
  -- integer arithmetic wraps round without a word.
  local function sum(a, b, name)
    local v = a + b
    if (b > 0 and v < a) or (b < 0 and v > a) then
      error(string.format("counter '%s' would overflow: %d %s %d is beyond the integers",
        name, a, b < 0 and "-" or "+", b < 0 and -b or b), 3)
    end
    return v
  end

  -- turn order
  function ctx:seats() return seats end
  function ctx:current() return S.current end
  function ctx:turn() return S.turn end
  function ctx:round() return S.round end
  function ctx:state() return S.state end
  function ctx:in_play(p)
    local v = in_play[p]
    if v == nil then
      if self ~= ctx then dotted("in_play") end
      v = in_play[seat(p)]
    end
    return v
  end
  function ctx:active()
    local out = {}
    for s = 1, seats do if in_play[s] then out[#out + 1] = s end end
    return out
  end
  function ctx:active_count() return S.playing end
  -- after[s]: the first seat in play after seat s round the table (s itself last), nil when
  -- no seat is in play; S.playing: how many seats are in play. Both follow in_play, made
  -- afresh whenever it changes: a seat leaving, or the runtime filling in_play (it calls
  -- S.seated then).
  local after = {}
  function S.seated()
    local playing = 0
    for s = 1, seats do
      local t = s
      repeat t = t < seats and t + 1 or 1 until in_play[t] or t == s
      after[s] = in_play[t] and t or nil
      if in_play[s] then playing = playing + 1 end
    end
    S.playing = playing
  end
  -- Passes the turn to the next seat in play, or to seat `to` (a claim jumps the order); a
  -- turn that comes round to seat 1 or before starts a new round. The turn given to the seat
  -- that has it (`to` being the current seat) is a new turn in the same round; a lone seat
  -- in play starts a new round each turn. With no seat in play the turn stays where it is.
  function ctx:next_player(to)
    if self ~= ctx then dotted("next_player") end
    local cur = S.current
    local s
    if to ~= nil then
      s = seat(to)
    else
      s = after[cur]
      if s == nil then
        S.turn = S.turn + 1
        return cur
      end
    end
    if s < cur or (s == cur and to == nil) then S.round = S.round + 1 end
    S.current, S.turn = s, S.turn + 1
    if S.record and s ~= cur then emit.passed(s) end
    return s
  end
  function ctx:eliminate(p)
    if self ~= ctx then dotted("eliminate") end
    local s = seat(p)
    if in_play[s] then
      in_play[s] = false
      S.seated()
      if S.record then emit.eliminated(s) end
    end
  end
  -- A value whose text is its address (a table, a function) differs from run to run: a log
  -- line must read the same in a replay.
  local function addressed(v)
    local t = type(v)
    if t ~= "table" and t ~= "function" and t ~= "userdata" and t ~= "thread" then return nil end
    local mt = getmetatable(v)
    if type(mt) == "table" and mt.__tostring then return nil end
    return t
  end
  -- The line `method` (ctx:log, ctx:tell) was given: `text`, its argument number `at`,
  -- formatted with the arguments after it when there are any. An error is at the method's
  -- caller.
  local function line_of(method, at, text, ...)
    if type(text) ~= "string" and type(text) ~= "number" then
      error(string.format("%s: expected a text (a string), got %s", method, type(text)), 3)
    end
    for i = 1, select("#", ...) do
      local t = addressed((select(i, ...)))
      if t then
        error(string.format("%s: argument %d is a %s, whose text is its address and "
          .. "differs from run to run: give its fields", method, at + i, t), 3)
      end
    end
    if select("#", ...) == 0 then return tostring(text) end
    local ok, line = pcall(string.format, text, ...)
    if not ok then
      error(string.format("%s(\"%s\"): %s", method, (tostring(text):gsub("\n", "\\n")), line), 3)
    end
    return line
  end
  local function log(self, text, ...)
    if self ~= ctx then dotted("log") end
    if S.record then emit.note(line_of("ctx:log", 1, text, ...)) end
  end
  -- ctx:tell(p, text, ...): a line of the log that only seat p is shown (what p drew into a
  -- hidden hand); bots and the other seats never see it.
  local function tell(self, p, text, ...)
    if self ~= ctx then dotted("tell") end
    emit.told(seat(p), line_of("ctx:tell", 2, text, ...))
  end
  -- While no events are recorded (batch games), ctx:log and ctx:tell are functions of fixed
  -- arguments that only check their table: a call with a variable number of arguments costs
  -- more even when it returns at once. ctx.logging says which (rules test it to skip building
  -- a line's arguments). S.record, ctx.log, ctx.tell and ctx.logging change together, here.
  local function unrecorded(self)
    if self ~= ctx then dotted("log") end
  end
  local function untold(self)
    if self ~= ctx then dotted("tell") end
  end
  function S.set_record(on)
    S.record = on
    native.put(ctx, "log", on and log or unrecorded)
    native.put(ctx, "tell", on and tell or untold)
    native.put(ctx, "logging", on)
  end
  ctx.log, ctx.tell, ctx.logging = log, tell, true

  -- board
  local board = ctx.board
  -- A token placed where it stands has not moved: nothing is logged.
  local function moved(s, to, laps)
    if S.record and (to ~= token[s] or laps > 0) then emit.move(s, to, laps) end
    token[s] = to
    return to, laps
  end
  function board:position(p)
    local t = token[p]
    if t == nil then
      if self ~= board then dotted("position") end
      t = token[seat(p)]
    end
    return t
  end
  -- board:move(p, steps) and board:owned_by(p) (the spaces p owns, in board order) are C
  -- functions (src/script/rawboard.rs) over `token` and `owned`, with the checks of seat()
  -- and integer().
  function board:advance_to(p, target)
    if self ~= board then dotted("advance_to") end
    local s, t = seat(p), space(target)
    if not looped then
      -- A line leads one way: forward only, and never round.
      if t <= token[s] then
        error(string.format("advance_to: space %d is not ahead of P%d (on space %d) on a track that does not loop; use place", t, s, token[s]), 2)
      end
      return moved(s, t, 0)
    end
    local steps = (t - token[s]) % nspaces
    if steps == 0 then steps = nspaces end
    local raw = token[s] - 1 + steps
    return moved(s, raw % nspaces + 1, raw // nspaces)
  end
  function board:place(p, target)
    if self ~= board then dotted("place") end
    local s, t = seat(p), space(target)
    moved(s, t, 0)
    return t
  end
  function board:owner(sp)
    if level[sp] == nil then
      if self ~= board then dotted("owner") end
      sp = space(sp)
    end
    return owner[sp]
  end
  -- owned[p]: the spaces p owns, in board order, for board:owned_by. It follows `owner`:
  -- made afresh whenever an owner changes (set_owner, or the runtime filling `owner`).
  local owned = {}
  S.owned = owned
  function S.owners_set()
    for s = 1, seats do owned[s] = {} end
    for i = 1, nspaces do
      local p = owner[i]
      if p then local list = owned[p]; list[#list + 1] = i end
    end
  end
  S.owners_set()
  function board:set_owner(sp, p)
    if self ~= board then dotted("set_owner") end
    local i = level[sp] ~= nil and sp or space(sp)
    owner[i] = p ~= nil and seat(p) or nil
    S.owners_set()
  end
  function board:level(sp)
    local l = level[sp]
    if l == nil then
      if self ~= board then dotted("level") end
      l = level[space(sp)]
    end
    return l
  end
  function board:set_level(sp, n)
    if self ~= board then dotted("set_level") end
    local i = level[sp] ~= nil and sp or space(sp)
    level[i] = mtype(n) == "integer" and n or integer(n, "level")
  end

  -- counters
  local counters = {}
  function counters:get(p, name)
    local c = column[name]
    local v = c and c[p]
    if v == nil then
      if self ~= counters then dotted("get") end
      v = col(name)[seat(p)]
    end
    return v
  end
  function counters:set(p, name, v)
    if self ~= counters then dotted("set") end
    local c, s = col(name), seat(p)
    c[s] = integer(v, "a counter value")
    return c[s]
  end
  function counters:add(p, name, by)
    local c, i = column[name], mtype(by) == "integer" and by or nil
    local v = c and c[p]
    if v == nil or i == nil then
      if self ~= counters then dotted("add") end
      c, p = col(name), seat(p)
      i = integer(by, "a counter change")
      v = c[p]
    end
    v = v + i
    if (i > 0 and v < c[p]) or (i < 0 and v > c[p]) then v = sum(c[p], i, name) end
    c[p] = v
    return v
  end
  -- Moves `amount` of counter `name` from seat `from` to seat `to` (a payment) in one call.
  function counters:transfer(from, to, name, amount)
    local c, i = column[name], mtype(amount) == "integer" and amount or nil
    local a, b = c and c[from], c and c[to]
    if a == nil or b == nil or i == nil then
      if self ~= counters then dotted("transfer") end
      c, from, to = col(name), seat(from), seat(to)
      i = integer(amount, "a counter transfer")
    end
    a, b = c[from] - i, c[to] + i
    if (i > 0 and (a > c[from] or b < c[to])) or (i < 0 and (a < c[from] or b > c[to])) then
      if i == math.mininteger then
        error(string.format("counter '%s' would overflow: a transfer of %d", name, i), 2)
      end
      a, b = sum(c[from], -i, name), sum(c[to], i, name)
    end
    c[from], c[to] = a, b
    return a, b
  end
  ctx.counter = counters

  board.owners = M.view(owner, nspaces, "ctx.board.owners", "ctx.board:set_owner")
  board.levels = M.view(level, nspaces, "ctx.board.levels", "ctx.board:set_level")
  board.positions = M.view(token, seats, "ctx.board.positions", "ctx.board:move, :advance_to or :place")
  local views = setmetatable({}, { __index = function(_, name)
    if type(rawget(counters, name)) == "function" then
      error(string.format("ctx.counters is for reading (ctx.counters.<name>[p]): '%s' is a "
        .. "method of ctx.counter, as ctx.counter:%s(...)", name, name), 2)
    end
    col(name)
  end })
  for name, c in pairs(column) do
    views[name] = M.view(c, seats, "ctx.counters." .. name, "ctx.counter:set or :add")
  end
  ctx.counters = M.view(views, #spec.counters, "ctx.counters", "ctx.counter:set or :add")
  S.zones = M.install_zones(ctx, spec)
  S.tallies = M.install_tally(ctx)
  M.strict_settings(ctx.settings)
  M.strict(ctx, "ctx")
  for _, part in ipairs({ "map", "board", "dice", "random", "deck", "melds" }) do
    M.strict(ctx[part], "ctx." .. part)
  end
  local read_as = {}
  for _, name in ipairs(spec.counters) do
    read_as[name] = string.format(
      "ctx.counter has the methods that change counters: read '%s' as ctx.counters.%s[p]", name, name)
  end
  M.strict(ctx.counter, "ctx.counter", nil, read_as)
  M.strict(ctx.grid, "ctx.grid", { rows = true, cols = true }) -- nil on a map that is no grid
  M.freeze_files(ctx)
  return S
end

-- Makes ctx and its parts read-only, once the runtime has filled them: the VM lives on from
-- one game to the next (sim and check play many in it), so a value kept there would carry
-- over, and would be in no snapshot. A write is an error at its line.
function M.seal(ctx)
  local function seal(t, name)
    local mt = getmetatable(t)
    if mt == nil then
      mt = {}
      setmetatable(t, mt)
    end
    mt.__newindex = function(_, key)
      error(string.format("%s.%s cannot be set: %s is the runtime's and lives on from one game "
        .. "to the next; keep what changes in G", name, tostring(key), name), 2)
    end
    native.freeze(t)
  end
  for _, part in ipairs({ "board", "dice", "random", "deck", "melds", "counter", "grid" }) do
    seal(ctx[part], "ctx." .. part)
  end
  seal(ctx, "ctx")
end

-- The fields the runtime gives every space and every card, beside their `data`.
local SPACE_FIELDS = { "id", "name", "kind", "group", "jump", "index" }
local CARD_FIELDS = { "id", "text", "effect", "deck", "index" }

-- Every field some row of `rows` has (such as a price some spaces have), and `fields`: what a
-- row may lack and read as nil, where another misspelt field is an error (`M.strict`).
local function fields_of(rows, fields)
  local known = {}
  for _, f in ipairs(fields) do known[f] = true end
  for _, row in ipairs(rows) do
    for k in pairs(row) do known[k] = true end
  end
  return known
end

-- Makes what the game's files say read-only: its settings, map, items, spaces and cards (each
-- space and card named alone, though several lists hold it).
function M.freeze_files(ctx)
  local known = fields_of(ctx.board.spaces, SPACE_FIELDS)
  for _, sp in ipairs(ctx.board.spaces) do
    local name = string.format("space '%s'", sp.id)
    M.strict(sp, name, known)
    M.freeze(sp, name)
  end
  local cards = {}
  for _, deck in pairs(ctx.decks) do table.move(deck.cards, 1, #deck.cards, #cards + 1, cards) end
  known = fields_of(cards, CARD_FIELDS)
  for id, deck in pairs(ctx.decks) do
    for _, c in ipairs(deck.cards) do
      local name = string.format("card '%s' of deck '%s'", c.id, id)
      M.strict(c, name, known)
      M.freeze(c, name)
    end
  end
  for _, name in ipairs({ "settings", "map", "items", "decks" }) do M.freeze(ctx[name], "ctx." .. name) end
  for _, name in ipairs({ "spaces", "by_id", "groups", "group_names" }) do
    M.freeze(ctx.board[name], "ctx.board." .. name)
  end
end

-- Makes `t` and every table in it read-only: a write is an error at its line naming `name`. A
-- change kept there would be in no snapshot, so undo, saves, replays and a bot's search would
-- all miss it. Reads cost what they did: the flag is the VM's (`native.freeze`).
function M.freeze(t, name)
  for k, v in next, t do
    if type(v) == "table" and getmetatable(v) ~= false then
      M.freeze(v, type(k) == "string" and (name .. "." .. k) or string.format("%s[%s]", name, tostring(k)))
    end
  end
  local message = name .. " is read-only: it holds what the game's files say; keep what changes in G"
  local mt = getmetatable(t)
  if mt == nil then
    mt = {}
    setmetatable(t, mt)
  end
  mt.__newindex = function() error(message, 2) end
  mt.__metatable = false
  native.freeze(t)
end

-- `ctx:tally(name, key [, by])`: adds `by` (default 1) to a statistic for `sim`. The counts
-- live in the returned table (name -> key -> count), which the runtime copies to and from
-- its snapshot; a name and key counted before are counted without a check. Numbers are taken
-- as their text.
function M.install_tally(ctx)
  local tallies = {}
  local function text(v, what)
    local t = type(v)
    if t == "number" then return tostring(v) end
    if t ~= "string" then error(string.format("%s, got %s", what, t), 3) end
    if not utf8.len(v) then error(what .. ", got invalid UTF-8", 3) end
    return v
  end
  function ctx:tally(name, key, by)
    local t = tallies[name]
    local n = t and t[key]
    if n and by == nil and n < math.maxinteger then
      t[key] = n + 1
      return
    end
    if self ~= ctx then dotted("tally") end
    local amount = 1
    if by ~= nil then
      amount = toint(by)
      if not amount or amount < 0 then error("ctx:tally: the amount must be a whole number ≥ 0", 2) end
    end
    name = text(name, "ctx:tally expects a statistic name (a string)")
    key = text(key, "ctx:tally expects a key (a string)")
    t = tallies[name]
    if not t then
      t = {}
      tallies[name] = t
    end
    local was = t[key] or 0
    if was + amount < was then error(string.format("ctx:tally: '%s' '%s' would overflow", name, key), 2) end
    t[key] = was + amount
  end
  return tallies
end

-- The hint for a name `typed` in Lua that game.toml declares nearly so, as `near`: either one
-- may be the misspelt one (`; did you mean 'laps', or should game.toml say 'lap'?`).
function M.declared_hint(typed, near)
  if not near then return "" end
  return string.format("; did you mean '%s', or should game.toml say '%s'?", near, typed)
end

-- Reading a setting game.toml does not declare is an error at the reading line (a misspelt
-- name read as nil and failed later, or never); declared settings are read as plain fields,
-- without the metamethod.
function M.strict_settings(settings)
  local declared = {}
  for name in pairs(settings) do declared[#declared + 1] = tostring(name) end
  table.sort(declared)
  setmetatable(settings, { __index = function(_, name)
    local near = M.did_you_mean(tostring(name), declared)
    error(string.format("no setting '%s'%s (game.toml [settings] declares: %s)", tostring(name),
      M.declared_hint(tostring(name), near), table.concat(declared, ", ")), 2)
  end })
end

-- Reading a field `name` (ctx, ctx.board, …) lacks but that is close to one it has is an
-- error at the reading line naming that one (a misspelling read as nil failed later, or
-- never). Any other missing field reads as nil, as do the `optional` ones it may lack;
-- fields it has are read without the metamethod.
-- `hints`: keys a reader may mistake for a field, with what to say instead.
function M.strict(t, name, optional, hints)
  setmetatable(t, { __index = function(_, key)
    if optional and optional[key] then return nil end
    if hints and hints[key] then error(hints[key], 2) end
    local fields = {}
    for k in pairs(t) do
      if type(k) == "string" then fields[#fields + 1] = k end
    end
    table.sort(fields)
    local near = M.did_you_mean(tostring(key), fields)
    if near then
      error(string.format("%s has no field '%s'; did you mean '%s'?", name, tostring(key), near), 2)
    end
  end })
end

-- A read-only view of the live table t (n entries): reading view[i] reads t[i] without a
-- call; writing is an error that names `name` and the function (`change`) that changes it.
-- The metatable is hidden (getmetatable gives false), so the live table cannot be reached.
-- What eval (and the console) shows of `v`: a copy in which each read-only view (its
-- metatable hidden, as M.view's are) holds what it reads; a table with a metatable of its own
-- stays as it is, and a cycle stays a cycle.
function M.readable(v, seen)
  if type(v) ~= "table" then return v end
  local mt = getmetatable(v)
  if mt ~= nil and mt ~= false then return v end
  seen = seen or {}
  if seen[v] then return seen[v] end
  local out = {}
  seen[v] = out
  for k, x in pairs(v) do out[k] = M.readable(x, seen) end
  return out
end

function M.view(t, n, name, change)
  local message = string.format("%s is read-only: change it with %s", name, change)
  return setmetatable({}, {
    __index = t,
    __newindex = function() error(message, 2) end,
    __len = function() return n end,
    __pairs = function() return next, t, nil end,
    __metatable = false,
  })
end

-- Zones: piles of integer item codes (tiles, cards). ctx.zone.<name> is one pile, or a list
-- of piles indexed by seat when the zone is per seat. The runtime fills pile.list in place;
-- the rules read it and change a pile through its methods only (a pile is read-only).
local Pile = { __name = "pile" }
Pile.__index = Pile

-- The number of item codes the game names (`items` in game.toml), 0 when it names none; set
-- by install_zones. Codes run from 0 to kinds - 1.
local kinds = 0

-- A pile's method misspelled (pile:srot()) is an error naming the one meant, at the reading
-- line; methods found are read without this.
M.strict(Pile, "a pile")

-- A zone per seat is a list of piles: reading a pile's method or field on the list itself is
-- an error saying to take one seat's pile, and so is reading a seat's pile for no seat
-- (ctx.zone.hand[0]); the one past the last seat reads nil, as `ipairs` ends there.
local function per_seat(piles, name)
  local seats = #piles
  setmetatable(piles, {
    __index = function(_, key)
      if type(key) == "string" and (rawget(Pile, key) ~= nil or key == "list") then
        local use = key == "list" and ".list" or (":" .. key .. "(…)")
        error(string.format("ctx.zone.%s holds a pile per seat: take one, as ctx.zone.%s[p]%s",
          name, name, use), 2)
      end
      if type(key) == "number" and key ~= seats + 1 then
        error(string.format("ctx.zone.%s holds a pile per seat, 1 to %d: there is no "
          .. "ctx.zone.%s[%s]", name, seats, name, tostring(key)), 2)
      end
    end,
    __newindex = function()
      error(string.format("ctx.zone.%s is the runtime's list of the zone's piles, one per seat: "
        .. "it cannot be changed", name), 2)
    end,
  })
  return native.freeze(piles)
end

-- A pile's fields are the runtime's: setting one (pile.list = {}) is an error at its line.
function Pile.__newindex(pile)
  error(string.format("%s is a pile: its fields cannot be set; change what it holds with its "
    .. "methods (add, take, move, deal, clear, …)", pile.shown), 2)
end

local function item(v)
  local i = mtype(v) == "integer" and v or toint(v)
  if not i then
    local hint = type(v) == "table" and " (a list of items is added as pile:add(table.unpack(list)))" or ""
    error(string.format("items are integer codes, got %s%s", type(v) == "table" and "a table" or shown(v), hint), 3)
  end
  if kinds > 0 and (i < 0 or i >= kinds) then
    error(string.format("item code %d out of range (game.toml names %d items: 0..%d)", i, kinds, kinds - 1), 3)
  end
  return i
end

-- Each pile's live list, by pile: a method finds its list here, so that a call with a dot
-- (pile.has(5)) or on something that is not a pile reads nil instead of failing in here.
local lists = setmetatable({}, { __mode = "k" })

-- A method called with a dot (pile.count()) or on something that is not a pile: an error at
-- the caller's line (level 3: the method's caller).
local function misuse(method, self)
  if type(self) ~= "table" then error(native.colon(method), 3) end
  error(string.format("%s: call it on a pile with a colon (pile:%s(...))", method, method), 3)
end

-- A count argument: a whole number, at least 0.
local function amount(n, method)
  local i = toint(n)
  if not i or i < 0 then
    error(string.format("%s: expected a whole number of at least 0, got %s", method, shown(n)), 3)
  end
  return i
end

-- A method that takes nothing, given something (pile:take(12)): an error at the caller's line.
local function takes_nothing(method, extra)
  local hint = method == "take"
    and " (it takes the top item; pile:remove(v) takes out item v, pile:move(v, to) moves it)" or ""
  error(string.format("pile:%s() takes no argument, got %s%s", method, shown(extra), hint), 3)
end

function Pile:count(extra)
  local items = lists[self]
  if not items then misuse("count", self) end
  if extra ~= nil then takes_nothing("count", extra) end
  return #items
end
function Pile:items(extra)
  local items = lists[self]
  if not items then misuse("items", self) end
  if extra ~= nil then takes_nothing("items", extra) end
  return table.move(items, 1, #items, 1, {})
end
function Pile:top(extra)
  local items = lists[self]
  if not items then misuse("top", self) end
  if extra ~= nil then takes_nothing("top", extra) end
  return items[#items]
end
function Pile:add(...)
  local items = lists[self]
  if not items then misuse("add", self) end
  for k = 1, select("#", ...) do items[#items + 1] = item((select(k, ...))) end
end
local function take(items)
  local n = #items
  if n == 0 then return nil end
  local v = items[n]
  items[n] = nil
  return v
end
function Pile:take(extra)
  local items = lists[self]
  if not items then misuse("take", self) end
  if extra ~= nil then takes_nothing("take", extra) end
  return take(items)
end
local function remove(items, v)
  for i = #items, 1, -1 do
    if items[i] == v then
      table.remove(items, i)
      return true
    end
  end
  return false
end
function Pile:remove(v)
  local items = lists[self]
  if not items then misuse("remove", self) end
  return remove(items, v)
end
function Pile:has(v)
  local items, n = lists[self], 0
  if not items then misuse("has", self) end
  for i = 1, #items do if items[i] == v then n = n + 1 end end
  return n
end
-- pile:counts(k): a list of k counts, count c + 1 the copies of item code c (a C function,
-- src/script/rawoptions.rs: hands are counted on every decision).
Pile.counts = native.counts
function Pile:clear(extra)
  local items, out = lists[self], {}
  if not items then misuse("clear", self) end
  if extra ~= nil then takes_nothing("clear", extra) end
  for i = #items, 1, -1 do
    out[i] = items[i]
    items[i] = nil
  end
  return out
end
function Pile:sort(extra)
  local items = lists[self]
  if not items then misuse("sort", self) end
  if extra ~= nil then takes_nothing("sort", extra) end
  table.sort(items)
end
-- Moves one copy of v to another pile; false (and nothing moves) when v is not here.
function Pile:move(v, to)
  local items = lists[self]
  if not items then misuse("move", self) end
  if getmetatable(to) ~= Pile then error("move: the target must be a zone pile", 2) end
  if not remove(items, v) then return false end
  local l = to.list
  l[#l + 1] = v
  return true
end
-- Moves up to n items from the top of this pile to another; returns how many moved.
function Pile:deal(to, n)
  local items = lists[self]
  if not items then misuse("deal", self) end
  if getmetatable(to) ~= Pile then error("deal: the target must be a zone pile", 2) end
  local moved, l = 0, to.list
  for _ = 1, amount(n, "deal") do
    local v = take(items)
    if v == nil then break end
    l[#l + 1] = v
    moved = moved + 1
  end
  return moved
end
function Pile:shuffle(extra)
  local items = lists[self]
  if not items then misuse("shuffle", self) end
  if extra ~= nil then takes_nothing("shuffle", extra) end
  self.random:shuffle(items)
end

function M.install_zones(ctx, spec)
  kinds = #ctx.items
  -- ctx:item(code): a new table of the item's code, name and the fields game.toml gives it
  -- (plain data: the caller may keep it, in G too, or change its copy). Reading a field
  -- close to one items have is an error at the reading line (a misspelt `suite` read as
  -- nil would compare equal to every other nil).
  local items, fields, copy, own = spec.items, {}, native.copy, {}
  for k in pairs(items[1] or {}) do fields[#fields + 1] = k end
  for _, k in ipairs(spec.own_fields) do own[k] = true end
  table.sort(fields)
  local strict = { __index = function(t, key)
    local near = type(key) == "string" and M.did_you_mean(key, fields)
    if near then
      -- code, name and label are every item's own; game.toml gives the other fields.
      local hint = own[near] and string.format("; did you mean '%s'?", near)
        or M.declared_hint(key, near)
      error(string.format("item '%s' has no field '%s'%s", t.name, key, hint), 2)
    end
  end }
  function ctx:item(code)
    if self ~= ctx then dotted("item") end
    local t = items[(item(code)) + 1]
    if not t then error("this game names no items: ctx:item needs [items] in game.toml", 2) end
    return copy(t, strict, fields)
  end
  local zones, by_name = {}, {}
  for z, def in ipairs(spec.zones) do
    local piles = {}
    for p = 1, def.per_seat and spec.seats or 1 do
      local shown = def.per_seat and string.format("ctx.zone.%s[%d]", def.name, p) or ("ctx.zone." .. def.name)
      local pile = setmetatable({ list = {}, name = def.name, shown = shown, random = ctx.random }, Pile)
      lists[pile] = pile.list
      piles[p] = native.freeze(pile)
    end
    zones[z] = piles
    by_name[def.name] = def.per_seat and per_seat(piles, def.name) or piles[1]
  end
  local names = {}
  for _, def in ipairs(spec.zones) do names[#names + 1] = def.name end
  ctx.zone = setmetatable(by_name, {
    __index = function(_, name)
      local near = M.did_you_mean(tostring(name), names)
      error(string.format("unknown zone '%s'%s (game.toml [zones] declares: %s)", tostring(name),
        near and string.format("; did you mean '%s'?", near) or "",
        #names > 0 and table.concat(names, ", ") or "none"), 2)
    end,
    __newindex = function(_, name)
      error(string.format("ctx.zone holds the zones game.toml declares: zone '%s' cannot be set",
        tostring(name)), 2)
    end,
  })
  native.freeze(ctx.zone)
  return zones
end

return M
