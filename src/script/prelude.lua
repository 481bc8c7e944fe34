-- Runtime helpers that run inside the VM to avoid crossing into Rust once per option.
local M = {}

-- Checks a decision's options list in place: a string option becomes {verb}; every option is
-- a table whose first element is the verb and whose other elements are scalars.
-- Returns nil when valid, else a message.
function M.check_options(list)
  if type(list) ~= "table" then
    return "options must return a list of options, got " .. type(list)
  end
  for i = 1, #list do
    local o = list[i]
    local t = type(o)
    if t == "string" then
      list[i] = { o }
    elseif t ~= "table" then
      return string.format("option %d is a %s, expected a table {verb, args...}", i, t)
    elseif type(o[1]) ~= "string" then
      return string.format("option %d: the first element must be the verb (a string)", i)
    else
      for j = 2, #o do
        local at = type(o[j])
        if at ~= "number" and at ~= "string" and at ~= "boolean" then
          return string.format("option %d: argument of type %s (use numbers, strings or booleans)", i, at)
        end
      end
    end
  end
  return nil
end

-- Scores every option with score(G, ctx, seat, option); returns the best score followed by
-- the indices of all options that reach it.
function M.best(score, G, ctx, seat, list)
  local best, tied, n = -math.huge, {}, 0
  for i = 1, #list do
    local s = score(G, ctx, seat, list[i])
    if type(s) ~= "number" then
      error(string.format("AI.score returned %s for option %d, expected a number", type(s), i), 0)
    end
    if s > best then
      best, n = s, 1
      tied[1] = i
    elseif s == best then
      n = n + 1
      tied[n] = i
    end
  end
  return best, table.unpack(tied, 1, n)
end

return M
