-- 大富翁 Monopoly: the rules. A turn follows the flow in game.toml:
--   wait_player → rolling → settlement (→ event_card → settlement …) → next_player
-- with the decisions on the way: buying (and an auction when a purchase is declined), and,
-- before the roll, building and mortgaging. The game is over when one player remains.
-- The runtime keeps cash (counter "cash"), tokens, owners and building levels (ctx.board);
-- G keeps the rest: jail, doubles, purchase order, mortgages and statistics.
---@class Rules: meeple.Rules
local R = {}

local OWNABLE = { property = true, railroad = true, utility = true }

function R.setup(G, ctx)
  G.players = {}
  for p = 1, ctx:seats() do
    ctx.counter:set(p, "cash", ctx.settings.start_cash)
    G.players[p] = { in_jail = false, jail_turns = 0, doubles = 0, bought = {}, bankrupt = false }
  end
  G.mortgaged = {}    -- space id -> true
  G.roll = 0          -- the total of the last roll (utility rent reads it)
  G.again = false     -- the player rolled doubles and rolls again
  G.moved = false     -- a dice move waits to be counted in the landing statistics
  G.card_rent = nil   -- the rent rule of the card whose move is being settled
  G.bankruptcies = 0
  G.houses_built = 0
end

-- The space p stands on.
local function here(ctx, p)
  return ctx.board.spaces[ctx.board.positions[p]]
end

-- Groups -------------------------------------------------------------------------------------

-- The spaces of sp's group, in board order (a space without a group is a group of its own).
local function group_of(ctx, sp)
  return sp.group and ctx.board.groups[sp.group] or { sp }
end

-- Whether p holds sp's group whole: a property group of two or more spaces, all of them p's.
-- Only a whole group doubles its rent and takes buildings.
local function holds_whole(ctx, p, sp)
  local size = #group_of(ctx, sp)
  return sp.kind == "property" and size >= 2 and ctx.board:group_owned(sp.index, p) == size
end
R.holds_whole = holds_whole

-- Whether a building stands anywhere in sp's group.
local function group_built(ctx, sp)
  local _, highest = ctx.board:group_levels(sp.index)
  return highest > 0
end

-- p buys the space at `index`, kept last in p's purchases (sales go last bought first).
local function acquire(G, ctx, index, p)
  ctx.board:set_owner(index, p)
  table.insert(G.players[p].bought, index)
end
R.acquire = acquire

-- Mortgages ----------------------------------------------------------------------------------

-- What the bank lends on a space, and what lifting the mortgage costs (the loan and interest).
local function mortgage_value(ctx, sp)
  return sp.price * ctx.settings.mortgage_percent // 100
end

local function unmortgage_cost(ctx, sp)
  local loan = mortgage_value(ctx, sp)
  return loan + loan * ctx.settings.unmortgage_interest // 100
end

-- p may mortgage a space p owns that is not mortgaged, while no building stands in its group.
local function can_mortgage(G, ctx, p, sp)
  return ctx.board.owners[sp.index] == p and not G.mortgaged[sp.id] and not group_built(ctx, sp)
end

local function mortgage(G, ctx, p, sp)
  G.mortgaged[sp.id] = true
  ctx.counter:add(p, "cash", mortgage_value(ctx, sp))
  ctx:log("P%d mortgages %s for %s%d", p, sp.name, ctx.settings.currency, mortgage_value(ctx, sp))
end

-- Money --------------------------------------------------------------------------------------

-- Raises cash until p holds `amount`: mortgages what can be (last bought first), and when
-- nothing can, sells a building back at sell_percent of its cost (the highest first, last
-- bought first on ties); a group left without buildings can then be mortgaged in turn.
local function raise(G, ctx, p, amount)
  local bought = G.players[p].bought
  while ctx.counters.cash[p] < amount do
    local to_mortgage, to_sell, top = nil, nil, 0
    for i = #bought, 1, -1 do
      local sp = ctx.board.spaces[bought[i]]
      if not to_mortgage and can_mortgage(G, ctx, p, sp) then to_mortgage = sp end
      if ctx.board.levels[sp.index] > top then to_sell, top = sp, ctx.board.levels[sp.index] end
    end
    if to_mortgage then
      mortgage(G, ctx, p, to_mortgage)
    elseif to_sell then
      ctx.board:set_level(to_sell.index, top - 1)
      ctx.counter:add(p, "cash", to_sell.house_cost * ctx.settings.sell_percent // 100)
      ctx:log("P%d sells a building on %s", p, to_sell.name)
    else
      return
    end
  end
end

-- p leaves the game: the spaces go back to the bank unbuilt and unmortgaged, held cards back
-- to their decks.
local function bankrupt(G, ctx, p, cause)
  for _, index in ipairs(ctx.board:owned_by(p)) do
    G.mortgaged[ctx.board.spaces[index].id] = nil
    ctx.board:set_owner(index, nil)
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

-- p pays `amount` to `creditor` (nil: the bank), raising cash first when short; a player who
-- still cannot pay gives what they have and is bankrupt. Returns false when p went bankrupt.
local function pay(G, ctx, p, amount, creditor, cause)
  if amount <= 0 then return true end
  raise(G, ctx, p, amount)
  local have = ctx.counters.cash[p]
  if have < amount then
    if creditor then ctx.counter:add(creditor, "cash", have) end
    bankrupt(G, ctx, p, cause)
    return false
  end
  if creditor then
    ctx.counter:transfer(p, creditor, "cash", amount)
  else
    ctx.counter:add(p, "cash", -amount)
  end
  return true
end
R.pay = pay

-- Moves --------------------------------------------------------------------------------------

local function collect_salary(ctx, p, laps)
  local salary = laps * ctx.settings.salary
  ctx.counter:add(p, "cash", salary)
  ctx:log("P%d collects %s%d salary", p, ctx.settings.currency, salary)
end

local function send_to_jail(G, ctx, p)
  ctx.board:place(p, "jail")
  local pl = G.players[p]
  pl.in_jail, pl.jail_turns, pl.doubles = true, 0, 0
  G.again = false
  ctx:log("P%d goes to jail", p)
end
R.send_to_jail = send_to_jail

-- The rent p pays on sp to its owner. A card that sent p there may change it (`card`:
-- rent_multiplier on a railroad, dice_multiplier on a utility).
local function rent_for(G, ctx, sp, owner, card)
  card = card or {}
  if sp.kind == "railroad" then
    return sp.rent[ctx.board:group_owned(sp.index, owner)] * (card.rent_multiplier or 1)
  elseif sp.kind == "utility" then
    if card.dice_multiplier then return ctx.dice:sum("2d6") * card.dice_multiplier end
    return G.roll * sp.multipliers[ctx.board:group_owned(sp.index, owner)]
  end
  local level = math.min(ctx.board.levels[sp.index], ctx.settings.max_level, #sp.rent - 1)
  if level == 0 and holds_whole(ctx, owner, sp) then
    return sp.rent[1] * ctx.settings.monopoly_multiplier
  end
  return sp.rent[level + 1]
end
R.rent_for = rent_for

-- Card effects (named by the deck files): each returns "settlement" when the card moved the
-- player, so the new space is settled exactly as a dice move's.

R.effects = {}

function R.effects.advance_to(G, ctx, p, card)
  local _, laps = ctx.board:advance_to(p, card.target)
  if laps > 0 then collect_salary(ctx, p, laps) end
  return "settlement"
end

function R.effects.advance_to_nearest(G, ctx, p, card)
  local n, at = ctx.board.size, ctx.board.positions[p]
  for step = 1, n do
    local sp = ctx.board.spaces[(at - 1 + step) % n + 1]
    if sp.kind == card.kind then
      local _, laps = ctx.board:advance_to(p, sp.index)
      if laps > 0 then collect_salary(ctx, p, laps) end
      G.card_rent = { rent_multiplier = card.rent_multiplier, dice_multiplier = card.dice_multiplier }
      return "settlement"
    end
  end
end

function R.effects.go_back(G, ctx, p, card)
  ctx.board:move(p, -card.steps)
  return "settlement"
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
    if other ~= p and ctx:in_play(p) then
      ctx:log("P%d pays %s%d to P%d", p, ctx.settings.currency, card.amount, other)
      pay(G, ctx, p, card.amount, other, "card")
    end
  end
end

function R.effects.collect_from_each(G, ctx, p, card)
  for _, other in ipairs(ctx:active()) do
    if other ~= p then
      ctx:log("P%d pays %s%d to P%d", other, ctx.settings.currency, card.amount, p)
      pay(G, ctx, other, card.amount, p, "card")
    end
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

-- Building and mortgage options --------------------------------------------------------------

-- Where p may build: on a whole group without a mortgaged space, evenly (only on a space at
-- the group's lowest level), below max_level, when p can pay for the house.
function R.build_options(G, ctx, p)
  local out = {}
  for _, index in ipairs(ctx.board:owned_by(p)) do
    local sp = ctx.board.spaces[index]
    if holds_whole(ctx, p, sp) and ctx.counters.cash[p] >= sp.house_cost then
      local level, lowest = ctx.board.levels[index], ctx.board:group_levels(index)
      local allowed = level == lowest and level < ctx.settings.max_level
      for _, other in ipairs(group_of(ctx, sp)) do
        if G.mortgaged[other.id] then allowed = false end
      end
      if allowed then out[#out + 1] = { "build", sp.id } end
    end
  end
  return out
end

-- What p may mortgage, and which mortgages p can afford to lift, in board order.
function R.mortgage_options(G, ctx, p)
  local out = {}
  for _, index in ipairs(ctx.board:owned_by(p)) do
    local sp = ctx.board.spaces[index]
    if can_mortgage(G, ctx, p, sp) then
      out[#out + 1] = { "mortgage", sp.id }
    elseif G.mortgaged[sp.id] and ctx.counters.cash[p] >= unmortgage_cost(ctx, sp) then
      out[#out + 1] = { "unmortgage", sp.id }
    end
  end
  return out
end

-- The options of a menu state: its options and a way back to the turn.
local function with_back(list)
  list[#list + 1] = { "back" }
  return list
end

-- States -------------------------------------------------------------------------------------

---@type table<meeple.StateName, meeple.State>
R.states = {}

-- The start of a turn: roll, or first leave jail, build, or mortgage.
R.states.wait_player = {
  options = function(G, ctx, p)
    local out = { { "roll" } }
    if G.players[p].in_jail then
      if ctx.counters.cash[p] >= ctx.settings.jail_fine then out[#out + 1] = { "pay_fine" } end
      if #ctx.deck:held(p) > 0 then out[#out + 1] = { "use_card" } end
    end
    if #R.build_options(G, ctx, p) > 0 then out[#out + 1] = { "buildings" } end
    if #R.mortgage_options(G, ctx, p) > 0 then out[#out + 1] = { "mortgages" } end
    return out
  end,
  act = function(G, ctx, action, p)
    local verb, pl = action[1], G.players[p]
    if verb == "roll" then return "rolling" end
    if verb == "buildings" then return "building" end
    if verb == "mortgages" then return "mortgaging" end
    if verb == "pay_fine" then
      ctx.counter:add(p, "cash", -ctx.settings.jail_fine)
      pl.in_jail = false
      ctx:log("P%d pays %s%d to leave jail", p, ctx.settings.currency, ctx.settings.jail_fine)
    elseif verb == "use_card" then
      local card = ctx.deck:held(p)[1]
      ctx.deck:give_back(card.deck, card)
      pl.in_jail = false
      ctx:log("P%d uses '%s' to leave jail", p, card.text)
    end
  end,
}

-- Building, one house at a time, until the player goes back to the turn.
R.states.building = {
  options = function(G, ctx, p)
    return with_back(R.build_options(G, ctx, p))
  end,
  act = function(G, ctx, action, p)
    if action[1] == "back" then return "wait_player" end
    local sp = ctx.board.by_id[action[2]]
    ctx.counter:add(p, "cash", -sp.house_cost)
    ctx.board:set_level(sp.index, ctx.board.levels[sp.index] + 1)
    G.houses_built = G.houses_built + 1
    ctx:log("P%d builds on %s (level %d)", p, sp.name, ctx.board.levels[sp.index])
    if #R.build_options(G, ctx, p) == 0 then return "wait_player" end
  end,
}

-- Mortgaging and lifting mortgages, until the player goes back to the turn.
R.states.mortgaging = {
  options = function(G, ctx, p)
    return with_back(R.mortgage_options(G, ctx, p))
  end,
  act = function(G, ctx, action, p)
    local verb, sp = action[1], ctx.board.by_id[action[2]]
    if verb == "back" then return "wait_player" end
    if verb == "mortgage" then
      mortgage(G, ctx, p, sp)
    else
      local cost = unmortgage_cost(ctx, sp)
      ctx.counter:add(p, "cash", -cost)
      G.mortgaged[sp.id] = nil
      ctx:log("P%d lifts the mortgage on %s for %s%d", p, sp.name, ctx.settings.currency, cost)
    end
    if #R.mortgage_options(G, ctx, p) == 0 then return "wait_player" end
  end,
}

-- The roll: a jailed player leaves by doubles, or when the sentence is served (paying the
-- fine when release_fine is set), else stays; the third doubles in a turn send the player to
-- jail; else the token moves, collecting the salary on passing the start.
R.states.rolling = {
  enter = function(G, ctx, p)
    local pl, s = G.players[p], ctx.settings
    local total, doubles = ctx.dice:sum("2d6")
    G.roll, G.again = total, false
    if pl.in_jail then
      pl.jail_turns = pl.jail_turns + 1
      if doubles then
        ctx:log("P%d rolls doubles and leaves jail", p)
      elseif pl.jail_turns < s.jail_turns then
        ctx:log("P%d stays in jail", p)
        return "next_player"
      elseif s.release_fine then
        ctx:log("P%d has served the sentence and pays %s%d", p, s.currency, s.jail_fine)
        if not pay(G, ctx, p, s.jail_fine, nil, "jail_fine") then return "next_player" end
      else
        ctx:log("P%d has served the sentence", p)
      end
      pl.in_jail = false
    elseif doubles then
      pl.doubles = pl.doubles + 1
      if pl.doubles >= s.doubles_to_jail then
        ctx:log("P%d rolls doubles %d times in a row", p, pl.doubles)
        send_to_jail(G, ctx, p)
        G.moved = true
        return "next_player"
      end
      G.again = true
    end
    local _, laps = ctx.board:move(p, total)
    if laps > 0 then collect_salary(ctx, p, laps) end
    G.moved = true
    return "settlement"
  end,
}

-- The space the player reached: buy it, pay rent or tax, draw a card, or go to jail.
R.states.settlement = {
  enter = function(G, ctx, p)
    local sp, card_rent = here(ctx, p), G.card_rent
    G.card_rent = nil
    if OWNABLE[sp.kind] then
      local owner = ctx.board.owners[sp.index]
      if owner == nil and ctx.counters.cash[p] >= sp.price then return "buying" end
      if owner == nil and ctx.settings.auction then return "auction" end
      if owner ~= nil and owner ~= p and not G.mortgaged[sp.id] then
        local rent = rent_for(G, ctx, sp, owner, card_rent)
        ctx:log("P%d pays %s%d rent to P%d for %s", p, ctx.settings.currency, rent, owner, sp.name)
        pay(G, ctx, p, rent, owner, "rent")
      end
    elseif sp.kind == "tax" then
      ctx:log("P%d pays %s%d %s", p, ctx.settings.currency, sp.amount, sp.name)
      pay(G, ctx, p, sp.amount, nil, "tax")
    elseif sp.kind == "chance" or sp.kind == "community" then
      return "event_card"
    elseif sp.kind == "go_to_jail" then
      send_to_jail(G, ctx, p)
    end
    return "next_player"
  end,
}

-- A chance or community card: drawn, read and done; a card that moves the player has the new
-- space settled.
R.states.event_card = {
  enter = function(G, ctx, p)
    local card = ctx.deck:draw(here(ctx, p).deck)
    if not card then return "next_player" end -- every card of the deck is held
    return R.effects[card.effect](G, ctx, p, card) or "next_player"
  end,
}

-- An unowned space the player can pay for: buy it, or pass (then it is auctioned, when the
-- auction setting is on).
R.states.buying = {
  options = function(G, ctx, p)
    return { { "buy", here(ctx, p).id }, { "pass" } }
  end,
  act = function(G, ctx, action, p)
    if action[1] == "pass" then
      ctx:log("P%d does not buy %s", p, here(ctx, p).name)
      return ctx.settings.auction and "auction" or "next_player"
    end
    local sp = ctx.board.by_id[action[2]]
    ctx.counter:add(p, "cash", -sp.price)
    acquire(G, ctx, sp.index, p)
    ctx:log("P%d buys %s for %s%d", p, sp.name, ctx.settings.currency, sp.price)
    return "next_player"
  end,
}

-- The bids for sp one player can pay: auction_step percent of the price, twice that, and so
-- on up to the price.
local function bids(ctx, p, sp)
  local out, step = {}, ctx.settings.auction_step
  for share = step, 100, step do
    local amount = sp.price * share // 100
    if amount > 0 and amount <= ctx.counters.cash[p] then out[#out + 1] = { "bid", amount } end
  end
  return out
end

-- The declined space is auctioned: every other player in play bids once, unseen by the
-- others; the highest bid buys it (on a tie, the bidder asked first: see `priority` in
-- game.toml). Nobody bidding leaves it with the bank.
R.states.auction = {
  seats = function(G, ctx)
    local out, sp = {}, here(ctx, ctx:current())
    for _, q in ipairs(ctx:active()) do
      if q ~= ctx:current() and #bids(ctx, q, sp) > 0 then out[#out + 1] = q end
    end
    return out
  end,
  options = function(G, ctx, q)
    local out = bids(ctx, q, here(ctx, ctx:current()))
    out[#out + 1] = { "pass" }
    return out
  end,
  act = function(G, ctx, action, q)
    local sp = here(ctx, ctx:current())
    if action == nil or action[1] == "pass" then
      ctx:log("nobody bids for %s", sp.name)
    else
      ctx.counter:add(q, "cash", -action[2])
      acquire(G, ctx, sp.index, q)
      ctx:log("P%d buys %s at auction for %s%d", q, sp.name, ctx.settings.currency, action[2])
    end
    return "next_player"
  end,
}

-- The move is over: where it ended is counted in the landing statistics (a player sent to
-- jail counts as on Jail); the game ends when one player remains; after doubles the same
-- player rolls again, else the next player's turn begins.
R.states.next_player = {
  enter = function(G, ctx, p)
    local pl = G.players[p]
    if G.moved and not pl.bankrupt then ctx:tally("landing", here(ctx, p).id) end
    G.moved = false
    if ctx:active_count() == 1 then
      ctx:win(ctx:active()[1])
      return "game_over"
    end
    if G.again and not pl.bankrupt then
      G.again = false
      return "wait_player"
    end
    pl.doubles = 0
    ctx:next_player()
    return "wait_player"
  end,
}

-- Presentation and statistics ----------------------------------------------------------------

function R.label(G, ctx, option)
  local verb, arg = option[1], option[2]
  local sp = type(arg) == "string" and ctx.board.by_id[arg]
  local c = ctx.settings.currency
  if verb == "roll" then return "roll the dice" end
  if verb == "pass" then return ctx:state() == "auction" and "do not bid" or "do not buy" end
  if verb == "buildings" then return "build houses…" end
  if verb == "mortgages" then return "mortgages…" end
  if verb == "back" then return "back to the turn" end
  if verb == "pay_fine" then return string.format("pay %s%d to leave jail", c, ctx.settings.jail_fine) end
  if verb == "use_card" then return "use a get-out-of-jail card" end
  if verb == "buy" then return string.format("buy %s for %s%d", sp.name, c, sp.price) end
  if verb == "bid" then return string.format("bid %s%d", c, arg) end
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
