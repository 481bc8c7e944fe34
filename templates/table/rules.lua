-- {{title}}: the stock is shuffled and each player dealt a hand. In turn, each plays a card
-- onto the pile: a card higher than the one on top scores its rank. When every hand is empty,
-- the most points win (a tie is a draw).
local hands = require("hands")
---@class Rules: meeple.Rules
local R = {}

-- A card in p's hand of rank `rank` (its item code), or nil.
local function in_hand(ctx, p, rank)
  for _, code in ipairs(ctx.zone.hand[p]:items()) do
    if ctx:item(code).rank == rank then return code end
  end
end

-- Whether every player has played their last card.
local function every_hand_empty(ctx)
  for p = 1, ctx:seats() do
    if ctx.zone.hand[p]:count() > 0 then return false end
  end
  return true
end

---@type table<meeple.StateName, meeple.State>
R.states = {
  deal = {
    enter = function(G, ctx)
      local stock = ctx.zone.stock
      for code = 0, #ctx.items - 1 do
        for _ = 1, ctx.settings.copies do stock:add(code) end
      end
      hands.deal(stock, ctx.zone.hand, ctx.settings.hand)
      return "turn"
    end,
  },
  -- An option names the card by its rank, as the player reads it: `play 7` plays a 7.
  turn = {
    options = function(G, ctx, p)
      local out, seen = {}, {}
      for _, code in ipairs(ctx.zone.hand[p]:items()) do
        local rank = ctx:item(code).rank
        if not seen[rank] then
          seen[rank] = true
          out[#out + 1] = { "play", rank }
        end
      end
      return out
    end,
    act = function(G, ctx, action, p)
      local card, top = ctx:item(in_hand(ctx, p, action[2])), ctx.zone.pile:top()
      ctx.zone.hand[p]:move(card.code, ctx.zone.pile)
      if top == nil or card.rank > ctx:item(top).rank then
        ctx.counter:add(p, "points", card.rank)
        ctx:log("P%d plays %s and scores %d", p, card.name, card.rank)
      else
        ctx:log("P%d plays %s", p, card.name)
      end
      if every_hand_empty(ctx) then
        R.finish(G, ctx)
        return "over"
      end
      ctx:next_player()
    end,
  },
}

-- The most points win; equal best scores are a draw.
function R.finish(G, ctx)
  local best, winners = -1, {}
  for p = 1, ctx:seats() do
    local points = ctx.counters.points[p]
    if points > best then
      best, winners = points, { p }
    elseif points == best then
      winners[#winners + 1] = p
    end
  end
  if #winners == 1 then ctx:win(winners[1]) else ctx:draw() end
end

function R.label(G, ctx, option)
  return "play the " .. option[2]
end

-- A card is played from the hand: click it there.
function R.spot(G, ctx, option)
  return "hand", in_hand(ctx, ctx:current(), option[2])
end

return R
