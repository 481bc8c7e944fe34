-- Chutes AI: hop onto the finish or a ladder's foot when it is the next space; else walk.
local AI = {}

function AI.score(G, ctx, p, option)
  local next = ctx.board.spaces[ctx.board.positions[p] + 1]
  local good = next and (next.index == ctx.board.size or (next.jump or 0) > next.index)
  if option[1] == "hop" then return good and 2 or 0 end
  return 1
end

return AI
