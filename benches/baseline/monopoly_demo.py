"""Baseline: the demo-map property game written as a plain Python script (no framework).

Same rules as games/monopoly on maps/demo.toml: 2d6, salary once per lap, buy with the AI's
safety margin, group rent doubling, houses when safe, tax, the 8-card chance deck drawn
without replacement, jail (doubles, 3 turns, fine), 3 doubles to jail, bankruptcy, round cap.
Prints dice moves per second. Usage: python3 monopoly_demo.py [games] [seed]
"""
import random
import sys
import time

SALARY = 50  # the demo map's salary (maps/demo.toml [settings])

SPACES = [  # kind, price, house_cost, rent[6], group
    ("go", 0, 0, None, None),
    ("property", 100, 50, [10, 50, 150, 300, 450, 600], "north"),
    ("chance", 0, 0, None, None),
    ("property", 120, 50, [12, 60, 180, 360, 500, 650], "north"),
    ("tax", 100, 0, None, None),
    ("property", 160, 100, [16, 80, 220, 500, 700, 900], "south"),
    ("jail", 0, 0, None, None),
    ("property", 180, 100, [18, 90, 250, 550, 750, 950], "south"),
    ("parking", 0, 0, None, None),
    ("property", 200, 100, [20, 100, 300, 600, 800, 1000], "east"),
]
GROUPS = {}
for i, s in enumerate(SPACES):
    if s[4]:
        GROUPS.setdefault(s[4], []).append(i)
CARDS = [("advance", 0), ("advance", 9), ("back", 3), ("jail", 0), ("free", 0), ("collect", 100), ("pay", 50), ("each", 20)]
N = len(SPACES)
JAIL = 6


def play_game(rng, players=4, round_cap=300):
    cash = [1500] * players
    pos = [0] * players
    alive = [True] * players
    in_jail = [False] * players
    tries = [0] * players
    free_card = [False] * players
    owner = [None] * N
    level = [0] * N
    bought = [[] for _ in range(players)]
    deck = list(range(len(CARDS)))
    rng.shuffle(deck)
    discard = []
    moves = 0
    current, rnd = 0, 1

    def pay(p, amount, creditor):
        if cash[p] < amount:
            for i in reversed(bought[p]):
                while level[i] > 0 and cash[p] < amount:
                    level[i] -= 1
                    cash[p] += SPACES[i][2] // 2
            while bought[p] and cash[p] < amount:
                i = bought[p].pop()
                owner[i] = None
                cash[p] += SPACES[i][1] // 2
        if cash[p] >= amount:
            cash[p] -= amount
            if creditor is not None:
                cash[creditor] += amount
            return True
        if creditor is not None:
            cash[creditor] += cash[p]
        cash[p] = 0
        alive[p] = False
        for i in range(N):
            if owner[i] == p:
                owner[i], level[i] = None, 0
        bought[p] = []
        return False

    def land(p, total):
        kind, price, _, rent, group = SPACES[pos[p]]
        if kind == "property":
            o = owner[pos[p]]
            if o is None:
                if cash[p] - price >= 0.5 * price:
                    cash[p] -= price
                    owner[pos[p]] = p
                    bought[p].append(pos[p])
            elif o != p:
                lv = level[pos[p]]
                r = rent[lv]
                if lv == 0 and all(owner[i] == o for i in GROUPS[group]):
                    r *= 2
                pay(p, r, o)
        elif kind == "tax":
            pay(p, 100, None)
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
                land(p, total)
            elif what == "back":
                pos[p] = (pos[p] - arg) % N
                land(p, total)
            elif what == "jail":
                pos[p], in_jail[p], tries[p] = JAIL, True, 0
            elif what == "collect":
                cash[p] += arg
            elif what == "pay":
                pay(p, arg, None)
            elif what == "each":
                for q in range(players):
                    if q != p and alive[q]:
                        pay(q, arg, p)

    while sum(alive) > 1 and rnd <= round_cap:
        p = current
        for i in bought[p]:
            g = GROUPS[SPACES[i][4]]
            if all(owner[j] == p for j in g) and level[i] < 5 and cash[p] - SPACES[i][2] >= 250:
                cash[p] -= SPACES[i][2]
                level[i] += 1
        doubles = 0
        while alive[p]:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if in_jail[p]:
                if free_card[p]:
                    free_card[p], in_jail[p] = False, False
                elif d1 == d2:
                    in_jail[p] = False
                else:
                    tries[p] += 1
                    if tries[p] < 3:
                        break
                    in_jail[p] = False
                    if not pay(p, 50, None):
                        break
                again = False
            else:
                again = d1 == d2
                if again:
                    doubles += 1
                    if doubles == 3:
                        pos[p], in_jail[p], tries[p] = JAIL, True, 0
                        moves += 1
                        break
            new = pos[p] + d1 + d2
            if new >= N:
                cash[p] += SALARY
            pos[p] = new % N
            land(p, d1 + d2)
            moves += 1
            if not again or in_jail[p]:
                break
        nxt = (current + 1) % players
        while not alive[nxt]:
            nxt = (nxt + 1) % players
        if nxt <= current:
            rnd += 1
        current = nxt
    return moves


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    start = time.perf_counter()
    moves = sum(play_game(rng) for _ in range(games))
    secs = time.perf_counter() - start
    print(f"{games} games, {moves} dice moves in {secs:.2f} s: {moves / secs:,.0f} dice moves/s")


if __name__ == "__main__":
    main()
