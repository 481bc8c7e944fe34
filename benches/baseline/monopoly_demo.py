"""Baseline: the demo-map property game written as a plain Python script (no framework).

Same rules as games/monopoly on maps/demo.toml, four heuristic AIs (ai.lua): 2d6, salary 200
per lap, buy with the AI's safety margin, double rent on a whole group of two or more spaces,
even building when safe, lifting mortgages when rich, tax, the 8-card chance deck drawn
without replacement, jail (a card, the fine when rich, doubles, or release on the third turn),
3 doubles to jail, raising cash by mortgaging before selling buildings, bankruptcy, round cap.
Prints dice moves per second, then the statistics `meeple sim` prints: finished games, mean
rounds, landing shares. Usage: python3 monopoly_demo.py [games] [seed]
"""
import random
import sys
import time

SALARY, START_CASH, TAX, ROUND_CAP = 200, 1500, 100, 300
JAIL_FINE, JAIL_TURNS = 50, 3
BUY_MARGIN, COMPLETE_MARGIN, BUILD_RESERVE, UNMORTGAGE_RESERVE = 0.5, 0.1, 250, 400

NORTH = [20, 150, 450, 1100, 1500, 1900]
SOUTH = [25, 200, 550, 1300, 1700, 2100]
EAST = [35, 250, 700, 1500, 1900, 2300]
SPACES = [  # name, kind, price, house_cost, rent[6], group
    ("go", "go", 0, 0, None, None),
    ("beijing", "property", 200, 100, NORTH, "north"),
    ("chance", "chance", 0, 0, None, None),
    ("shanghai", "property", 200, 100, NORTH, "north"),
    ("tax", "tax", 0, 0, None, None),
    ("guangzhou", "property", 240, 150, SOUTH, "south"),
    ("jail", "jail", 0, 0, None, None),
    ("shenzhen", "property", 240, 150, SOUTH, "south"),
    ("parking", "parking", 0, 0, None, None),
    ("hangzhou", "property", 280, 200, EAST, "east"),
]
GROUPS = {}
for i, s in enumerate(SPACES):
    if s[5]:
        GROUPS.setdefault(s[5], []).append(i)
CARDS = [("advance", 0), ("advance", 9), ("back", 3), ("jail", 0), ("free", 0), ("collect", 100), ("pay", 50), ("each", 20)]
FREE = 4  # the get-out-of-jail card, kept until used
N = len(SPACES)
JAIL = 6


def play_game(rng, landed, players=4):
    """Plays one game, adding its dice moves to `landed` (by space); returns (rounds, finished)."""
    cash = [START_CASH] * players
    pos = [0] * players
    alive = [True] * players
    in_jail = [False] * players
    jail_turns = [0] * players
    free_card = [False] * players
    owner = [None] * N
    level = [0] * N
    mortgaged = [False] * N
    bought = [[] for _ in range(players)]
    deck = list(range(len(CARDS)))
    rng.shuffle(deck)
    discard = []
    current, rnd = 0, 1

    def whole(p, i):
        group = GROUPS[SPACES[i][5]]
        return len(group) >= 2 and all(owner[j] == p for j in group)

    def built(i):
        return any(level[j] > 0 for j in GROUPS[SPACES[i][5]])

    def raise_cash(p, amount):
        while cash[p] < amount:
            to_mortgage, to_sell, top = None, None, 0
            for i in reversed(bought[p]):
                if to_mortgage is None and not mortgaged[i] and not built(i):
                    to_mortgage = i
                if level[i] > top:
                    to_sell, top = i, level[i]
            if to_mortgage is not None:
                mortgaged[to_mortgage] = True
                cash[p] += SPACES[to_mortgage][2] // 2
            elif to_sell is not None:
                level[to_sell] -= 1
                cash[p] += SPACES[to_sell][3] // 2
            else:
                return

    def pay(p, amount, creditor):
        raise_cash(p, amount)
        if cash[p] >= amount:
            cash[p] -= amount
            if creditor is not None:
                cash[creditor] += amount
            return True
        if creditor is not None:
            cash[creditor] += cash[p]
        cash[p], alive[p], in_jail[p] = 0, False, False
        for i in bought[p]:
            owner[i], level[i], mortgaged[i] = None, 0, False
        bought[p] = []
        if free_card[p]:
            free_card[p] = False
            discard.append(FREE)
        return False

    def send_to_jail(p):
        pos[p], in_jail[p], jail_turns[p] = JAIL, True, 0

    def build(p):
        """Houses, one at a time, while one is safe to build: returns how many."""
        n = 0
        while True:
            safe = []
            for i in bought[p]:
                group = GROUPS[SPACES[i][5]]
                even = level[i] < 5 and all(not mortgaged[j] and level[j] >= level[i] for j in group)
                if whole(p, i) and even and cash[p] - SPACES[i][3] >= BUILD_RESERVE:
                    safe.append(i)
            if not safe:
                return n
            i = rng.choice(safe)
            cash[p] -= SPACES[i][3]
            level[i] += 1
            n += 1

    def lift(p):
        """Mortgages lifted, one at a time, while rich enough: returns how many."""
        n = 0
        while True:
            rich = [i for i in bought[p] if mortgaged[i] and cash[p] >= UNMORTGAGE_RESERVE + SPACES[i][2]]
            if not rich:
                return n
            i = rng.choice(rich)
            loan = SPACES[i][2] // 2
            cash[p] -= loan + loan // 10
            mortgaged[i] = False
            n += 1

    def settle(p):
        i = pos[p]
        _, kind, price, _, rent, group = SPACES[i]
        if kind == "property":
            o = owner[i]
            if o is None:
                completes = all(owner[j] == p for j in GROUPS[group] if j != i)
                margin = COMPLETE_MARGIN if completes else BUY_MARGIN
                if cash[p] - price >= margin * price:
                    cash[p] -= price
                    owner[i] = p
                    bought[p].append(i)
            elif o != p and not mortgaged[i]:
                r = rent[level[i]]
                if level[i] == 0 and whole(o, i):
                    r *= 2
                pay(p, r, o)
        elif kind == "tax":
            pay(p, TAX, None)
        elif kind == "chance":
            if not deck:
                deck.extend(discard)
                discard.clear()
                rng.shuffle(deck)
            card = deck.pop()
            what, arg = CARDS[card]
            if what == "free":
                free_card[p] = True
            else:
                discard.append(card)
            if what == "advance":
                if arg <= pos[p]:
                    cash[p] += SALARY
                pos[p] = arg
                settle(p)
            elif what == "back":
                pos[p] = (pos[p] - arg) % N
                settle(p)
            elif what == "jail":
                send_to_jail(p)
            elif what == "collect":
                cash[p] += arg
            elif what == "pay":
                pay(p, arg, None)
            elif what == "each":
                for q in range(players):
                    if q != p and alive[q]:
                        pay(q, arg, p)

    while sum(alive) > 1 and rnd <= ROUND_CAP:
        p = current
        doubles = 0
        while alive[p] and sum(alive) > 1:
            while build(p) or lift(p):
                pass
            if in_jail[p] and free_card[p]:
                free_card[p], in_jail[p] = False, False
                discard.append(FREE)
            elif in_jail[p] and cash[p] > 4 * JAIL_FINE:
                cash[p] -= JAIL_FINE
                in_jail[p] = False
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            again = False
            if in_jail[p]:
                jail_turns[p] += 1
                if d1 != d2 and jail_turns[p] < JAIL_TURNS:
                    break
                in_jail[p] = False
            elif d1 == d2:
                doubles += 1
                if doubles == 3:
                    send_to_jail(p)
                    landed[JAIL] += 1
                    break
                again = True
            new = pos[p] + d1 + d2
            if new >= N:
                cash[p] += SALARY
            pos[p] = new % N
            settle(p)
            if alive[p]:
                landed[pos[p]] += 1
            if not again or in_jail[p]:
                break
        if sum(alive) == 1:
            return rnd, True
        nxt = (current + 1) % players
        while not alive[nxt]:
            nxt = (nxt + 1) % players
        if nxt <= current:
            rnd += 1
        current = nxt
    return ROUND_CAP, False


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    landed = [0] * N
    start = time.perf_counter()
    results = [play_game(rng, landed) for _ in range(games)]
    secs = time.perf_counter() - start
    moves = sum(landed)
    print(f"{games} games, {moves} dice moves in {secs:.2f} s: {moves / secs:,.0f} dice moves/s")
    finished = sum(1 for _, done in results if done)
    rounds = sum(r for r, _ in results) / games
    print(f"finished {finished / games:.1%}, rounds mean {rounds:.1f}")
    print("landing " + ", ".join(f"{SPACES[i][0]} {n / moves:.2%}" for i, n in enumerate(landed)))


if __name__ == "__main__":
    main()
