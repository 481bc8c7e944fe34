-- Shared helpers for games of cards or tiles held in hands: `local hands = require("hands")`.
-- A pile is a zone of ctx.zone; a per-seat zone (ctx.zone.hand) is a list of piles by seat.
local hands = {}

-- deal(stock, piles, n): shuffles the pile `stock`, then deals `n` items from its top to each
-- pile of `piles` (a per-seat zone such as ctx.zone.hand) in seat order, and sorts each one.
function hands.deal(stock, piles, n)
  stock:shuffle()
  for p = 1, #piles do
    stock:deal(piles[p], n)
    piles[p]:sort()
  end
end

return hands
