-- 麻将 Mahjong AI. Discards: among the tiles whose discard leaves the hand closest to ready
-- (shanten), a Monte Carlo estimate decides: sample the tiles this seat has not seen, count
-- the draws until the hand would win (truncated), keep the discard with the shortest mean
-- distance. Claims: take one only when it brings the hand closer to ready. Win whenever
-- possible. Everything here reads only this seat's view: its hand and the public zones.
---@class AI: meeple.AI
local AI = {}

local KINDS = 34

-- Tiles this seat has not seen: four of each, less its hand and every public tile.
local function unseen(ctx, seat)
  local left = {}
  for k = 1, KINDS do left[k] = 4 end
  local function less(pile)
    for _, t in ipairs(pile.list) do left[t + 1] = left[t + 1] - 1 end
  end
  less(ctx.zone.hand[seat])
  for p = 1, ctx:seats() do
    less(ctx.zone.discards[p])
    less(ctx.zone.melds[p])
  end
  local pool = {}
  for k = 1, KINDS do
    for _ = 1, left[k] do pool[#pool + 1] = k - 1 end
  end
  return pool
end

-- How many tiles of the same suit lie within two of tile t in counts c (copies of t count).
local function neighbours(c, t)
  local n = c[t + 1] - 1
  if t < 27 then
    local s0 = t // 9 * 9
    for u = math.max(s0, t - 2), math.min(s0 + 8, t + 2) do
      if u ~= t then n = n + c[u + 1] end
    end
  end
  return n
end

local function terminal(t) return t >= 27 or t % 9 == 0 or t % 9 == 8 end

-- Standard error of the mean difference of two runs over the same samples.
local function paired_error(a, b, n)
  if n < 2 then return 0 end
  local sum, sq = 0, 0
  for k = 1, n do
    local d = a[k] - b[k]
    sum, sq = sum + d, sq + d * d
  end
  local mean = sum / n
  return math.sqrt(math.max(sq / n - mean * mean, 0) / (n - 1))
end

-- Discard scores: shanten first (x100), then the mean truncated draw distance over common
-- samples (the same draws for every candidate; past the truncation it adds the shanten still
-- left). Candidates within two standard errors of the best mean count as equal to it, and a
-- fixed preference decides among them (isolated tiles, then terminals and honours, then the
-- higher code), so the choice does not flip with the sampling noise.
local function discard_scores(G, ctx, seat, options, out)
  local c = ctx.zone.hand[seat]:counts(KINDS)
  local groups = 4 - #G.melds[seat]
  local shanten, best, discards = {}, math.huge, {}
  for i, o in ipairs(options) do
    if o[1] == "discard" then
      local t = o[2] + 1
      c[t] = c[t] - 1
      shanten[i] = ctx.melds:shanten(c, groups)
      c[t] = c[t] + 1
      discards[#discards + 1] = i
      if shanten[i] < best then best = shanten[i] end
    end
  end
  local close = {}
  for _, i in ipairs(discards) do
    if shanten[i] == best then close[#close + 1] = i end
  end
  local trials, limit = ctx.settings.ai_trials, ctx.settings.ai_truncation
  local runs, mean, top = {}, {}, nil
  -- Sampling only tells apart several discards of the lowest shanten.
  if #close >= 2 and trials > 0 then
    local pool = unseen(ctx, seat)
    for _, i in ipairs(close) do runs[i] = {} end
    for k = 1, trials do
      local draws = ctx.random:sample(pool, limit)
      for _, i in ipairs(close) do
        local t = options[i][2] + 1
        c[t] = c[t] - 1
        runs[i][k] = ctx.melds:distance(c, draws, groups)
        c[t] = c[t] + 1
      end
    end
    for _, i in ipairs(close) do
      local sum = 0
      for k = 1, trials do sum = sum + runs[i][k] end
      mean[i] = sum / trials
      if not top or mean[i] < mean[top] then top = i end
    end
  end
  for _, i in ipairs(discards) do
    local m = mean[i] or (limit + 1 + shanten[i])
    if top and runs[i] and i ~= top and m - mean[top] <= 2 * paired_error(runs[i], runs[top], trials) then
      m = mean[top]
    end
    local t = options[i][2]
    out[i] = -100 * shanten[i] - m - 0.001 * neighbours(c, t) + (terminal(t) and 0.0005 or 0)
      + t * 1e-6
  end
end

-- A claim is worth the shanten it leaves (after the claim's discard), less a little for
-- exposing the hand; passing keeps the current shanten.
local function claim_score(G, ctx, seat, option)
  local c = ctx.zone.hand[seat]:counts(KINDS)
  local groups = 4 - #G.melds[seat]
  local verb, tile = option[1], G.last.tile
  if verb == "pass" then return -100 * ctx.melds:shanten(c, groups) end
  if verb == "chow" then
    for t = option[2], option[2] + 2 do
      if t ~= tile then c[t + 1] = c[t + 1] - 1 end
    end
  else
    c[tile + 1] = c[tile + 1] - (verb == "kong" and 3 or 2)
  end
  return -100 * ctx.melds:shanten(c, groups - 1) - 50
end

-- A kong in one's own turn: worth it when the hand without those tiles is no further away.
local function kong_score(G, ctx, seat, tile)
  local c = ctx.zone.hand[seat]:counts(KINDS)
  local groups = 4 - #G.melds[seat]
  local now = ctx.melds:shanten(c, groups)
  local n = c[tile + 1]
  c[tile + 1] = 0
  local after = n == 4 and ctx.melds:shanten(c, groups - 1) or ctx.melds:shanten(c, groups)
  return after <= now and 1e5 or -1e5
end

function AI.scores(G, ctx, seat, options)
  -- A turn lists discards last; a claim lists "pass" last.
  local own_turn = options[#options][1] == "discard"
  local out = {}
  for i, o in ipairs(options) do
    if o[1] == "win" then
      out[i] = 1e9
    elseif o[1] == "kong" and own_turn then
      out[i] = kong_score(G, ctx, seat, o[2])
    elseif o[1] ~= "discard" then
      out[i] = claim_score(G, ctx, seat, o)
    end
  end
  if own_turn then discard_scores(G, ctx, seat, options, out) end
  return out
end

-- A simpler player to measure against: win when possible, never claim, and discard the most
-- isolated tile (fewest neighbours in its suit; honours by their copies).
AI.styles = {
  isolated = {
    scores = function(G, ctx, seat, options)
      local c = ctx.zone.hand[seat]:counts(KINDS)
      local out = {}
      for i, o in ipairs(options) do
        if o[1] == "win" then
          out[i] = 1e9
        elseif o[1] == "discard" then
          out[i] = -neighbours(c, o[2]) + (terminal(o[2]) and 0.5 or 0)
        elseif o[1] == "pass" then
          out[i] = 0
        else
          out[i] = -1e9
        end
      end
      return out
    end,
  },
}

return AI
