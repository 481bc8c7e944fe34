-- 大富翁 Monopoly: the heuristic AI. AI.score rates one legal option for the seat to move; the
-- runtime's heuristic bot plays the best-rated option (ties broken by its seeded generator).
-- Strategy: buy when cash stays above a safety margin of the price, prefer completing a group,
-- bid up to a share of the price, build when safe, never mortgage (a debt is raised by the
-- rules), lift a mortgage when rich, leave jail with a card.
---@class AI: meeple.AI
local AI = {}
local R = require("rules")

-- Whether buying sp would give p its whole group.
local function completes_group(ctx, p, sp)
  if not sp.group then return false end
  for _, other in ipairs(ctx.board.groups[sp.group]) do
    if other.index ~= sp.index and ctx.board.owners[other.index] ~= p then return false end
  end
  return true
end

-- Scores that depend on nothing (the runtime reads them without calling AI.score).
local FIXED = { roll = 0, pass = 0, back = 0, use_card = 2, mortgage = -100 }
AI.fixed = FIXED

-- The best score among a menu's options: a menu is worth opening when it holds a good one.
local function best_of(G, ctx, p, options)
  local best = -1
  for _, option in ipairs(options) do best = math.max(best, AI.score(G, ctx, p, option)) end
  return best
end

-- The mortgage menu is opened only to lift a mortgage (this AI never mortgages by choice).
local function lift_any(G, ctx, p)
  for _, index in ipairs(ctx.board:owned_by(p)) do
    local id = ctx.board.spaces[index].id
    if G.mortgaged[id] and AI.score(G, ctx, p, { "unmortgage", id }) > 0 then return 3 end
  end
  return -1
end

function AI.score(G, ctx, p, option)
  local verb, s = option[1], ctx.settings
  if FIXED[verb] then return FIXED[verb] end -- for a caller of AI.score itself, such as a style
  if verb == "pay_fine" then return ctx.counters.cash[p] > 4 * s.jail_fine and 1 or -1 end
  if verb == "buildings" then return best_of(G, ctx, p, R.build_options(G, ctx, p)) end
  if verb == "mortgages" then return lift_any(G, ctx, p) end
  if verb == "bid" then
    local sp = ctx.board.spaces[ctx.board.positions[ctx:current()]]
    local limit = completes_group(ctx, p, sp) and sp.price or sp.price * s.ai_bid_share
    local left = ctx.counters.cash[p] - option[2]
    if option[2] > limit or left < s.ai_buy_margin * sp.price then return -1 end
    return option[2] -- the highest bid it is willing to make
  end
  local sp = ctx.board.by_id[option[2]]
  if verb == "buy" then
    local left, completes = ctx.counters.cash[p] - sp.price, completes_group(ctx, p, sp)
    local margin = completes and s.ai_complete_margin or s.ai_buy_margin
    if left < margin * sp.price then return -1 end
    return completes and 20 or 10
  end
  if verb == "build" then
    return (ctx.counters.cash[p] - sp.house_cost >= s.ai_build_reserve) and 5 or -1
  end
  if verb == "unmortgage" then
    return (ctx.counters.cash[p] >= s.ai_unmortgage_reserve + sp.price) and 3 or -1
  end
  return -100 -- an option this AI does not know: never chosen
end

return AI
