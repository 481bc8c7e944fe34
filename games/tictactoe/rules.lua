-- Tic-tac-toe: X (P1) and O (P2) take turns; `line` in a row wins; a full board is a draw.
local grid = require("grid")
---@class Rules: meeple.Rules
local R = {}

function R.setup(G, ctx)
  G.moves = 0
end

-- A turn: place a stone on an empty cell (scripts/grid.lua).
---@type table<meeple.StateName, meeple.State>
R.states = { turn = grid.placing_turn("over") }

return R
