-- {{title}} AI: plays the lowest card that beats the pile, else its lowest card.
---@class AI: meeple.AI
local AI = {}

function AI.score(G, ctx, p, option)
  local code, top = option[2], ctx.zone.pile:top()
  if top == nil or code > top then return 100 - code end
  return -code
end

return AI
