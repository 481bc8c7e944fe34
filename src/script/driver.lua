-- The one flow driver: every game, in every command, moves through these functions. They
-- run automatic states, check every transition against [flow], ask decisions (checking each
-- options list), collect the answers of a decision that asks several seats at once and
-- resolve them by priority, stop a flow that cycles and a game past its round cap. Who
-- answers a decision is the seat's policy: `false` stops and leaves it to the caller (a
-- person, a search bot), "random" and "playout" pick at random, an AI table picks its best
-- option. The position's flow state lives in S (state, entered, pending, claim, decisions),
-- beside the components the prelude keeps there.
local native = ...
local D = {}

-- run (one per game, made by D.new): G, ctx, S, R, states (each state's record, see
-- fill_states in src/script/host.rs), cap (round cap or false), guard (automatic steps
-- allowed between decisions), draw(seat, n) (below(n) + 1 from the seat's own generator),
-- emit (events), policies (per seat), hook and seat (the hook running now and the seat it
-- was called for, for error notes), turn (the turn an act or enter hook was called on: the
-- hook may pass it), entered
-- (name → true for every state entered since the game began, searches' moves included: not
-- part of the position; `check` reads it), forced (state → verb → true for every lone option
-- a forced state played, read and kept alike).
function D.new(G, ctx, S, R, states, cap, guard, draw, emit)
  return { G = G, ctx = ctx, S = S, R = R, states = states, cap = cap, guard = guard,
           draw = draw, emit = emit, policies = {}, hook = "setup", seat = 0, turn = 0, trail = {},
           entered = {}, forced = {} }
end

-- A new game's record, once its position is put in S: an empty G, the set-up running, the
-- first state entered, nothing forced yet. Returns G.
function D.begin(run)
  run.G, run.hook, run.entered, run.forced = {}, "setup", { [run.S.state] = true }, {}
  return run.G
end

-- Option lists ------------------------------------------------------------------------------

-- bad_option(o, i): the problem with option `o` (number `i` of its list, or R.random_move's
-- move when `i` is nil), or nil: a table whose first element is the verb (a string of one
-- word) and whose other elements are numbers, strings or booleans. D.check(list): nil when a
-- decision's options list is valid, else the problem; a bare string option becomes {verb}.
-- Both are C functions (src/script/rawoptions.rs), run on every list each time it is listed
-- (rules may change a list of their own after returning it: what is checked is what they
-- return now) and on every option as it is played.
local bad_option = native.bad_option
D.check = native.check

-- Each option is read-only once checked (by the C functions above): what is played is what
-- was checked and offered, and a search that plays another option of the same list finds it
-- as it was. hold(list, true) makes the list itself read-only while AI.scores scores it,
-- hold(list, false) writable again (rules may change a list of their own between asks).
local hold = native.hold

-- AI scores ---------------------------------------------------------------------------------

-- How a score that is not a number is named in an error: its type, NaN, or nil with the
-- likely cause (a way through the function that returns nothing).
local function what(s)
  if s ~= s then return "NaN (not a number: 0/0?)" end
  if s == nil then return "nil (does every way through it end in a return?)" end
  return type(s)
end

-- Option `i` of `list` as a note for an error: its number and its text (`option 2 (keep 2 5)`).
local function nth(list, i)
  local o = list[i]
  if type(o) ~= "table" then return string.format("option %d", i) end
  local words = {}
  for k = 1, #o do words[k] = tostring(o[k]) end
  return string.format("option %d (%s)", i, table.concat(words, " "))
end

-- AI.scores' list for the whole decision, checked.
local function whole_scores(AI, G, ctx, seat, list)
  local out = AI.scores(G, ctx, seat, list)
  if type(out) ~= "table" then
    error(string.format("%s: AI.scores returned %s, expected a list of numbers", D.where(AI.scores), type(out)), 0)
  end
  for i = 1, #list do
    local s = out[i]
    if type(s) ~= "number" or s ~= s then
      error(string.format("%s: AI.scores returned %s for %s, expected a number", D.where(AI.scores), what(s), nth(list, i)), 0)
    end
  end
  return out
end

local native_tied = native.tied

-- The error for AI.score's score `s` of option `i` of `list`, which is not a number.
local function bad_score(score, s, list, i)
  error(string.format("%s: AI.score returned %s for %s, expected a number", D.where(score), what(s), nth(list, i)), 0)
end


-- The best score and how many options reach it, their indices in tied[1..n], and whether an
-- AI function ran; each option's score also in out[i] when `out` is given. Scores come from
-- AI.scores when the AI scores a decision as a whole, else from AI.fixed[verb] or
-- AI.score(G, ctx, seat, option) one by one (a C function, src/script/rawoptions.rs). A score
-- that is not a number (NaN among them) is an error at the AI function.
-- The list AI.scores holds, until it returns: an error there leaves it held, and the next
-- entry into the driver lets it go (`release`), so rules that keep one list find it writable.
local held = nil
local function release()
  if held then
    hold(held, false)
    held = nil
  end
end

function D.tied(AI, G, ctx, seat, list, tied, out)
  local best, n, ran
  if AI.scores then
    release()
    held = list
    hold(list, true)
    local scores = whole_scores(AI, G, ctx, seat, list)
    release()
    best, n, ran = -math.huge, 0, true
    for i = 1, #list do
      local s = scores[i]
      if out then out[i] = s end
      if s > best then
        best, n = s, 1
        tied[1] = i
      elseif s == best then
        n = n + 1
        tied[n] = i
      end
    end
  else
    best, n, ran = native_tied(AI.fixed, AI.score, G, ctx, seat, list, tied, out)
  end
  if best == nil then bad_score(AI.score, ran, list, n) end
  return best, n, ran
end

-- Scores of every option, as D.tied reads them.
function D.scores(AI, G, ctx, seat, list)
  local out = {}
  D.tied(AI, G, ctx, seat, list, {}, out)
  return out
end

-- The best score followed by the indices of all options that reach it.
function D.best(AI, G, ctx, seat, list)
  local tied = {}
  local best, n = D.tied(AI, G, ctx, seat, list, tied)
  return best, table.unpack(tied, 1, n)
end

-- Policies ----------------------------------------------------------------------------------

local tied_scratch = {}

-- The flow ----------------------------------------------------------------------------------

-- The seats a simultaneous state asks, in asking order: from the seat after the current one
-- around the table; duplicates and out-of-range seats are errors (returned as a message).
local function ask_order(list, current, n)
  if type(list) ~= "table" then return nil, "seats must return a list of seat numbers, got " .. type(list) end
  local named = {}
  for i = 1, #list do
    local s = list[i]
    if math.type(s) ~= "integer" or s < 1 or s > n then
      return nil, string.format("seats returned %s, not a seat number 1..%d", tostring(s), n)
    end
    if named[s] then return nil, string.format("seats returned seat %d twice", s) end
    named[s] = true
  end
  return named
end

-- Opens the claim of simultaneous state `st`: who is asked, in order. With a default answer
-- every seat in play but the current one is asked (a seat the `seats` hook did not name has
-- the default as its only option), so nobody learns who could answer.
local function open_claim(run, st)
  local S = run.S
  run.hook, run.seat = "seats", S.current
  local named, problem = ask_order(st.seats(run.G, run.ctx), S.current, S.seats)
  if not named then return nil, problem end
  local claim = { seats = {}, named = {}, answers = {} }
  for step = 1, S.seats do
    local s = (S.current - 1 + step) % S.seats + 1
    if named[s] or (st.default and s ~= S.current and S.in_play[s]) then
      claim.seats[#claim.seats + 1] = s
      claim.named[#claim.named + 1] = named[s] == true
    end
  end
  return claim
end

-- Whether answer `o` outbids answer `than` of the same rank: both name a number first (a bid)
-- and o's is larger.
local function outbids(o, than)
  return type(o[2]) == "number" and type(than[2]) == "number" and o[2] > than[2]
end

-- The winning answer of claim `claim` of state `st`: of the named seats' answers the one
-- whose verb ranks highest (ties: the larger bid, then the seat asked first); its option and
-- seat (nil for nobody) and every named seat's answer by seat.
local function winner(st, claim)
  local answers, best, win = {}, nil, nil
  for k = 1, #claim.seats do
    if claim.named[k] then
      local o = claim.answers[k]
      answers[claim.seats[k]] = o
      local rank = st.priority[o[1]] or 0
      if best == nil or rank > best or (rank == best and outbids(o, claim.answers[win])) then
        best, win = rank, k
      end
    end
  end
  if win then return claim.answers[win], claim.seats[win], answers end
  return nil, nil, answers
end

-- A forced option's text as R.label gives it, for the log (nil: its action with its items'
-- labels, when the rules have no R.label or it fails, the failure showing where the options
-- are listed; and where hands are hidden, since a label reads the whole position).
local function forced_label(run, option)
  local label = run.R.label
  if not label or run.emit.secret then return nil end
  local ok, text = pcall(label, run.G, run.ctx, option)
  if ok and type(text) == "string" then return text end
end

-- Whether `steps` steps in a row without a decision asked (automatic states, forced
-- options) are past the guard; the last six states stay in run.trail for the error.
local function past_guard(run, steps, state)
  local last = steps - run.guard + 6
  run.trail[last] = state
  return last > 6
end

-- The flow, once for every caller. From the position in S it runs on: it plays option
-- `index` of the pending decision first when given, then answers decisions by the seats'
-- policies (see `policies` in D.new), at most `limit` of them, and returns why it stopped:
--   "ask"      a decision is pending (S.pending, S.pending_seat): the caller's, or the limit
--   "final"    a final state was reached; "capped": the round cap was passed
--   "next", hook, value   a hook returned something other than one of its state's next states
--   "none"     an automatic state named no next state
--   "stuck", states       automatic steps without a decision past the guard (the last six)
--   "options", problem, list   a bad options list (problem nil: an empty one)
--   "seats", problem      a bad list from a simultaneous state's seats hook
--   "over", hook          a decision was reached after a hook recorded the game's result
-- A state marked forced plays its lone option for every policy, the limit notwithstanding.
-- Entering a decision or final state runs its enter hook once (it may move on); an automatic
-- state runs its enter hook, which must name the next state; every transition is checked
-- against [flow]; a simultaneous state collects its answers, then resolves them (`winner`).
-- A policy "playout" plays R.random_move's move when the rules offer one (without listing
-- the options), else a uniform pick from the game's generator. S.decisions counts the
-- decisions played.
function D.run(run, limit, index)
  release()
  local S, states, policies = run.S, run.states, run.policies
  local G, ctx, guard, cap, check, rate = run.G, run.ctx, run.guard, run.cap, D.check, D.tied
  local entered = run.entered
  local st, list, seat = states[S.state], S.pending, S.pending_seat
  local random_move = run.R.random_move
  local n, steps, nxt, option, move, claim, k, problem, fresh, forced = 0, 0
  -- checked: `list` was checked and no Lua has run since (the option played need not be
  -- checked again).
  local checked = false
  -- over: a result was recorded before this run (by a console entry, say): only one recorded
  -- during it must end the game.
  local over = S.over
  if list == nil then fresh, S.entered = S.entered, false end
  while true do
    if list == nil then goto settle end
    -- Who decides, unless the caller already has. A forced state's lone option is played
    -- whoever the seat is, without asking: it counts as a step without a decision.
    if index == nil and st.forced and #list == 1 and not run.ask_forced then
      index, forced, steps = 1, true, steps + 1
      local verbs = run.forced[S.state]
      if not verbs then
        verbs = {}
        run.forced[S.state] = verbs
      end
      verbs[list[1][1]] = true
      if steps > guard - 6 and past_guard(run, steps, S.state) then return "stuck", run.trail end
    end
    if index == nil then
      if n >= limit then return "ask" end
      local policy = policies[seat]
      if not policy then return "ask" end
      if policy == "random" then
        index = run.draw(seat, #list)
      elseif policy == "playout" then
        if random_move then
          run.hook, run.seat = "random_move", seat
          move, checked = random_move(G, ctx, seat), false
        end
        if not move then index = ctx.random:int(1, #list) end
      elseif #list == 1 then
        index = 1
      else
        run.hook, run.seat = policy.scores and "AI.scores" or "AI.score", seat
        local best, tied, ran
        if policy.scores then
          best, tied, ran = rate(policy, G, ctx, seat, list, tied_scratch)
        else
          best, tied, ran = native_tied(policy.fixed, policy.score, G, ctx, seat, list, tied_scratch)
          if best == nil then bad_score(policy.score, ran, list, tied) end
        end
        index = tied == 1 and tied_scratch[1] or tied_scratch[run.draw(seat, tied)]
        if ran then checked = false end
      end
    end
    -- Play it: the option is checked again as it is played when any Lua ran since its list
    -- was (a hook may have changed it).
    ::play::
    option = move or list[index]
    if move or not checked then
      problem = bad_option(option, not move and index or nil)
      if problem then return "options", problem end
    end
    S.pending, S.pending_seat, index, move, checked = nil, nil, nil, nil, false
    n = n + 1
    S.decisions = S.decisions + 1
    claim = S.claim
    if claim then
      claim.answers[#claim.answers + 1] = option
      if #claim.answers < #claim.seats then goto ask end
      S.claim = nil
      option, seat, claim = winner(st, claim)
    end
    if option ~= nil and S.record then
      forced = forced and claim == nil
      run.emit.action(seat, option, forced == true, forced and forced_label(run, option) or nil)
    end
    ::act::
    run.hook, run.seat, run.turn = "act", seat or S.current, S.turn
    nxt = st.act(G, ctx, option, seat, claim)
    fresh = false
    -- Settle: move to `nxt` (nil: stay), run automatic states and the enter hook of each
    -- state entered, until a decision or the end. fresh: `st` was entered and its enter
    -- hook has not run (S.entered says so between calls).
    ::settle::
    if forced then forced = false else steps = 0 end
    while true do
      if nxt ~= nil then
        local to = st.next[nxt]
        if not to then return "next", run.hook, nxt end
        S.state, st, fresh = nxt, to, true
        entered[nxt] = true
        if to.plain then break end
      end
      if st.auto then
        steps = steps + 1
        if steps > guard - 6 and past_guard(run, steps, S.state) then return "stuck", run.trail end
        run.hook, run.seat, run.turn = "enter", S.current, S.turn
        nxt = st.enter(G, ctx, S.current)
        if nxt == nil then return "none" end
      elseif fresh and st.enter then
        fresh = false
        run.hook, run.seat, run.turn = "enter", S.current, S.turn
        nxt = st.enter(G, ctx, S.current)
      elseif st.final then
        return "final"
      else
        break
      end
    end
    -- Ask the decision state `st`: who decides, with the checked options.
    ::ask::
    if S.over and not over then return "over", run.hook end
    if cap and S.round > cap then return "capped" end
    if st.priority then
      claim = S.claim
      if not claim then
        claim, problem = open_claim(run, st)
        if not claim then return "seats", problem end
        S.claim = claim
      end
      k = #claim.answers + 1
      seat = claim.seats[k]
      if seat == nil then
        -- Nobody is asked: act runs at once, with no option.
        S.claim = nil
        option, seat, claim = winner(st, claim)
        goto act
      end
      if claim.named[k] then
        run.hook, run.seat = "options", seat
        list = st.options(G, ctx, seat)
      else
        list = { { st.default } }
      end
    else
      seat = S.current
      if random_move and n < limit and policies[seat] == "playout" then
        -- A playout asks for the rules' own random move first: no list to make.
        run.hook, run.seat = "random_move", seat
        move = random_move(G, ctx, seat)
        if move then goto play end
      end
      run.hook, run.seat = "options", seat
      list = st.options(G, ctx, seat)
    end
    problem = check(list)
    if problem then return "options", problem, list end
    if #list == 0 then return "options" end
    S.pending, S.pending_seat, checked = list, seat, true
  end
end

-- Plays option `index` of the pending decision and runs on to the next decision.
function D.apply(run, index)
  return D.run(run, 0, index)
end

-- Runs on from the position, answering decisions by the seats' policies (at most `limit`).
function D.drive(run, limit)
  return D.run(run, limit)
end

-- The options `seat` has in the open claim (its default alone when the rules did not name
-- it); an empty list when the rules' list is not a list of options.
function D.options_of(run, seat)
  local S = run.S
  local st, claim = run.states[S.state], S.claim
  for k = 1, #claim.seats do
    if claim.seats[k] == seat and not claim.named[k] then return { { st.default } } end
  end
  run.hook, run.seat = "options", seat
  local list = st.options(run.G, run.ctx, seat)
  if D.check(list) then return {} end
  return list
end

return D
