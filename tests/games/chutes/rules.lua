-- Chutes: walk (one die) or hop (one space); a walk past the finish bounces back by the steps
-- too many. A ladder or a chute leads where its `jump` says. The first on the finish wins.
local R = {}

R.states = {
  turn = {
    options = function(G, ctx, p)
      return { { "walk" }, { "hop" } }
    end,
    act = function(G, ctx, action, p)
      local steps = action[1] == "hop" and 1 or ctx.dice:sum("1d6")
      local to, _, over = ctx.board:move(p, steps)
      if over > 0 then
        ctx:log("P%d bounces back %d", p, over)
        to = ctx.board:move(p, -over)
      end
      local jump = ctx.board.spaces[to].jump
      if jump then
        ctx:log("P%d takes the %s from %s to %s", p, ctx.board.spaces[to].kind,
          ctx.board.spaces[to].name, ctx.board.spaces[jump].name)
        ctx.board:place(p, jump)
        to = jump
      end
      if to == ctx.board.size then
        ctx:win(p)
        return "over"
      end
      ctx:next_player()
    end,
  },
}

return R
