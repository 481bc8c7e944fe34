local AI = {}

function AI.score(G, ctx, p, option)
  return 0
end

return AI
