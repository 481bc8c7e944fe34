-- Baseline: monopoly_demo.py (the demo-map property game as a plain script) ported line by
-- line to Lua, run inside the game's own VM by `cargo bench --bench monopoly -- plain_lua`
-- (`ctx.random` for the dice and shuffles, everything else plain tables and loops; positions
-- and seats count from 1). It shows what the same rules cost in this VM without the runtime:
-- no flow, no options or scores, no other ctx calls, no checks. Plays GAMES games (a local the
-- bench puts before the first line), returns the dice moves.
local SALARY = 50
local SPACES = {
  {"go", 0, 0, nil, nil},
  {"property", 100, 50, {10, 50, 150, 300, 450, 600}, "north"},
  {"chance", 0, 0, nil, nil},
  {"property", 120, 50, {12, 60, 180, 360, 500, 650}, "north"},
  {"tax", 100, 0, nil, nil},
  {"property", 160, 100, {16, 80, 220, 500, 700, 900}, "south"},
  {"jail", 0, 0, nil, nil},
  {"property", 180, 100, {18, 90, 250, 550, 750, 950}, "south"},
  {"parking", 0, 0, nil, nil},
  {"property", 200, 100, {20, 100, 300, 600, 800, 1000}, "east"},
}
local GROUPS = {}
for i, s in ipairs(SPACES) do
  local g = s[5]
  if g then
    GROUPS[g] = GROUPS[g] or {}
    table.insert(GROUPS[g], i)
  end
end
local CARDS = {{"advance", 1}, {"advance", 10}, {"back", 3}, {"jail", 0}, {"free", 0}, {"collect", 100}, {"pay", 50}, {"each", 20}}
local N, JAIL = #SPACES, 7
local rnd = ctx.random

local function play_game(players, round_cap)
  local cash, pos, alive, in_jail, tries, free_card, bought = {}, {}, {}, {}, {}, {}, {}
  for p = 1, players do
    cash[p], pos[p], alive[p], in_jail[p], tries[p], free_card[p], bought[p] = 1500, 1, true, false, 0, false, {}
  end
  local owner, level = {}, {}
  for i = 1, N do level[i] = 0 end
  local deck, discard = {}, {}
  for i = 1, #CARDS do deck[i] = i end
  rnd:shuffle(deck)
  local moves, current, round, nalive = 0, 1, 1, players

  local function pay(p, amount, creditor)
    if cash[p] < amount then
      local b = bought[p]
      for k = #b, 1, -1 do
        local i = b[k]
        while level[i] > 0 and cash[p] < amount do
          level[i] = level[i] - 1
          cash[p] = cash[p] + SPACES[i][3] // 2
        end
      end
      while #b > 0 and cash[p] < amount do
        local i = table.remove(b)
        owner[i] = nil
        cash[p] = cash[p] + SPACES[i][2] // 2
      end
    end
    if cash[p] >= amount then
      cash[p] = cash[p] - amount
      if creditor then cash[creditor] = cash[creditor] + amount end
      return true
    end
    if creditor then cash[creditor] = cash[creditor] + cash[p] end
    cash[p], alive[p], nalive = 0, false, nalive - 1
    for i = 1, N do if owner[i] == p then owner[i], level[i] = nil, 0 end end
    bought[p] = {}
    return false
  end

  local function land(p)
    local i = pos[p]
    local sp = SPACES[i]
    local kind = sp[1]
    if kind == "property" then
      local o = owner[i]
      if o == nil then
        if cash[p] - sp[2] >= 0.5 * sp[2] then
          cash[p] = cash[p] - sp[2]
          owner[i] = p
          table.insert(bought[p], i)
        end
      elseif o ~= p then
        local lv = level[i]
        local r = sp[4][lv + 1]
        if lv == 0 then
          local all = true
          for _, j in ipairs(GROUPS[sp[5]]) do
            if owner[j] ~= o then
              all = false
              break
            end
          end
          if all then r = r * 2 end
        end
        pay(p, r, o)
      end
    elseif kind == "tax" then
      pay(p, 100, nil)
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
        land(p)
      elseif what == "back" then
        pos[p] = (pos[p] - 1 - arg) % N + 1
        land(p)
      elseif what == "jail" then
        pos[p], in_jail[p], tries[p] = JAIL, true, 0
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

  while nalive > 1 and round <= round_cap do
    local p = current
    for _, i in ipairs(bought[p]) do
      local all = true
      for _, j in ipairs(GROUPS[SPACES[i][5]]) do
        if owner[j] ~= p then
          all = false
          break
        end
      end
      if all and level[i] < 5 and cash[p] - SPACES[i][3] >= 250 then
        cash[p] = cash[p] - SPACES[i][3]
        level[i] = level[i] + 1
      end
    end
    local doubles = 0
    while alive[p] do
      local d1, d2 = rnd:int(1, 6), rnd:int(1, 6)
      local again, stop = false, false
      if in_jail[p] then
        if free_card[p] then
          free_card[p], in_jail[p] = false, false
        elseif d1 == d2 then
          in_jail[p] = false
        else
          tries[p] = tries[p] + 1
          if tries[p] < 3 then
            stop = true
          else
            in_jail[p] = false
            if not pay(p, 50, nil) then stop = true end
          end
        end
        again = false
      else
        again = d1 == d2
        if again then
          doubles = doubles + 1
          if doubles == 3 then
            pos[p], in_jail[p], tries[p] = JAIL, true, 0
            moves = moves + 1
            stop = true
          end
        end
      end
      if stop then break end
      local new = pos[p] - 1 + d1 + d2
      if new >= N then cash[p] = cash[p] + SALARY end
      pos[p] = new % N + 1
      land(p)
      moves = moves + 1
      if not again or in_jail[p] then break end
    end
    local nxt = current % players + 1
    while not alive[nxt] do nxt = nxt % players + 1 end
    if nxt <= current then round = round + 1 end
    current = nxt
  end
  return moves
end

local moves = 0
for _ = 1, GAMES do moves = moves + play_game(4, 300) end
return moves
