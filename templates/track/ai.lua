-- {{title}} AI: runs when it is behind the leader, walks when it is ahead.
---@class AI: meeple.AI
local AI = {}

function AI.score(G, ctx, p, option)
  local mine, best = ctx.board.positions[p], 0
  for q = 1, ctx:seats() do
    if q ~= p and ctx.board.positions[q] > best then best = ctx.board.positions[q] end
  end
  local behind = mine < best
  if option[1] == "run" then return behind and 2 or 0 end
  return behind and 1 or 2
end

return AI
