-- 大富翁 Monopoly: the rules. The runtime owns cash (counter "cash"), token positions, space
-- owners and building levels (ctx.board); G keeps the rest: jail status, doubles, purchase
-- order, bankruptcy, mortgages and statistics.
---@class Rules: meeple.Rules
local R = {}

local function space_at(ctx, p) return ctx.board.spaces[ctx.board.positions[p]] end
local OWNABLE = { property = true, railroad = true, utility = true }

function R.setup(G, ctx)
  G.players = {}
  for p = 1, ctx:seats() do
    ctx.counter:set(p, "cash", ctx.settings.start_cash)
    G.players[p] = { in_jail = false, jail_tries = 0, doubles = 0, bought = {}, whole = {},
                     bankrupt = false }
  end
  G.mortgaged = {}          -- space id -> true
  G.mortgages = 0           -- how many spaces are mortgaged (set_mortgaged keeps it)
  G.again = false           -- the current player rolled doubles and rolls again
  G.last_roll = 0
  G.bankruptcies = 0
  G.houses_built = 0
  G.jail_index = ctx.board.by_id.jail and ctx.board.by_id.jail.index or 1
end

-- Groups -------------------------------------------------------------------------------------

-- ctx.board.groups[name] lists a group's spaces in board order; ctx.board.group_names the
-- groups in board order of their first space.
local NO_SPACES = {}
local function group_spaces(ctx, group)
  return ctx.board.groups[group] or NO_SPACES
end
R.group_spaces = group_spaces

local function owns_group(ctx, p, group)
  local owners, list = ctx.board.owners, ctx.board.groups[group] or NO_SPACES
  for i = 1, #list do
    if owners[list[i].index] ~= p then return false end
  end
  return true
end

local function count_owned(ctx, p, group)
  local owners, list, n = ctx.board.owners, ctx.board.groups[group] or NO_SPACES, 0
  for i = 1, #list do
    if owners[list[i].index] == p then n = n + 1 end
  end
  return n
end
R.owns_group, R.count_owned = owns_group, count_owned

-- Whether p owns the property group `group` entirely (only such a group can take buildings).
local function owns_whole(ctx, p, group)
  return ctx.board.groups[group][1].kind == "property" and owns_group(ctx, p, group)
end

-- The property groups p owns entirely, in board order.
local function whole_groups(ctx, p)
  local names, out = ctx.board.group_names, {}
  for g = 1, #names do
    if owns_whole(ctx, p, names[g]) then out[#out + 1] = names[g] end
  end
  return out
end

-- Whether `group` is in the list `whole`.
local function holds(whole, group)
  for i = 1, #whole do
    if whole[i] == group then return true end
  end
  return false
end

-- Every change of owner goes through here, which keeps G.players[p].whole, the groups p owns
-- entirely, up to date for the previous and the new owner. Rent, building and the mortgage
-- menu read that list: a scenario gives a player a space with R.acquire, not by hand with
-- ctx.board:set_owner. A change of owner can only break the space's own group as a whole
-- for the previous owner and only make it for the new one, so a list is made afresh only then
-- (or when a save from before the lists were kept has none).
local function set_owner(G, ctx, index, p)
  local board = ctx.board
  local before, group = board.owners[index], board.spaces[index].group
  board:set_owner(index, p)
  if not group then return end
  if before then
    local had = G.players[before].whole
    if not had or holds(had, group) then G.players[before].whole = whole_groups(ctx, before) end
  end
  if p and (owns_whole(ctx, p, group) or not G.players[p].whole) then
    G.players[p].whole = whole_groups(ctx, p)
  end
end
-- The kept list (a save from before it was kept gets it counted afresh).
local function whole_of(G, ctx, p)
  return G.players[p].whole or whole_groups(ctx, p)
end
-- The count of mortgaged spaces the turn asks about (a save from before it was kept gets it
-- counted afresh).
local function mortgage_count(G)
  if not G.mortgages then
    local n = 0
    for _ in pairs(G.mortgaged) do n = n + 1 end
    G.mortgages = n
  end
  return G.mortgages
end
-- Every change of a mortgage goes through here, which keeps G.mortgages.
local function set_mortgaged(G, id, on)
  if (G.mortgaged[id] == true) ~= on then
    G.mortgages = mortgage_count(G) + (on and 1 or -1)
    G.mortgaged[id] = on or nil
  end
end
-- p becomes the owner of the space at `index` by buying it (kept last in p's purchases).
local function acquire(G, ctx, index, p)
  set_owner(G, ctx, index, p)
  table.insert(G.players[p].bought, index)
end
R.acquire = acquire

-- Money --------------------------------------------------------------------------------------

-- Sells buildings (highest first, last bought first on ties), then properties (last bought
-- first) at sell_percent of their cost until p holds `amount`.
local function raise(G, ctx, p, amount)
  local pct = ctx.settings.sell_percent
  local bought = G.players[p].bought
  while ctx.counters.cash[p] < amount do
    local best, best_level = nil, 0
    for i = #bought, 1, -1 do
      local level = ctx.board.levels[bought[i]]
      if level > best_level then best, best_level = bought[i], level end
    end
    if not best then break end
    ctx.board:set_level(best, best_level - 1)
    local sp = ctx.board.spaces[best]
    ctx.counter:add(p, "cash", sp.house_cost * pct // 100)
    ctx:log("P%d sells a building on %s", p, sp.name)
  end
  while ctx.counters.cash[p] < amount and #bought > 0 do
    local index = bought[#bought]
    local sp = ctx.board.spaces[index]
    local value = G.mortgaged[sp.id] and 0 or sp.price * pct // 100
    set_mortgaged(G, sp.id, false)
    set_owner(G, ctx, index, nil)
    table.remove(bought)
    ctx.counter:add(p, "cash", value)
    ctx:log("P%d sells %s for %s%d", p, sp.name, ctx.settings.currency, value)
  end
end

local function bankrupt(G, ctx, p, cause)
  for _, index in ipairs(ctx.board:owned_by(p)) do
    set_mortgaged(G, ctx.board.spaces[index].id, false)
    set_owner(G, ctx, index, nil)
    ctx.board:set_level(index, 0)
  end
  for _, card in ipairs(ctx.deck:held(p)) do ctx.deck:give_back(card.deck, card) end
  G.players[p].bought = {}
  G.players[p].in_jail = false
  G.players[p].bankrupt = true
  ctx.counter:set(p, "cash", 0)
  G.bankruptcies = G.bankruptcies + 1
  ctx:tally("bankrupt", cause)
  ctx:log("P%d is bankrupt (%s)", p, cause)
  ctx:eliminate(p)
end

-- p pays `amount` to `creditor` (nil: the bank). Returns false when p went bankrupt.
local function pay(G, ctx, p, amount, creditor, cause)
  if amount <= 0 then return true end
  local have = ctx.counters.cash[p]
  if have < amount then
    raise(G, ctx, p, amount)
    have = ctx.counters.cash[p]
  end
  if have >= amount then
    if creditor then
      ctx.counter:transfer(p, creditor, "cash", amount)
    else
      ctx.counter:add(p, "cash", -amount)
    end
    return true
  end
  if creditor then ctx.counter:add(creditor, "cash", have) end
  bankrupt(G, ctx, p, cause)
  return false
end
R.pay = pay

-- Movement and landing -----------------------------------------------------------------------

local function collect_salary(ctx, p, laps)
  local salary = laps * ctx.settings.salary
  ctx.counter:add(p, "cash", salary)
  if ctx.logging then ctx:log("P%d collects %s%d salary", p, ctx.settings.currency, salary) end
end

local function send_to_jail(G, ctx, p)
  ctx.board:place(p, G.jail_index)
  local pl = G.players[p]
  pl.in_jail, pl.jail_tries, pl.doubles = true, 0, 0
  G.again = false
  ctx:log("P%d goes to jail", p)
end
R.send_to_jail = send_to_jail

local function rent_for(G, ctx, sp, owner, special)
  if sp.kind == "railroad" then
    local n = count_owned(ctx, owner, sp.group)
    return sp.rent[n] * (special.rent_multiplier or 1)
  elseif sp.kind == "utility" then
    if special.dice_multiplier then
      return (ctx.dice:sum("2d6")) * special.dice_multiplier
    end
    return G.last_roll * sp.multipliers[count_owned(ctx, owner, sp.group)]
  end
  local s, rents = ctx.settings, sp.rent
  local level = ctx.board.levels[sp.index]
  if level > s.max_level then level = s.max_level end
  if level > #rents - 1 then level = #rents - 1 end
  if level == 0 then
    -- (the owner's whole groups are kept: no need to look at every space of the group)
    if holds(whole_of(G, ctx, owner), sp.group) then return rents[1] * s.monopoly_multiplier end
  end
  return rents[level + 1]
end
R.rent_for = rent_for

-- Settles the space p stands on (`at`, its index, when the caller knows it). Returns "buy"
-- when p may buy it, else nil.
local NOTHING_SPECIAL = {}
local function land(G, ctx, p, special, at)
  local board = ctx.board
  local sp = board.spaces[at or board.positions[p]]
  if OWNABLE[sp.kind] then
    local owner = board.owners[sp.index]
    if owner == nil then
      if ctx.counters.cash[p] >= sp.price then return "buy" end
    elseif owner ~= p and not G.mortgaged[sp.id] then
      local rent = rent_for(G, ctx, sp, owner, special or NOTHING_SPECIAL)
      if ctx.logging then
        ctx:log("P%d pays %s%d rent to P%d for %s", p, ctx.settings.currency, rent, owner, sp.name)
      end
      pay(G, ctx, p, rent, owner, "rent")
    end
  elseif sp.kind == "tax" then
    if ctx.logging then
      ctx:log("P%d pays %s%d %s", p, ctx.settings.currency, sp.amount, sp.name)
    end
    pay(G, ctx, p, sp.amount, nil, "tax")
  elseif sp.kind == "chance" or sp.kind == "community" then
    local card = ctx.deck:draw(sp.deck)
    if card then
      ctx:log("P%d draws: %s", p, card.text)
      return R.effects[card.effect](G, ctx, p, card)
    end
  elseif sp.kind == "go_to_jail" then
    send_to_jail(G, ctx, p)
  end
  return nil
end
R.land = land

-- Card effects (named by the deck files) -----------------------------------------------------

R.effects = {}

function R.effects.advance_to(G, ctx, p, card)
  local _, laps = ctx.board:advance_to(p, card.target)
  if laps > 0 then collect_salary(ctx, p, laps) end
  return land(G, ctx, p)
end

function R.effects.advance_to_nearest(G, ctx, p, card)
  local n, pos = ctx.board.size, ctx.board.positions[p]
  for step = 1, n do
    local sp = ctx.board.spaces[(pos - 1 + step) % n + 1]
    if sp.kind == card.kind then
      local _, laps = ctx.board:advance_to(p, sp.index)
      if laps > 0 then collect_salary(ctx, p, laps) end
      return land(G, ctx, p, card)
    end
  end
end

function R.effects.go_back(G, ctx, p, card)
  ctx.board:move(p, -card.steps)
  return land(G, ctx, p)
end

function R.effects.go_to_jail(G, ctx, p)
  send_to_jail(G, ctx, p)
end

function R.effects.get_out_of_jail(G, ctx, p, card)
  ctx.deck:keep(card.deck, card, p)
end

function R.effects.collect(G, ctx, p, card)
  ctx.counter:add(p, "cash", card.amount)
end

function R.effects.pay(G, ctx, p, card)
  pay(G, ctx, p, card.amount, nil, "card")
end

function R.effects.pay_each_player(G, ctx, p, card)
  for _, other in ipairs(ctx:active()) do
    if other ~= p and ctx:in_play(p) then pay(G, ctx, p, card.amount, other, "card") end
  end
end

function R.effects.collect_from_each(G, ctx, p, card)
  for _, other in ipairs(ctx:active()) do
    if other ~= p then pay(G, ctx, other, card.amount, p, "card") end
  end
end

function R.effects.repairs(G, ctx, p, card)
  local total = 0
  for _, index in ipairs(ctx.board:owned_by(p)) do
    local level = ctx.board.levels[index]
    if level >= ctx.settings.max_level then
      total = total + card.per_hotel
    else
      total = total + level * card.per_house
    end
  end
  pay(G, ctx, p, total, nil, "card")
end

-- Building and mortgages ---------------------------------------------------------------------

-- A space can be mortgaged while no building stands anywhere in its group.
local function can_mortgage(G, ctx, p, sp)
  local board = ctx.board
  if board.owners[sp.index] ~= p or G.mortgaged[sp.id] then return false end
  if sp.kind ~= "property" then return true end
  local levels, list = board.levels, group_spaces(ctx, sp.group)
  for i = 1, #list do
    if levels[list[i].index] > 0 then return false end
  end
  return true
end

-- What the bank lends on a space, and what lifting the mortgage costs (the loan and interest).
local function mortgage_value(ctx, sp)
  return sp.price * ctx.settings.mortgage_percent // 100
end

local function unmortgage_cost(ctx, sp)
  local base = mortgage_value(ctx, sp)
  return base + base * ctx.settings.unmortgage_interest // 100
end

-- Option tables are made once per verb and space and shared: bots list and score them on
-- every turn, and nothing changes an option table.
local OPTIONS = {}
local function option(verb, id)
  local by_id = OPTIONS[verb]
  if not by_id then
    by_id = {}
    OPTIONS[verb] = by_id
  end
  local key = id or verb
  local o = by_id[key]
  if not o then
    o = { verb, id }
    by_id[key] = o
  end
  return o
end

local ROLL, MORTGAGES, PASS, BACK = option("roll"), option("mortgages"), option("pass"), option("back")
local PAY_FINE, USE_CARD = option("pay_fine"), option("use_card")
-- The lists of most turns, made once too (the runtime never changes a list of option tables).
local ROLL_ONLY, ROLL_OR_MORTGAGE = { ROLL }, { ROLL, MORTGAGES }
local BUY_OR_PASS = {} -- space id -> { buy it, pass }

-- `out` with option o added; a turn's list is made when its first option after the roll is.
local function add(out, o)
  out = out or { ROLL }
  out[#out + 1] = o
  return out
end

-- Build options on the groups p holds whole (only those can take buildings), added to `out`:
-- none on a group with a mortgaged space; else each space at the group's lowest level
-- (building is even), below the top level, whose house p can pay for. Returns `out`, then
-- what the mortgage menu needs when nothing is mortgaged: whether one of the groups stands
-- without buildings, and how many spaces the groups hold.
local function build_options(G, ctx, p, whole, out)
  local levels, groups, mortgaged = ctx.board.levels, ctx.board.groups, G.mortgaged
  local money, top = ctx.counters.cash[p], ctx.settings.max_level
  local unbuilt, inside = false, 0
  for g = 1, #whole do
    local list, low, high = groups[whole[g]], top, 0
    inside = inside + #list
    for i = 1, #list do
      local sp = list[i]
      if mortgaged[sp.id] then
        low = top
        break
      end
      local level = levels[sp.index]
      if level < low then low = level end
      if level > high then high = level end
    end
    if high == 0 then unbuilt = true end
    if low < top then
      for i = 1, #list do
        local sp = list[i]
        if money >= sp.house_cost and levels[sp.index] == low then
          out = add(out, option("build", sp.id))
        end
      end
    end
  end
  return out, unbuilt, inside
end

-- Lifting a mortgage, in board order, added to `out`; returns `out`.
local function unmortgage_options(G, ctx, p, out)
  local spaces = ctx.board.spaces
  for _, index in ipairs(ctx.board:owned_by(p)) do
    local sp = spaces[index]
    if G.mortgaged[sp.id] and ctx.counters.cash[p] >= unmortgage_cost(ctx, sp) then
      out = add(out, option("unmortgage", sp.id))
    end
  end
  return out
end

-- Whether p can mortgage anything while something is mortgaged (the turn knows it otherwise
-- from build_options). Buildings stand only on groups their owner holds whole (a player's
-- properties are sold only once all their buildings are), so a bought space outside p's
-- whole groups can be mortgaged unless it is already. The spaces a player owns are exactly
-- their `bought` list (a space changes hands only by `acquire`, and is freed by a sale or a
-- bankruptcy). (A scenario that sets owners or levels by hand must keep to both.)
local function can_mortgage_any(G, ctx, p, whole)
  local bought, spaces, mortgaged = G.players[p].bought, ctx.board.spaces, G.mortgaged
  for i = 1, #bought do
    local sp = spaces[bought[i]]
    if not mortgaged[sp.id] then
      if not holds(whole, sp.group) or can_mortgage(G, ctx, p, sp) then return true end
    end
  end
  return false
end

local function manage(G, ctx, p, verb, id)
  local sp = ctx.board.by_id[id]
  if verb == "build" then
    ctx.counter:add(p, "cash", -sp.house_cost)
    ctx.board:set_level(sp.index, ctx.board.levels[sp.index] + 1)
    G.houses_built = G.houses_built + 1
    if ctx.logging then
      ctx:log("P%d builds on %s (level %d)", p, sp.name, ctx.board.levels[sp.index])
    end
  elseif verb == "mortgage" then
    set_mortgaged(G, id, true)
    ctx.counter:add(p, "cash", mortgage_value(ctx, sp))
    ctx:log("P%d mortgages %s", p, sp.name)
  elseif verb == "unmortgage" then
    ctx.counter:add(p, "cash", -unmortgage_cost(ctx, sp))
    set_mortgaged(G, id, false)
    ctx:log("P%d lifts the mortgage on %s", p, sp.name)
  end
end

-- States -------------------------------------------------------------------------------------

-- The end of p's turn: the game is over when one player remains (a player leaves only by
-- bankruptcy, which G.bankruptcies counts), else the turn passes to the next player in play.
-- Returns the next state.
local function end_turn(G, ctx, p)
  if G.bankruptcies >= #G.players - 1 then
    ctx:win(ctx:active()[1])
    return "game_over"
  end
  G.players[p].doubles = 0
  G.again = false
  ctx:next_player()
  return "wait_player"
end

-- The roll, the act of the turn's `roll` option (the move's consequences are no decision of
-- their own, so they need no state): a jailed player leaves by doubles or (on the last try)
-- the fine; too many doubles in a row send the player to jail; then the move, with its salary
-- and its landing. Returns the next state.
local function roll(G, ctx, p)
  local pl, s = G.players[p], ctx.settings
  local total, doubles = ctx.dice:sum("2d6")
  G.last_roll = total
  G.again = false
  if pl.in_jail then
    if doubles then
      pl.in_jail = false
      ctx:log("P%d rolls doubles and leaves jail", p)
    else
      pl.jail_tries = pl.jail_tries + 1
      if pl.jail_tries < s.jail_turns then
        ctx:log("P%d stays in jail", p)
        return end_turn(G, ctx, p)
      end
      pl.in_jail = false
      ctx:log("P%d has served the sentence and pays %s%d", p, s.currency, s.jail_fine)
      if not pay(G, ctx, p, s.jail_fine, nil, "jail_fine") then return end_turn(G, ctx, p) end
    end
  elseif doubles then
    pl.doubles = pl.doubles + 1
    if pl.doubles >= s.doubles_to_jail then
      send_to_jail(G, ctx, p)
      ctx:tally("landing", space_at(ctx, p).id)
      return end_turn(G, ctx, p)
    end
    G.again = true
  end
  -- The move: salary, then the landing settled.
  local board = ctx.board
  local at, laps = board:move(p, total)
  if laps > 0 then collect_salary(ctx, p, laps) end
  local next_state = land(G, ctx, p, nil, at)
  if pl.bankrupt then return end_turn(G, ctx, p) end
  ctx:tally("landing", board.spaces[board.positions[p]].id)
  if next_state == "buy" then return "buy" end
  if G.again and not pl.in_jail then return "wait_player" end
  return end_turn(G, ctx, p)
end
R.roll = roll

R.states = {}

R.states.wait_player = {
  -- The roll, leaving jail, building, lifting a mortgage, the mortgage menu. Most turns add
  -- nothing to the roll but the menu, and return a list made once.
  options = function(G, ctx, p)
    local pl = G.players[p]
    local whole, out = pl.whole or whole_groups(ctx, p), nil
    if pl.in_jail then
      if ctx.counters.cash[p] >= ctx.settings.jail_fine then out = add(out, PAY_FINE) end
      if #ctx.deck:held(p) > 0 then out = add(out, USE_CARD) end
    end
    local unbuilt, inside = false, 0
    if #whole > 0 then out, unbuilt, inside = build_options(G, ctx, p, whole, out) end
    local mortgage
    if (G.mortgages or mortgage_count(G)) == 0 then
      -- Nothing is mortgaged: one of a whole group without buildings can be, and so can any
      -- bought space outside the whole groups (there is one when p bought more spaces than
      -- those groups hold).
      mortgage = unbuilt or #pl.bought > inside
    else
      out = unmortgage_options(G, ctx, p, out)
      mortgage = #pl.bought > 0 and can_mortgage_any(G, ctx, p, whole)
    end
    if not out then return mortgage and ROLL_OR_MORTGAGE or ROLL_ONLY end
    if mortgage then out[#out + 1] = MORTGAGES end
    return out
  end,
  act = function(G, ctx, action, p)
    local verb = action[1]
    if verb == "roll" then return roll(G, ctx, p) end
    if verb == "mortgages" then return "mortgaging" end
    local pl = G.players[p]
    if verb == "pay_fine" then
      ctx.counter:add(p, "cash", -ctx.settings.jail_fine)
      pl.in_jail = false
      ctx:log("P%d pays %s%d to leave jail", p, ctx.settings.currency, ctx.settings.jail_fine)
    elseif verb == "use_card" then
      local card = ctx.deck:held(p)[1]
      ctx.deck:give_back(card.deck, card)
      pl.in_jail = false
      ctx:log("P%d uses '%s' to leave jail", p, card.text)
    else
      manage(G, ctx, p, verb, action[2])
    end
  end,
}

-- Mortgages are chosen in a menu of their own: they are seldom wanted, and a turn's options
-- stay short.
R.states.mortgaging = {
  options = function(G, ctx, p)
    local spaces = ctx.board.spaces
    local out = {}
    for _, index in ipairs(ctx.board:owned_by(p)) do
      if can_mortgage(G, ctx, p, spaces[index]) then out[#out + 1] = option("mortgage", spaces[index].id) end
    end
    out[#out + 1] = BACK
    return out
  end,
  act = function(G, ctx, action, p)
    if action[1] == "back" then return "wait_player" end
    manage(G, ctx, p, "mortgage", action[2])
    if not can_mortgage_any(G, ctx, p, whole_of(G, ctx, p)) then return "wait_player" end
  end,
}

R.states.buy = {
  options = function(G, ctx, p)
    local id = space_at(ctx, p).id
    local list = BUY_OR_PASS[id]
    if not list then
      list = { option("buy", id), PASS }
      BUY_OR_PASS[id] = list
    end
    return list
  end,
  act = function(G, ctx, action, p)
    if action[1] == "buy" then
      local sp = ctx.board.by_id[action[2]]
      ctx.counter:add(p, "cash", -sp.price)
      acquire(G, ctx, sp.index, p)
      if ctx.logging then
        ctx:log("P%d buys %s for %s%d", p, sp.name, ctx.settings.currency, sp.price)
      end
    end
    if G.again and not G.players[p].in_jail then return "wait_player" end
    return end_turn(G, ctx, p)
  end,
}

-- Presentation and statistics ----------------------------------------------------------------

function R.label(G, ctx, option)
  local verb, id = option[1], option[2]
  local sp = id and ctx.board.by_id[id]
  local c = ctx.settings.currency
  if verb == "roll" then return "roll the dice" end
  if verb == "pass" then return "do not buy" end
  if verb == "mortgages" then return "mortgage a property…" end
  if verb == "back" then return "back to the turn" end
  if verb == "pay_fine" then return string.format("pay %s%d to leave jail", c, ctx.settings.jail_fine) end
  if verb == "use_card" then return "use a get-out-of-jail card" end
  if verb == "buy" then return string.format("buy %s for %s%d", sp.name, c, sp.price) end
  if verb == "build" then return string.format("build on %s for %s%d", sp.name, c, sp.house_cost) end
  if verb == "mortgage" then return string.format("mortgage %s (+%s%d)", sp.name, c, mortgage_value(ctx, sp)) end
  if verb == "unmortgage" then return string.format("lift the mortgage on %s (-%s%d)", sp.name, c, unmortgage_cost(ctx, sp)) end
end

function R.status(G, ctx, p)
  local parts = {}
  for _, index in ipairs(ctx.board:owned_by(p)) do
    local sp = ctx.board.spaces[index]
    local level = ctx.board.levels[index]
    local mark = ""
    if level >= ctx.settings.max_level then mark = " hotel" elseif level > 0 then mark = " " .. level .. "h" end
    if G.mortgaged[sp.id] then mark = mark .. " mortgaged" end
    parts[#parts + 1] = sp.name .. mark
  end
  local lines = { #parts > 0 and ("owns " .. table.concat(parts, ", ")) or "owns nothing" }
  if G.players[p].in_jail then lines[#lines + 1] = "in jail" end
  if #ctx.deck:held(p) > 0 then lines[#lines + 1] = "holds a get-out-of-jail card" end
  return lines
end

function R.stats(G, ctx)
  return { bankruptcies = G.bankruptcies, houses_built = G.houses_built }
end

return R
