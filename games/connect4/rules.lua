-- Connect Four 四子棋: P1 (red) and P2 (yellow) take turns dropping a disc into a column that
-- is not full; the disc falls to the lowest empty cell. `line` in a row wins; a full rack
-- draws. A move is {"drop", column}.
local grid = require("grid")
---@class Rules: meeple.Rules
local R = {}

function R.setup(G, ctx)
  G.moves = 0
end

-- The lowest empty row of column c (rows count from the top), or nil when it is full.
local function landing(ctx, c)
  for r = ctx.grid.rows, 1, -1 do
    if not ctx.grid:get(r, c) then return r end
  end
  return nil
end
R.landing = landing

---@type table<meeple.StateName, meeple.State>
R.states = {
  turn = {
    options = function(G, ctx)
      local out = {}
      for c = 1, ctx.grid.cols do
        if not ctx.grid:get(1, c) then out[#out + 1] = { "drop", c } end
      end
      return out
    end,
    act = function(G, ctx, action, p)
      local c = action[2]
      local r = landing(ctx, c)
      G.moves = G.moves + 1
      ctx:log("P%d drops into column %d (row %d)", p, c, r)
      if grid.place_stone(ctx, r, c, p) then return "over" end
    end,
  },
}

-- Where a drop is played in the window: the cell its disc lands on.
function R.spot(G, ctx, option)
  local c = option[2]
  return landing(ctx, c), c
end

function R.label(G, ctx, option)
  return string.format("drop into column %d", option[2])
end

function R.why_not(G, ctx, action)
  local c = action[2]
  if action[1] ~= "drop" or math.type(c) ~= "integer" or action[3] ~= nil then
    return "a move is 'drop COLUMN'"
  end
  if c < 1 or c > ctx.grid.cols then
    return string.format("column %d is off the rack (1 to %d)", c, ctx.grid.cols)
  end
  if ctx.grid:get(1, c) then return string.format("column %d is full", c) end
end

function R.stats(G, ctx)
  return { moves = G.moves }
end

return R
