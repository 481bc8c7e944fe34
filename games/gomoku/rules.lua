-- 五子棋 Gomoku: black (P1) moves first; a line of five in any of the four directions wins
-- (five or more under rule = "freestyle", exactly five under "standard"); a full board
-- without a winner is a draw. The runtime keeps the stones (ctx.grid); G counts the moves.
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

-- The option {"place", r, c} for cell index i, made once and shared: search bots list and play
-- options by the thousand, and nothing changes an option table.
local PLACE = {}
local function place(i, cols)
  local by_cell = PLACE[cols]
  if not by_cell then
    by_cell = {}
    PLACE[cols] = by_cell
  end
  local o = by_cell[i]
  if not o then
    o = { "place", (i - 1) // cols + 1, (i - 1) % cols + 1 }
    by_cell[i] = o
  end
  return o
end

R.states = {
  turn = {
    options = function(G, ctx)
      local out, cols, n = {}, ctx.grid.cols, 0
      for i, v in ipairs(ctx.grid:cells()) do
        if v == 0 then
          n = n + 1
          out[n] = place(i, cols)
        end
      end
      return out
    end,
    act = function(G, ctx, action, p)
      local r, c = action[2], action[3]
      ctx.grid:set(r, c, p)
      G.moves = G.moves + 1
      ctx:log("P%d places at (%d, %d)", p, r, c)
      if wins(ctx, r, c, p) then
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

-- A quick move for search bots' playouts, without listing every option. With the setting
-- playout = "tactical": win at once if a point allows it, else block the opponent's winning
-- point, else a random point next to a stone (where the game is decided). With "uniform":
-- any empty point.
function R.random_move(G, ctx, me)
  local grid = ctx.grid
  local cols = grid.cols
  if ctx.settings.playout == "uniform" then
    local r, c = grid:random_empty()
    return r and place((r - 1) * cols + c, cols)
  end
  local exact = ctx.settings.rule == "standard"
  local i = grid:completing(me, 5, exact)[1] or grid:completing(3 - me, 5, exact)[1]
  if i then return place(i, cols) end
  local r, c = grid:random_near(1)
  if not r then r, c = grid:random_empty() end
  return r and place((r - 1) * cols + c, cols)
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
