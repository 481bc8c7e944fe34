-- Shared helpers for games on a grid map: `local grid = require("grid")`. Cells are (row,
-- column), both from 1; a stone is the seat that owns it; ctx.grid holds the stones.
local grid = {}

-- The eight steps to a neighbouring cell, as {dr, dc}: up-left, up, up-right, left, right,
-- down-left, down, down-right.
grid.DIRECTIONS = {
  { -1, -1 }, { -1, 0 }, { -1, 1 },
  { 0, -1 }, { 0, 1 },
  { 1, -1 }, { 1, 0 }, { 1, 1 },
}

-- inside(ctx, r, c): true when (r, c) is a cell of the board. ctx.grid:get and :set fail off
-- the board, so test a cell with this first when it may be outside.
function grid.inside(ctx, r, c)
  return r >= 1 and c >= 1 and r <= ctx.grid.rows and c <= ctx.grid.cols
end

-- cell(ctx, i): the row and column of cell index i (what ctx.grid:cells and
-- ctx.grid:completing number cells by).
function grid.cell(ctx, i)
  local cols = ctx.grid.cols
  return (i - 1) // cols + 1, (i - 1) % cols + 1
end

-- walk(ctx, r, c, dr, dc): the cells from (r, c) in the direction (dr, dc), the cell itself
-- left out, up to the edge of the board. An iterator giving each cell's row, column and
-- stone (nil when empty): `for r, c, stone in grid.walk(ctx, 4, 4, 0, 1) do ... end`.
function grid.walk(ctx, r, c, dr, dc)
  return function()
    r, c = r + dr, c + dc
    if grid.inside(ctx, r, c) then return r, c, ctx.grid:get(r, c) end
  end
end

-- flanked(ctx, r, c, p): the other seats' stones that a stone of p on (r, c) flanks (a
-- Reversi capture): in each of the eight directions, an unbroken line of their stones
-- closed by a stone of p. Returns a list of cells {r, c}, by direction (DIRECTIONS' order),
-- nearest first; empty when it flanks nothing. What is on (r, c) itself does not count.
function grid.flanked(ctx, r, c, p)
  local out = {}
  for _, d in ipairs(grid.DIRECTIONS) do
    local line = {}
    for lr, lc, stone in grid.walk(ctx, r, c, d[1], d[2]) do
      if stone == nil then break end
      if stone == p then
        for _, cell in ipairs(line) do out[#out + 1] = cell end
        break
      end
      line[#line + 1] = { lr, lc }
    end
  end
  return out
end

-- flip(ctx, cells, p): turns the stone on each cell {r, c} of `cells` (what flanked lists)
-- into a stone of p. Returns how many it turned.
function grid.flip(ctx, cells, p)
  for _, cell in ipairs(cells) do ctx.grid:set(cell[1], cell[2], p) end
  return #cells
end

-- count(ctx, p): how many stones seat p has on the board.
function grid.count(ctx, p)
  local n = 0
  for _, stone in ipairs(ctx.grid:cells()) do
    if stone == p then n = n + 1 end
  end
  return n
end

-- makes_line(ctx, r, c, p): true when p's stone on (r, c) is part of a line of
-- ctx.settings.line stones or more: across, down or along a diagonal.
function grid.makes_line(ctx, r, c, p)
  return ctx.grid:longest(r, c, p) >= ctx.settings.line
end

-- place_stone(ctx, r, c, p[, wins]): the move of a game of lines. Puts p's stone on (r, c);
-- if `wins(ctx, r, c, p)` says it wins (by default makes_line), records p's win; else, if
-- the board is full, a draw. Returns true when the game is over; otherwise passes the turn
-- to the next player and returns false.
function grid.place_stone(ctx, r, c, p, wins)
  ctx.grid:set(r, c, p)
  if (wins or grid.makes_line)(ctx, r, c, p) then
    ctx:win(p)
    return true
  end
  if ctx.grid:stones() == ctx.grid.rows * ctx.grid.cols then
    ctx:draw()
    return true
  end
  ctx:next_player()
  return false
end

-- placing_turn(over[, wins]): the decision state of a game of lines, for R.states. The
-- player to move puts a stone on an empty cell (options {"place", r, c}); the move is counted
-- in G.moves (from 0) and logged, then played by place_stone: the state moves to `over` when
-- the game is over, else the next player is asked. `over` is checked when the rules load.
function grid.placing_turn(over, wins)
  if type(over) ~= "string" then
    error("grid.placing_turn: expected the name of the state to move to when the game is over, got "
      .. type(over), 2)
  end
  if wins ~= nil and type(wins) ~= "function" then
    error("grid.placing_turn: expected a function wins(ctx, r, c, p) or nothing, got " .. type(wins), 2)
  end
  return {
    exits = { over },
    options = function(G, ctx)
      return ctx.grid:empty_options()
    end,
    act = function(G, ctx, action, p)
      local r, c = action[2], action[3]
      G.moves = (G.moves or 0) + 1
      ctx:log("P%d places at (%d, %d)", p, r, c)
      if grid.place_stone(ctx, r, c, p, wins) then return over end
    end,
  }
end

return grid
