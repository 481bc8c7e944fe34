-- 麻将 Mahjong: draw and discard; claim a discard (win over pung/kong over chow, the runtime
-- resolves by the priority in game.toml); four melds and a pair win, or seven pairs, or
-- thirteen orphans when the settings allow. Tiles are codes 0–33 (game.toml `items`); the
-- wall, hands, discards and exposed melds are zones, so each seat sees only its own hand.
local hands = require("hands")
---@class Rules: meeple.Rules
local R = {}

local KINDS = 34
local ORPHANS = { 0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33 }

local function name(ctx, t) return ctx:item(t).label end
local function counts(ctx, p) return ctx.zone.hand[p]:counts(KINDS) end
local function groups_left(G, p) return 4 - #G.melds[p] end

local function seven_pairs(c)
  local pairs = 0
  for k = 1, KINDS do
    if c[k] == 2 then pairs = pairs + 1 elseif c[k] ~= 0 then return false end
  end
  return pairs == 7
end

local function thirteen_orphans(c)
  local total, pair = 0, false
  for k = 1, KINDS do total = total + c[k] end
  if total ~= 14 then return false end
  for _, t in ipairs(ORPHANS) do
    local n = c[t + 1]
    if n == 0 or n > 2 then return false end
    if n == 2 then
      if pair then return false end
      pair = true
    end
  end
  return pair
end

-- The kind of winning hand the concealed counts `c` make for seat p, or nil.
local function winning(G, ctx, p, c)
  local groups = groups_left(G, p)
  if ctx.melds:complete(c, groups) then return "standard" end
  if groups == 4 and ctx.settings.seven_pairs and seven_pairs(c) then return "seven_pairs" end
  if groups == 4 and ctx.settings.thirteen_orphans and thirteen_orphans(c) then
    return "thirteen_orphans"
  end
  return nil
end
R.winning = winning

-- Draws the next tile for seat p (a replacement after a kong draws the same way), telling p
-- alone which it is; false when the wall is empty.
local function draw(G, ctx, p)
  local tile = ctx.zone.wall:take()
  if not tile then return false end
  ctx.zone.hand[p]:add(tile)
  ctx:tell(p, "you draw %s", name(ctx, tile))
  G.after_draw = true
  return true
end

-- Moves tiles from p's hand to its exposed melds and records the meld.
local function expose(G, ctx, p, kind, low, tiles, concealed)
  local hand, melds = ctx.zone.hand[p], ctx.zone.melds[p]
  for _, t in ipairs(tiles) do
    if not hand:move(t, melds) then error(string.format("P%d has no %s to meld", p, name(ctx, t))) end
  end
  G.melds[p][#G.melds[p] + 1] = { kind = kind, tile = low, concealed = concealed or false }
end

-- Points for p's winning hand, by the score table in the settings.
local function score(G, ctx, p, hand, how)
  local t, fans = ctx.settings.scores, { "base" }
  local concealed = true
  for _, m in ipairs(G.melds[p]) do
    if not m.concealed then concealed = false end
  end
  if how == "self_drawn" then fans[#fans + 1] = "self_drawn" end
  if concealed then fans[#fans + 1] = "concealed" end
  if hand ~= "standard" then fans[#fans + 1] = hand end
  local all = counts(ctx, p)
  for _, t2 in ipairs(ctx.zone.melds[p]:items()) do all[t2 + 1] = all[t2 + 1] + 1 end
  local suits, honours = {}, false
  for k = 1, KINDS do
    if all[k] > 0 then
      if k > 27 then honours = true else suits[(k - 1) // 9] = true end
    end
  end
  local nsuits = 0
  for _ in pairs(suits) do nsuits = nsuits + 1 end
  if nsuits == 1 then fans[#fans + 1] = honours and "mixed_suit" or "one_suit" end
  if hand == "standard" then
    local pungs = true
    for _, m in ipairs(G.melds[p]) do if m.kind == "chow" then pungs = false end end
    local c, pair = counts(ctx, p), 0
    for k = 1, KINDS do
      if c[k] == 2 then pair = pair + 1 elseif c[k] ~= 0 and c[k] ~= 3 then pungs = false end
    end
    if pungs and pair == 1 then fans[#fans + 1] = "all_pungs" end
  end
  local points = 0
  for _, f in ipairs(fans) do points = points + (t[f] or 0) end
  return points, fans
end

local function settle_win(G, ctx, p, how, from)
  local hand = winning(G, ctx, p, counts(ctx, p))
  local points, fans = score(G, ctx, p, hand, how)
  for q = 1, ctx:seats() do
    if q ~= p and (how == "self_drawn" or q == from) then
      ctx.counter:add(q, "score", -points)
      ctx.counter:add(p, "score", points)
    end
  end
  G.result = { winner = p, how = how, from = from, hand = hand, points = points, fans = fans }
  ctx:tally("hand", hand)
  ctx:tally("win", how)
  for _, f in ipairs(fans) do ctx:tally("fan", f) end
  ctx:log("P%d wins %s (%s): %d point%s", p, how == "self_drawn" and "self-drawn" or
    ("on P" .. from .. "'s discard"), hand:gsub("_", " "), points, points == 1 and "" or "s")
  ctx:win(p)
  return "over"
end

function R.setup(G, ctx)
  G.melds = {}
  for p = 1, ctx:seats() do G.melds[p] = {} end
  G.after_draw = false
end

-- Options of seat q on the last discard: win, kong, pung, chow (only the next seat), pass.
local function claims(G, ctx, q)
  local tile, from = G.last.tile, G.last.from
  local c = counts(ctx, q)
  local out = {}
  c[tile + 1] = c[tile + 1] + 1
  if winning(G, ctx, q, c) then out[#out + 1] = { "win" } end
  c[tile + 1] = c[tile + 1] - 1
  local n = c[tile + 1]
  if n == 3 and ctx.zone.wall:count() > 0 then out[#out + 1] = { "kong", tile } end
  if n >= 2 then out[#out + 1] = { "pung", tile } end
  if q == from % ctx:seats() + 1 and tile < 27 then
    local s0 = tile // 9 * 9
    for low = math.max(s0, tile - 2), math.min(tile, s0 + 6) do
      local ok = true
      for t = low, low + 2 do
        if t ~= tile and c[t + 1] == 0 then ok = false end
      end
      if ok then out[#out + 1] = { "chow", low } end
    end
  end
  return out
end

---@type table<meeple.StateName, meeple.State>
R.states = {
  deal = {
    enter = function(G, ctx)
      local wall = ctx.zone.wall
      for t = 0, KINDS - 1 do wall:add(t, t, t, t) end
      hands.deal(wall, ctx.zone.hand, 13)
      return "draw"
    end,
  },

  draw = {
    enter = function(G, ctx, p)
      if not draw(G, ctx, p) then return "exhausted" end
      return "turn"
    end,
  },

  turn = {
    options = function(G, ctx, p)
      local c, out = counts(ctx, p), {}
      if G.after_draw and winning(G, ctx, p, c) then out[1] = { "win" } end
      if ctx.zone.wall:count() > 0 then
        for k = 1, KINDS do
          if c[k] == 4 then out[#out + 1] = { "kong", k - 1 } end
        end
        for _, m in ipairs(G.melds[p]) do
          if m.kind == "pung" and c[m.tile + 1] > 0 then out[#out + 1] = { "kong", m.tile } end
        end
      end
      for k = 1, KINDS do
        if c[k] > 0 then out[#out + 1] = { "discard", k - 1 } end
      end
      return out
    end,
    act = function(G, ctx, action, p)
      local verb, tile = action[1], action[2]
      if verb == "win" then return settle_win(G, ctx, p, "self_drawn") end
      if verb == "kong" then
        local added = false
        for _, m in ipairs(G.melds[p]) do
          if m.kind == "pung" and m.tile == tile then
            ctx.zone.hand[p]:move(tile, ctx.zone.melds[p])
            m.kind, added = "kong", true
          end
        end
        if not added then expose(G, ctx, p, "kong", tile, { tile, tile, tile, tile }, true) end
        ctx:log("P%d declares a kong of %s", p, name(ctx, tile))
        if not draw(G, ctx, p) then return "exhausted" end
        return nil -- same seat goes on with the replacement tile
      end
      ctx.zone.hand[p]:move(tile, ctx.zone.discards[p])
      ctx.zone.hand[p]:sort()
      G.last, G.after_draw = { tile = tile, from = p }, false
      ctx:log("P%d discards %s", p, name(ctx, tile))
      return "claim"
    end,
  },

  claim = {
    seats = function(G, ctx)
      local out = {}
      for q = 1, ctx:seats() do
        if q ~= G.last.from and #claims(G, ctx, q) > 0 then out[#out + 1] = q end
      end
      return out
    end,
    options = function(G, ctx, q)
      local out = claims(G, ctx, q)
      out[#out + 1] = { "pass" }
      return out
    end,
    act = function(G, ctx, action, q)
      if action == nil or action[1] == "pass" then
        ctx:next_player()
        return "draw"
      end
      local verb, tile, from = action[1], G.last.tile, G.last.from
      ctx.zone.discards[from]:move(tile, ctx.zone.hand[q])
      ctx:next_player(q)
      if verb == "win" then return settle_win(G, ctx, q, "discard", from) end
      G.after_draw = false
      if verb == "chow" then
        local low = action[2]
        expose(G, ctx, q, "chow", low, { low, low + 1, low + 2 })
      else
        local n = verb == "kong" and 4 or 3
        local tiles = {}
        for i = 1, n do tiles[i] = tile end
        expose(G, ctx, q, verb, tile, tiles)
      end
      ctx:log("P%d claims P%d's %s: %s", q, from, name(ctx, tile), verb)
      if verb == "kong" and not draw(G, ctx, q) then return "exhausted" end
      return "turn"
    end,
  },

  exhausted = {
    enter = function(G, ctx)
      G.result = { exhausted = true }
      ctx:tally("win", "exhausted")
      ctx:log("the wall is empty: an exhaustive draw")
      ctx:draw()
      return "over"
    end,
  },
}

local LABEL = { discard = "discard", kong = "kong", pung = "pung" }
function R.label(G, ctx, option)
  local verb, t = option[1], option[2]
  if verb == "chow" then
    return string.format("chow %s %s %s", name(ctx, t), name(ctx, t + 1), name(ctx, t + 2))
  elseif LABEL[verb] then
    return LABEL[verb] .. " " .. name(ctx, t)
  elseif verb == "win" then
    return "win (和)"
  end
  return verb
end

-- A discard or a kong is played on its tile in the hand; the other claims are buttons.
function R.spot(G, ctx, option)
  local verb = option[1]
  if verb == "discard" or verb == "kong" then return "hand", option[2] end
end

-- A tile typed by its name (discard N; typed as n or 北, it reaches the rules so) is the tile
-- of that name.
local function tile_of(ctx, t)
  for code, n in ipairs(ctx.items) do
    if n == t then return code - 1 end
  end
  return t
end

function R.why_not(G, ctx, action, p)
  local verb, t = action[1], tile_of(ctx, action[2])
  if (verb == "discard" or verb == "kong" or verb == "pung") and math.type(t) == "integer"
      and t >= 0 and t < KINDS then
    if verb == "discard" and ctx.zone.hand[p]:has(t) == 0 then
      return string.format("P%d has no %s", p, name(ctx, t))
    end
  end
  if verb == "win" then return "the hand is not a winning hand" end
  return nil
end

function R.stats(G, ctx)
  local r = G.result or {}
  return { points = r.points, turns = ctx:turn() }
end

return R
