-- Hearts AI: pass the most dangerous cards; follow low under the winner, dump the queen of
-- spades and high hearts when void, lead low from safe suits.
---@class AI: meeple.AI
local AI = {}
local R = require("rules")

local code_of = R.code_of

-- How much a card hurts to keep.
local function danger(ctx, c)
  local it = ctx:item(c)
  if c == 36 then return 100 end
  if it.suit == "S" and it.value > 12 then return 80 + it.value end
  if it.suit == "H" then return 20 + it.value * 3 end
  return it.value * 2
end

function AI.score(G, ctx, p, option)
  if option[1] == "pass" then
    local s = 0
    for i = 2, 4 do s = s + danger(ctx, code_of(ctx, option[i])) end
    return s
  end
  local c = code_of(ctx, option[2])
  local it = ctx:item(c)
  if #G.trick == 0 then                        -- leading: low, non-heart, never the queen
    local s = -it.value
    if it.suit == "H" then s = s - 10 end
    if c == 36 then s = s - 50 end
    return s
  end
  if it.suit ~= G.lead then                    -- void: dump the worst
    return danger(ctx, c)
  end
  local win, pts = -1, 0
  for _, t in ipairs(G.trick) do
    local ti = ctx:item(t.card)
    if ti.suit == G.lead and ti.value > win then win = ti.value end
    pts = pts + R.points(t.card)
  end
  if #G.trick == 3 and pts == 0 and c ~= 36 then return 70 + it.value end  -- safe win: shed high
  if it.value < win then return 50 + it.value end    -- duck as high as possible
  return -it.value - R.points(c) * 5
end

-- How well the game goes for seat p, from 0 to 1: where its total (score and this hand's
-- points) stands between the worst and the best at the table. With it the search bots judge
-- a playout after about a hand, rather than playing every hand to the end.
function AI.standing(G, ctx, p)
  local totals = {}
  for q = 1, 4 do totals[q] = ctx.counters.score[q] + G.pts[q] end
  local best, worst = math.min(table.unpack(totals)), math.max(table.unpack(totals))
  if worst == best then return 0.5 end
  return (worst - totals[p]) / (worst - best)
end
AI.horizon = 60

return AI
