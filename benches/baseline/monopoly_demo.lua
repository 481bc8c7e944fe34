-- Baseline: monopoly_demo.py (the demo-map property game as a plain script) ported line by
-- line to Lua, run inside the game's own VM by `cargo bench --bench monopoly -- plain_lua`
-- (`ctx.random` for the dice, shuffles and tie-breaks, everything else plain tables and loops;
-- positions and seats count from 1). It shows what the same rules cost in this VM without the
-- runtime: no flow, no options or scores, no other ctx calls, no checks. Plays GAMES games (a
-- local the bench puts before the first line), returns the dice moves.
local SALARY, START_CASH, TAX, ROUND_CAP = 200, 1500, 100, 300
local JAIL_FINE, JAIL_TURNS = 50, 3
local BUY_MARGIN, COMPLETE_MARGIN, BUILD_RESERVE, UNMORTGAGE_RESERVE = 0.5, 0.1, 250, 400

local NORTH = {20, 150, 450, 1100, 1500, 1900}
local SOUTH = {25, 200, 550, 1300, 1700, 2100}
local EAST = {35, 250, 700, 1500, 1900, 2300}
local SPACES = { -- name, kind, price, house_cost, rent[6], group
  {"go", "go", 0, 0, nil, nil},
  {"beijing", "property", 200, 100, NORTH, "north"},
  {"chance", "chance", 0, 0, nil, nil},
  {"shanghai", "property", 200, 100, NORTH, "north"},
  {"tax", "tax", 0, 0, nil, nil},
  {"guangzhou", "property", 240, 150, SOUTH, "south"},
  {"jail", "jail", 0, 0, nil, nil},
  {"shenzhen", "property", 240, 150, SOUTH, "south"},
  {"parking", "parking", 0, 0, nil, nil},
  {"hangzhou", "property", 280, 200, EAST, "east"},
}
local GROUPS = {}
for i, s in ipairs(SPACES) do
  local g = s[6]
  if g then
    GROUPS[g] = GROUPS[g] or {}
    table.insert(GROUPS[g], i)
  end
end
local CARDS = {{"advance", 1}, {"advance", 10}, {"back", 3}, {"jail", 0}, {"free", 0}, {"collect", 100}, {"pay", 50}, {"each", 20}}
local FREE = 5 -- the get-out-of-jail card, kept until used
local N, JAIL = #SPACES, 7
local rnd = ctx.random

-- Plays one game, adding its dice moves to `landed` (by space); returns the rounds and
-- whether it finished.
local function play_game(landed, players)
  local cash, pos, alive, in_jail, jail_turns, free_card, bought = {}, {}, {}, {}, {}, {}, {}
  for p = 1, players do
    cash[p], pos[p], alive[p], in_jail[p], jail_turns[p], free_card[p], bought[p] = START_CASH, 1, true, false, 0, false, {}
  end
  local owner, level, mortgaged = {}, {}, {}
  for i = 1, N do level[i], mortgaged[i] = 0, false end
  local deck, discard = {}, {}
  for i = 1, #CARDS do deck[i] = i end
  rnd:shuffle(deck)
  local current, round, nalive = 1, 1, players

  local function whole(p, i)
    local group = GROUPS[SPACES[i][6]]
    if #group < 2 then return false end
    for _, j in ipairs(group) do
      if owner[j] ~= p then return false end
    end
    return true
  end

  local function built(i)
    for _, j in ipairs(GROUPS[SPACES[i][6]]) do
      if level[j] > 0 then return true end
    end
    return false
  end

  local function raise_cash(p, amount)
    local b = bought[p]
    while cash[p] < amount do
      local to_mortgage, to_sell, top = nil, nil, 0
      for k = #b, 1, -1 do
        local i = b[k]
        if to_mortgage == nil and not mortgaged[i] and not built(i) then to_mortgage = i end
        if level[i] > top then to_sell, top = i, level[i] end
      end
      if to_mortgage then
        mortgaged[to_mortgage] = true
        cash[p] = cash[p] + SPACES[to_mortgage][3] // 2
      elseif to_sell then
        level[to_sell] = level[to_sell] - 1
        cash[p] = cash[p] + SPACES[to_sell][4] // 2
      else
        return
      end
    end
  end

  local function pay(p, amount, creditor)
    raise_cash(p, amount)
    if cash[p] >= amount then
      cash[p] = cash[p] - amount
      if creditor then cash[creditor] = cash[creditor] + amount end
      return true
    end
    if creditor then cash[creditor] = cash[creditor] + cash[p] end
    cash[p], alive[p], in_jail[p], nalive = 0, false, false, nalive - 1
    for _, i in ipairs(bought[p]) do owner[i], level[i], mortgaged[i] = nil, 0, false end
    bought[p] = {}
    if free_card[p] then
      free_card[p] = false
      discard[#discard + 1] = FREE
    end
    return false
  end

  local function send_to_jail(p)
    pos[p], in_jail[p], jail_turns[p] = JAIL, true, 0
  end

  -- Houses, one at a time, while one is safe to build: returns how many.
  local function build(p)
    local n = 0
    while true do
      local safe = {}
      for _, i in ipairs(bought[p]) do
        local even = level[i] < 5
        for _, j in ipairs(GROUPS[SPACES[i][6]]) do
          if mortgaged[j] or level[j] < level[i] then even = false end
        end
        if whole(p, i) and even and cash[p] - SPACES[i][4] >= BUILD_RESERVE then safe[#safe + 1] = i end
      end
      if #safe == 0 then return n end
      local i = safe[rnd:int(1, #safe)]
      cash[p] = cash[p] - SPACES[i][4]
      level[i] = level[i] + 1
      n = n + 1
    end
  end

  -- Mortgages lifted, one at a time, while rich enough: returns how many.
  local function lift(p)
    local n = 0
    while true do
      local rich = {}
      for _, i in ipairs(bought[p]) do
        if mortgaged[i] and cash[p] >= UNMORTGAGE_RESERVE + SPACES[i][3] then rich[#rich + 1] = i end
      end
      if #rich == 0 then return n end
      local i = rich[rnd:int(1, #rich)]
      local loan = SPACES[i][3] // 2
      cash[p] = cash[p] - (loan + loan // 10)
      mortgaged[i] = false
      n = n + 1
    end
  end

  local function settle(p)
    local i = pos[p]
    local sp = SPACES[i]
    local kind, price = sp[2], sp[3]
    if kind == "property" then
      local o = owner[i]
      if o == nil then
        local completes = true
        for _, j in ipairs(GROUPS[sp[6]]) do
          if j ~= i and owner[j] ~= p then completes = false end
        end
        local margin = completes and COMPLETE_MARGIN or BUY_MARGIN
        if cash[p] - price >= margin * price then
          cash[p] = cash[p] - price
          owner[i] = p
          table.insert(bought[p], i)
        end
      elseif o ~= p and not mortgaged[i] then
        local r = sp[5][level[i] + 1]
        if level[i] == 0 and whole(o, i) then r = r * 2 end
        pay(p, r, o)
      end
    elseif kind == "tax" then
      pay(p, TAX, nil)
    elseif kind == "chance" then
      if #deck == 0 then
        for k = 1, #discard do
          deck[k], discard[k] = discard[k], nil
        end
        rnd:shuffle(deck)
      end
      local card = table.remove(deck)
      local what, arg = CARDS[card][1], CARDS[card][2]
      if what == "free" then free_card[p] = true else discard[#discard + 1] = card end
      if what == "advance" then
        if arg <= pos[p] then cash[p] = cash[p] + SALARY end
        pos[p] = arg
        settle(p)
      elseif what == "back" then
        pos[p] = (pos[p] - 1 - arg) % N + 1
        settle(p)
      elseif what == "jail" then
        send_to_jail(p)
      elseif what == "collect" then
        cash[p] = cash[p] + arg
      elseif what == "pay" then
        pay(p, arg, nil)
      elseif what == "each" then
        for q = 1, players do
          if q ~= p and alive[q] then pay(q, arg, p) end
        end
      end
    end
  end

  while nalive > 1 and round <= ROUND_CAP do
    local p = current
    local doubles = 0
    while alive[p] and nalive > 1 do
      while build(p) > 0 or lift(p) > 0 do end
      if in_jail[p] and free_card[p] then
        free_card[p], in_jail[p] = false, false
        discard[#discard + 1] = FREE
      elseif in_jail[p] and cash[p] > 4 * JAIL_FINE then
        cash[p] = cash[p] - JAIL_FINE
        in_jail[p] = false
      end
      local d1, d2 = rnd:int(1, 6), rnd:int(1, 6)
      local again = false
      if in_jail[p] then
        jail_turns[p] = jail_turns[p] + 1
        if d1 ~= d2 and jail_turns[p] < JAIL_TURNS then break end
        in_jail[p] = false
      elseif d1 == d2 then
        doubles = doubles + 1
        if doubles == 3 then
          send_to_jail(p)
          landed[JAIL] = landed[JAIL] + 1
          break
        end
        again = true
      end
      local new = pos[p] - 1 + d1 + d2
      if new >= N then cash[p] = cash[p] + SALARY end
      pos[p] = new % N + 1
      settle(p)
      if alive[p] then landed[pos[p]] = landed[pos[p]] + 1 end
      if not again or in_jail[p] then break end
    end
    if nalive == 1 then return round, true end
    local nxt = current % players + 1
    while not alive[nxt] do nxt = nxt % players + 1 end
    if nxt <= current then round = round + 1 end
    current = nxt
  end
  return ROUND_CAP, false
end

local landed = {}
for i = 1, N do landed[i] = 0 end
for _ = 1, GAMES do play_game(landed, 4) end
local moves = 0
for i = 1, N do moves = moves + landed[i] end
return moves
