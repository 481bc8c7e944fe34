-- {{title}}: P1 and P2 take turns placing a stone on an empty cell; `line` in a row (across,
-- down or diagonal) wins; a full board is a draw.
local grid = require("grid")
---@class Rules: meeple.Rules
local R = {}

function R.setup(G, ctx)
  G.moves = 0
end

---@type table<meeple.StateName, meeple.State>
R.states = {
  -- The player to move places a stone on an empty cell; the game is over on a line of
  -- `line` or a full board (the shared helpers in scripts/grid.lua, `require("grid")`). For
  -- another move, write the state's own `options` and `act` (games/connect4/rules.lua does).
  turn = grid.placing_turn("over"),
}

return R
