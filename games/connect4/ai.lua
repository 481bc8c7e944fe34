-- Connect Four AI: win now, else block the opponent's win, else never drop where the
-- opponent wins on top of the disc, else build runs and stay near the middle.
local R = require("rules")
---@class AI: meeple.AI
local AI = {}

local function squares(a, b, c, d) return a * a + b * b + c * c + d * d end

function AI.score(G, ctx, p, option)
  local grid, need, q = ctx.grid, ctx.settings.line, 3 - p
  local c = option[2]
  local r = R.landing(ctx, c)
  if grid:longest(r, c, p) >= need then return 1000 end
  if grid:longest(r, c, q) >= need then return 500 end
  local s = 0
  if r > 1 and grid:longest(r - 1, c, q) >= need then s = s - 400 end
  s = s + squares(grid:runs(r, c, p)) + 0.8 * squares(grid:runs(r, c, q))
  local middle = (grid.cols + 1) / 2
  return s + ctx.settings.center * (middle - math.abs(c - middle))
end

return AI
