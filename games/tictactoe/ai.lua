-- Tic-tac-toe AI: win if possible, else block, else prefer the centre, then corners.
---@class AI: meeple.AI
local AI = {}

function AI.score(G, ctx, p, option)
  local r, c = option[2], option[3]
  local need = ctx.settings.line
  if ctx.grid:longest(r, c, p) >= need then return 100 end
  if ctx.grid:longest(r, c, 3 - p) >= need then return 50 end
  if r == 2 and c == 2 then return 10 end
  if r ~= 2 and c ~= 2 then return 5 end
  return 1
end

return AI
