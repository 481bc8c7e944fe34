-- {{title}} AI: win if it can, else block a win, else lengthen its own lines.
---@class AI: meeple.AI
local AI = {}

function AI.score(G, ctx, p, option)
  local r, c = option[2], option[3]
  local mine, theirs = ctx.grid:longest(r, c, p), ctx.grid:longest(r, c, 3 - p)
  if mine >= ctx.settings.line then return 1000 end
  if theirs >= ctx.settings.line then return 500 end
  return mine * 2 + theirs
end

return AI
