local R = {}

R.states = {
  choose = {
    options = function(G, ctx, p)
      return { { "draw" }, { "coin" } }
    end,
    act = function(G, ctx, option, p)
      if option[1] == "draw" then
        local card = ctx.deck:draw("fate")
        ctx:win(card.id == "good" and p or 3 - p)
      else
        ctx:win(ctx.random:int(1, 2))
      end
      return "over"
    end,
  },
}

return R
