-- 五子棋 Gomoku: black (P1) moves first; a line of five in any of the four directions wins
-- (five or more under rule = "freestyle", exactly five under "standard"); a full board
-- without a winner is a draw. The runtime keeps the stones (ctx.grid); G counts the moves.
local grid = require("grid")
---@class Rules: meeple.Rules
local R = {}

function R.setup(G, ctx)
  local s = ctx.settings
  if s.rule ~= "freestyle" and s.rule ~= "standard" then
    error(string.format("setting rule must be 'freestyle' or 'standard', not '%s'", s.rule))
  end
  if s.playout ~= "tactical" and s.playout ~= "uniform" then
    error(string.format("setting playout must be 'tactical' or 'uniform', not '%s'", s.playout))
  end
  G.moves = 0
end

-- Does the stone p just placed at (r, c) complete a winning line?
local function wins(ctx, r, c, p)
  local a, b, d, e = ctx.grid:runs(r, c, p)
  if ctx.settings.rule == "standard" then
    return a == 5 or b == 5 or d == 5 or e == 5
  end
  return a >= 5 or b >= 5 or d >= 5 or e >= 5
end
R.wins = wins

-- A turn: place a stone on an empty cell (scripts/grid.lua); a winning line ends the game.
---@type table<meeple.StateName, meeple.State>
R.states = { turn = grid.placing_turn("over", wins) }

-- A quick move for search bots' playouts, without listing every option. With the setting
-- playout = "tactical": win at once if a point allows it, else block the opponent's winning
-- point, else a random point next to a stone (where the game is decided). With "uniform":
-- any empty point.
function R.random_move(G, ctx, me)
  local r, c
  if ctx.settings.playout == "uniform" then
    r, c = ctx.grid:random_empty()
  else
    local exact = ctx.settings.rule == "standard"
    local i = ctx.grid:completing(me, 5, exact)[1] or ctx.grid:completing(3 - me, 5, exact)[1]
    if i then
      r, c = grid.cell(ctx, i)
    else
      r, c = ctx.grid:random_near(1)
      if not r then r, c = ctx.grid:random_empty() end
    end
  end
  return r and { "place", r, c }
end

-- Why a placement is not among the options.
function R.why_not(G, ctx, action)
  local r, c = action[2], action[3]
  if action[1] ~= "place" or math.type(r) ~= "integer" or math.type(c) ~= "integer" then
    return "a move is 'place ROW COL'"
  end
  if r < 1 or c < 1 or r > ctx.grid.rows or c > ctx.grid.cols then
    return string.format("(%d, %d) is off the %d×%d board", r, c, ctx.grid.rows, ctx.grid.cols)
  end
  if ctx.grid:get(r, c) then return string.format("(%d, %d) is occupied", r, c) end
end

function R.label(G, ctx, option)
  return string.format("place at row %d, column %d", option[2], option[3])
end

function R.stats(G, ctx)
  return { moves = G.moves }
end

return R
