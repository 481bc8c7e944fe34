-- {{title}}: on your turn, walk (one die) or run (two dice, but doubles send you back to the
-- start). A boost space moves you on, a trap sends you back. The first back at the start wins.
---@class Rules: meeple.Rules
local R = {}

-- Moves p by n spaces (back when n < 0); true when p finished a lap.
local function go(G, ctx, p, n)
  local to, laps = ctx.board:move(p, n)
  if laps > 0 then return true end
  local kind = ctx.board.spaces[to].kind
  if kind == "boost" then
    to, laps = ctx.board:move(p, ctx.settings.boost)
    return laps > 0
  elseif kind == "trap" then
    ctx.board:move(p, -ctx.settings.trap)
  end
  return false
end

---@type table<meeple.StateName, meeple.State>
R.states = {
  turn = {
    options = function(G, ctx, p)
      return { { "walk" }, { "run" } }
    end,
    act = function(G, ctx, action, p)
      local total, doubles
      if action[1] == "walk" then
        total = ctx.dice:sum("1d6")
      else
        total, doubles = ctx.dice:sum("2d6")
      end
      if doubles then
        ctx:log("P%d ran on doubles: back to the start", p)
        ctx.board:place(p, 1)
      elseif go(G, ctx, p, total) then
        ctx:win(p)
        return "over"
      end
      ctx:next_player()
    end,
  },
}

function R.label(G, ctx, option)
  if option[1] == "walk" then return "walk (one die)" end
  return "run (two dice; doubles send you back to the start)"
end

return R
