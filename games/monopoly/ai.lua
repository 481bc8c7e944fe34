-- 大富翁 Monopoly: the heuristic AI. AI.score rates one legal option for the seat to move; the
-- runtime's heuristic bot plays the best-rated option (ties broken by its seeded generator).
-- Strategy: buy when cash stays above a safety margin of the price, prefer completing a group,
-- build when safe, never mortgage (the rules sell to pay a debt), leave jail with a card.
---@class AI: meeple.AI
local AI = {}
local R = require("rules")

local function completes_group(ctx, p, sp)
  if not sp.group then return false end
  local owners, list = ctx.board.owners, R.group_spaces(ctx, sp.group)
  for i = 1, #list do
    local other = list[i]
    if other.index ~= sp.index and owners[other.index] ~= p then return false end
  end
  return true
end

-- Scores that depend on nothing (the runtime reads them without calling AI.score): the
-- mortgage menu and a mortgage are never chosen (a debt is paid by selling), leaving jail with
-- a card always is.
local FIXED = { roll = 0, pass = 0, back = 0, use_card = 2, mortgages = -100, mortgage = -100 }
AI.fixed = FIXED

function AI.score(G, ctx, p, option)
  local verb = option[1]
  local fixed = FIXED[verb]
  if fixed then return fixed end -- for a caller of AI.score itself, such as a style
  local s = ctx.settings
  if verb == "pay_fine" then return ctx.counters.cash[p] > 4 * s.jail_fine and 1 or -1 end
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
