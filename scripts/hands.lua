-- Shared helpers for games of cards or tiles held in hands: `local hands = require("hands")`.
-- A pile is a zone of ctx.zone; a per-seat zone (ctx.zone.hand) is a list of piles by seat.
local hands = {}

-- deal(stock, piles, n): shuffles the pile `stock`, then deals `n` items from its top to each
-- pile of `piles` (a per-seat zone such as ctx.zone.hand) in seat order, and sorts each one.
-- A stock too small for every hand is an error at the calling line.
function hands.deal(stock, piles, n)
  if math.type(n) == "integer" and stock:count() < n * #piles then
    error(string.format("hands.deal: %d hands of %d need %d items; the pile has %d",
      #piles, n, n * #piles, stock:count()), 2)
  end
  stock:shuffle()
  for p = 1, #piles do
    stock:deal(piles[p], n)
    piles[p]:sort()
  end
end

return hands
