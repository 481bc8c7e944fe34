-- {{title}}: P1 and P2 take turns placing a stone on an empty cell; `line` in a row (across,
-- down or diagonal) wins; a full board is a draw.
---@class Rules: meeple.Rules
local R = {}

function R.setup(G, ctx)
  G.moves = 0
end

R.states = {
  turn = {
    options = function(G, ctx)
      local out = {}
      for r = 1, ctx.grid.rows do
        for c = 1, ctx.grid.cols do
          if not ctx.grid:get(r, c) then out[#out + 1] = { "place", r, c } end
        end
      end
      return out
    end,
    act = function(G, ctx, action, p)
      local r, c = action[2], action[3]
      ctx.grid:set(r, c, p)
      G.moves = G.moves + 1
      ctx:log("P%d places at (%d, %d)", p, r, c)
      if ctx.grid:longest(r, c, p) >= ctx.settings.line then
        ctx:win(p)
        return "over"
      end
      if G.moves == ctx.grid.rows * ctx.grid.cols then
        ctx:draw()
        return "over"
      end
      ctx:next_player()
    end,
  },
}

return R
