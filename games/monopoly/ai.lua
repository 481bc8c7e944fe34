-- 大富翁 Monopoly: the heuristic AI. AI.score rates one legal option for the seat to move; the
-- runtime's heuristic bot plays the best-rated option (ties broken by its seeded generator).
-- Strategy: buy when cash stays above a safety margin of the price, prefer completing a group,
-- build when safe, never mortgage (the rules sell to pay a debt), leave jail with a card.
local AI = {}
local R = require("rules")

local function cash(ctx, p) return ctx.counter:get(p, "cash") end

local function completes_group(ctx, p, sp)
  if not sp.group then return false end
  for _, other in ipairs(R.group_spaces(ctx, sp.group)) do
    if other.index ~= sp.index and ctx.board:owner(other.index) ~= p then return false end
  end
  return true
end

function AI.score(G, ctx, p, option)
  local s = ctx.settings
  local verb = option[1]
  if verb == "roll" or verb == "pass" or verb == "back" then return 0 end
  if verb == "use_card" then return 2 end
  if verb == "pay_fine" then return cash(ctx, p) > 4 * s.jail_fine and 1 or -1 end
  local sp = ctx.board.by_id[option[2]]
  if verb == "buy" then
    local left = cash(ctx, p) - sp.price
    local margin = completes_group(ctx, p, sp) and s.ai_complete_margin or s.ai_buy_margin
    if left < margin * sp.price then return -1 end
    return completes_group(ctx, p, sp) and 20 or 10
  end
  if verb == "build" then
    return (cash(ctx, p) - sp.house_cost >= s.ai_build_reserve) and 5 or -1
  end
  if verb == "unmortgage" then
    return (cash(ctx, p) >= s.ai_unmortgage_reserve + sp.price) and 3 or -1
  end
  return -100 -- the mortgage menu and a mortgage: never chosen (a debt is paid by selling)
end

return AI
