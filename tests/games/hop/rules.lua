-- Hop: move your stone one step to an empty cell; a stone on the far row is crowned (level
-- 1); six moves make a draw.
local R = {}

function R.setup(G, ctx)
  G.at, G.moves = { { 3, 1 }, { 1, 3 } }, 0
  ctx.grid:set(3, 1, 1)
  ctx.grid:set(1, 3, 2)
end

R.states = {
  turn = {
    options = function(G, ctx, p)
      local r, c = G.at[p][1], G.at[p][2]
      local out = {}
      for dr = -1, 1 do
        for dc = -1, 1 do
          local r2, c2 = r + dr, c + dc
          if r2 >= 1 and r2 <= 3 and c2 >= 1 and c2 <= 3 and ctx.grid:get(r2, c2) == nil then
            out[#out + 1] = { "move", r, c, r2, c2 }
          end
        end
      end
      return out
    end,
    act = function(G, ctx, option, p)
      -- A stone keeps its crown as it moves; one that reaches the far row is crowned.
      local crowned = ctx.grid:level(option[2], option[3])
      if option[4] == (p == 1 and 1 or 3) then crowned = 1 end
      ctx.grid:set(option[2], option[3], nil)
      ctx.grid:set(option[4], option[5], p)
      ctx.grid:set_level(option[4], option[5], crowned)
      G.at[p] = { option[4], option[5] }
      G.moves = G.moves + 1
      if G.moves == 6 then
        ctx:draw()
        return "over"
      end
      ctx:next_player()
    end,
  },
}

return R
