-- Hearts for four players. Cards are item codes 0-51 (game.toml [items]); an option names a
-- card by its name as the player reads it: `play QS`, `pass 2C 5H QS`. In the window a card
-- is played by clicking it, and the three cards to pass are picked together (`R.spot`).
local hands = require("hands")
---@class Rules: meeple.Rules
local R = {}

local QS = 26 + 10          -- queen of spades: suit S (26..38), rank Q (index 10)
local TWO_CLUBS = 0
local DIRS = { "left", "right", "across", "none" }
local SHIFT = { left = 1, right = 3, across = 2 }

local function suit(ctx, c) return ctx:item(c).suit end
local function value(ctx, c) return ctx:item(c).value end
local function name(ctx, c) return ctx.items[c + 1] end
local function pretty(ctx, c) return ctx:item(c).label end

-- The code of the card named `n` (`QS`: a card typed as `qs` or `Q♠` reaches the rules by its
-- name); nil for no card. The lookup table is made once, from the items.
local codes
local function code_of(ctx, n)
  if not codes then
    codes = {}
    for i, v in ipairs(ctx.items) do codes[v] = i - 1 end
  end
  return codes[n]
end
R.code_of = code_of

local function points(c)
  if c == QS then return 13 end
  if c >= 39 then return 1 end
  return 0
end
R.points = points

function R.setup(G, ctx)
  G.hand_no = 0
  G.trick = {}          -- { {seat=, card=}, ... } in play order
  G.lead = nil          -- suit led in the current trick
  G.broken = false
  G.tricks = 0          -- tricks finished this hand
  G.pts = { 0, 0, 0, 0 }
end

-- The cards p may play now.
local function legal(G, ctx, p)
  local hand = ctx.zone.hand[p]:items()
  local out = {}
  if #G.trick == 0 then
    if G.tricks == 0 then
      for _, c in ipairs(hand) do if c == TWO_CLUBS then return { c } end end
    end
    for _, c in ipairs(hand) do
      if G.broken or suit(ctx, c) ~= "H" then out[#out + 1] = c end
    end
    if #out == 0 then out = hand end     -- only hearts left: may lead one
    return out
  end
  for _, c in ipairs(hand) do
    if suit(ctx, c) == G.lead then out[#out + 1] = c end
  end
  if #out > 0 then return out end
  if G.tricks == 0 then                  -- first trick: no points unless nothing else
    for _, c in ipairs(hand) do if points(c) == 0 then out[#out + 1] = c end end
    if #out > 0 then return out end
  end
  return hand
end

---@type table<meeple.StateName, meeple.State>
R.states = {
  deal = {
    enter = function(G, ctx)
      local deck = ctx.zone.deck
      for p = 1, ctx:seats() do
        ctx.zone.hand[p]:clear()
        ctx.zone.taken[p]:clear()
        ctx.zone.trick[p]:clear()
      end
      deck:clear()
      for c = 0, 51 do deck:add(c) end
      hands.deal(deck, ctx.zone.hand, 13)
      G.hand_no = G.hand_no + 1
      G.dir = DIRS[(G.hand_no - 1) % 4 + 1]
      G.trick, G.lead, G.broken, G.tricks = {}, nil, false, 0
      G.pts = { 0, 0, 0, 0 }
      if G.dir == "none" then
        ctx:log("hand %d: no passing", G.hand_no)
        return R.start_play(G, ctx)
      end
      ctx:log("hand %d: pass three cards %s", G.hand_no, G.dir)
      return "pass"
    end,
  },

  pass = {
    seats = function(G, ctx) return { 1, 2, 3, 4 } end,
    options = function(G, ctx, p)
      local h = ctx.zone.hand[p]:items()
      local out = {}
      for i = 1, #h - 2 do
        for j = i + 1, #h - 1 do
          for k = j + 1, #h do
            out[#out + 1] = { "pass", name(ctx, h[i]), name(ctx, h[j]), name(ctx, h[k]) }
          end
        end
      end
      return out
    end,
    act = function(G, ctx, option, seat, answers)
      local moves = {}
      for p = 1, 4 do
        local a = answers[p]
        local to = (p - 1 + SHIFT[G.dir]) % 4 + 1
        for i = 2, 4 do moves[#moves + 1] = { p, to, code_of(ctx, a[i]) } end
      end
      for _, m in ipairs(moves) do
        if not ctx.zone.hand[m[1]]:move(m[3], ctx.zone.hand[m[2]]) then
          error(string.format("P%d has no %s to pass", m[1], name(ctx, m[3])))
        end
      end
      for p = 1, 4 do
        ctx.zone.hand[p]:sort()
      end
      local passed = {}
      for _, m in ipairs(moves) do
        passed[m[1]] = passed[m[1]] or { to = m[2] }
        table.insert(passed[m[1]], pretty(ctx, m[3]))
      end
      for p, cards in ipairs(passed) do
        ctx:tell(p, "you passed %s to P%d", table.concat(cards, " "), cards.to)
      end
      for _, m in ipairs(moves) do
        ctx:tell(m[2], "P%d passed you %s", m[1], pretty(ctx, m[3]))
      end
      ctx:log("everyone passed three cards %s", G.dir)
      return R.start_play(G, ctx)
    end,
  },

  play = {
    options = function(G, ctx, p)
      local out = {}
      for _, c in ipairs(legal(G, ctx, p)) do out[#out + 1] = { "play", name(ctx, c) } end
      return out
    end,
    act = function(G, ctx, option, p)
      local c = code_of(ctx, option[2])
      ctx.zone.hand[p]:move(c, ctx.zone.trick[p])
      if #G.trick == 0 then G.lead = suit(ctx, c) end
      G.trick[#G.trick + 1] = { seat = p, card = c }
      if suit(ctx, c) == "H" and not G.broken then
        G.broken = true
        ctx:log("P%d plays %s: hearts are broken", p, pretty(ctx, c))
      else
        ctx:log("P%d plays %s", p, pretty(ctx, c))
      end
      if #G.trick < 4 then
        ctx:next_player()
        return "play"
      end
      -- the trick is complete: the highest card of the suit led takes it
      local best = G.trick[1]
      local pts = 0
      for _, t in ipairs(G.trick) do
        if suit(ctx, t.card) == G.lead and value(ctx, t.card) > value(ctx, best.card) then best = t end
        pts = pts + points(t.card)
      end
      for q = 1, 4 do
        for _, x in ipairs(ctx.zone.trick[q]:items()) do ctx.zone.trick[q]:move(x, ctx.zone.taken[best.seat]) end
      end
      G.pts[best.seat] = G.pts[best.seat] + pts
      G.tricks = G.tricks + 1
      G.trick, G.lead = {}, nil
      ctx:log("P%d takes trick %d (%d point%s)", best.seat, G.tricks, pts, pts == 1 and "" or "s")
      ctx:next_player(best.seat)
      if G.tricks == 13 then return "score" end
      return "play"
    end,
  },

  score = {
    enter = function(G, ctx)
      local moon
      for p = 1, 4 do if G.pts[p] == 26 then moon = p end end
      if moon then
        ctx:log("P%d shoots the moon!", moon)
        ctx:tally("moon", "shot")
        for p = 1, 4 do if p ~= moon then ctx.counter:add(p, "score", 26) end end
      else
        for p = 1, 4 do ctx.counter:add(p, "score", G.pts[p]) end
      end
      local s = ctx.counters.score
      ctx:log("after hand %d: P1 %d, P2 %d, P3 %d, P4 %d", G.hand_no, s[1], s[2], s[3], s[4])
      local top, low = 0, math.huge
      for p = 1, 4 do
        if s[p] > top then top = s[p] end
        if s[p] < low then low = s[p] end
      end
      if top >= ctx.settings.target then
        local winners = {}
        for p = 1, 4 do if s[p] == low then winners[#winners + 1] = p end end
        ctx:win(table.unpack(winners))
        return "over"
      end
      return "deal"
    end,
  },
}

-- Whoever holds the two of clubs leads the first trick.
function R.start_play(G, ctx)
  for p = 1, 4 do
    if ctx.zone.hand[p]:has(TWO_CLUBS) > 0 then ctx:next_player(p) end
  end
  return "play"
end

function R.label(G, ctx, option)
  local parts = {}
  for i = 2, #option do parts[#parts + 1] = pretty(ctx, code_of(ctx, option[i])) end
  return option[1] .. " " .. table.concat(parts, " ")
end

-- Each option is played on its cards in your hand: one to play, three to pass.
function R.spot(G, ctx, option)
  local codes = {}
  for i = 2, #option do codes[#codes + 1] = code_of(ctx, option[i]) end
  return "hand", table.unpack(codes)
end

function R.status(G, ctx, p)
  local s = string.format("%d point%s this hand", G.pts[p], G.pts[p] == 1 and "" or "s")
  if ctx:state() == "pass" then
    s = s .. string.format(" · passes %s to P%d", G.dir, (p - 1 + SHIFT[G.dir]) % 4 + 1)
  end
  return s
end

function R.why_not(G, ctx, action, p)
  if action[1] == "play" and ctx:state() == "play" then
    local c = code_of(ctx, action[2] or "")
    if not c then return "no card named " .. tostring(action[2]) .. " (cards read like QS, 10H)" end
    if ctx.zone.hand[p]:has(c) == 0 then return "you do not hold " .. pretty(ctx, c) end
    if G.lead and suit(ctx, c) ~= G.lead then
      for _, x in ipairs(ctx.zone.hand[p]:items()) do
        if suit(ctx, x) == G.lead then return "you must follow suit" end
      end
    end
    if #G.trick == 0 and G.tricks == 0 then return "the 2♣ leads the first trick" end
    if #G.trick == 0 and suit(ctx, c) == "H" then return "hearts are not broken yet" end
    if G.tricks == 0 then return "no points on the first trick" end
  end
  if action[1] == "pass" then
    if #action ~= 4 then return "name three cards of your hand, e.g. pass 2C 5H QS" end
    local named = {}
    for i = 2, 4 do
      local c = code_of(ctx, action[i])
      if not c then return "no card named " .. tostring(action[i]) .. " (cards read like QS, 10H)" end
      if ctx.zone.hand[p]:has(c) == 0 then return "you do not hold " .. pretty(ctx, c) end
      if named[c] then return "name three different cards" end
      named[c] = true
    end
  end
end

function R.stats(G, ctx)
  return { hands = G.hand_no }
end

return R
