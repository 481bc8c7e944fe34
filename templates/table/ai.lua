-- {{title}} AI: plays the lowest card that beats the pile, else its lowest card.
---@class AI: meeple.AI
local AI = {}

function AI.score(G, ctx, p, option)
  local rank, top = option[2], ctx.zone.pile:top()
  if top == nil or rank > ctx:item(top).rank then return 100 - rank end
  return -rank
end

return AI
