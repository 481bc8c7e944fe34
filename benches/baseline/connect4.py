"""Baseline: Connect Four random against random as a plain Python script (no framework).

Same rules as games/connect4 with its default settings: a 6-row, 7-column rack; a disc falls
to the lowest empty cell of a column that is not full; four in a row (across, down or
diagonal) wins; a full rack draws. Each player drops into a uniformly random open column.
Prints games per second on one core. Usage: python3 connect4.py [games] [seed]
"""
import random
import sys
import time

ROWS, COLS, LINE = 6, 7, 4
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


def landing(grid, c):
    """The lowest empty row of column c, or None when it is full."""
    for r in range(ROWS - 1, -1, -1):
        if grid[r][c] == 0:
            return r
    return None


def longest(grid, r, c, p):
    """The longest line of p's discs through (r, c)."""
    best = 0
    for dr, dc in DIRECTIONS:
        n = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < ROWS and 0 <= cc < COLS and grid[rr][cc] == p:
                n += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        best = max(best, n)
    return best


def play(rng):
    """One game; returns the winner (1 or 2) or 0 for a draw, and the moves made."""
    grid = [[0] * COLS for _ in range(ROWS)]
    p, moves = 1, 0
    while True:
        options = [c for c in range(COLS) if grid[0][c] == 0]
        c = options[rng.randrange(len(options))]
        r = landing(grid, c)
        grid[r][c] = p
        moves += 1
        if longest(grid, r, c, p) >= LINE:
            return p, moves
        if moves == ROWS * COLS:
            return 0, moves
        p = 3 - p


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    start = time.perf_counter()
    moves = sum(play(rng)[1] for _ in range(games))
    took = time.perf_counter() - start
    print(f"{games} games, {moves} moves in {took:.3f} s: {games / took:.0f} games/s")


if __name__ == "__main__":
    main()
