-- 五子棋 Gomoku: the heuristic AI. Each empty point near the stones is scored in the four
-- directions by the run it would make and its open ends, for itself (attack, weighted by the
-- `attack` setting) and for the opponent (defence); the first move goes to the centre.
---@class AI: meeple.AI
local AI = {}

local DIRECTIONS = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 1, -1 } }

-- Value of a run of `len` stones with `open` empty ends.
local function value(len, open)
  if len >= 5 then return 100000 end
  if open == 0 then return 0 end
  if len == 4 then return open == 2 and 50000 or 10000 end
  if len == 3 then return open == 2 and 8000 or 1000 end
  if len == 2 then return open == 2 and 600 or 200 end
  return open == 2 and 100 or 50
end
AI.value = value

function AI.score(G, ctx, p, option)
  local r, c = option[2], option[3]
  local grid = ctx.grid
  if G.moves == 0 then
    local mr, mc = (grid.rows + 1) // 2, (grid.cols + 1) // 2
    return -(math.abs(r - mr) + math.abs(c - mc))
  end
  if not grid:has_neighbor(r, c, 2) then return -1 end
  local opponent = 3 - p
  -- Under the standard rule a run longer than five does not win: it is worth nothing.
  local exact = ctx.settings.rule == "standard"
  local function run(len, open)
    if exact and len > 5 then return 0 end
    return value(len, open)
  end
  local attack, defence = 0, 0
  for _, d in ipairs(DIRECTIONS) do
    attack = attack + run(grid:line(r, c, d[1], d[2], p))
    defence = defence + run(grid:line(r, c, d[1], d[2], opponent))
  end
  return attack * ctx.settings.attack + defence
end

return AI
