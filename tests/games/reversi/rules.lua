-- Reversi: P1 and P2 start with two stones each crossed in the middle. A move places a stone
-- that flanks a line of the opponent's stones, and turns them. A player who cannot move
-- passes; when neither can, the one with more stones wins.
local grid = require("grid")
local R = {}

function R.setup(G, ctx)
  local m = ctx.grid.rows // 2
  ctx.grid:set(m, m, 2)
  ctx.grid:set(m, m + 1, 1)
  ctx.grid:set(m + 1, m, 1)
  ctx.grid:set(m + 1, m + 1, 2)
end

-- The empty cells where p's stone would turn at least one of the opponent's.
local function moves(ctx, p)
  local out = {}
  for _, o in ipairs(ctx.grid:empty_options()) do
    if #grid.flanked(ctx, o[2], o[3], p) > 0 then out[#out + 1] = o end
  end
  return out
end

local function finish(ctx)
  local black, white = grid.count(ctx, 1), grid.count(ctx, 2)
  if black > white then
    ctx:win(1)
  elseif white > black then
    ctx:win(2)
  else
    ctx:draw()
  end
end

R.states = {
  turn = {
    options = function(G, ctx, p)
      local out = moves(ctx, p)
      if #out == 0 then return { { "pass" } } end
      return out
    end,
    act = function(G, ctx, action, p)
      if action[1] == "place" then
        local r, c = action[2], action[3]
        local turned = grid.flip(ctx, grid.flanked(ctx, r, c, p), p)
        ctx.grid:set(r, c, p)
        ctx:log("P%d turns %d", p, turned)
      end
      local q = ctx:next_player()
      if #moves(ctx, q) == 0 and #moves(ctx, p) == 0 then
        finish(ctx)
        return "over"
      end
    end,
  },
}

return R
