"""Helpers for the paint_v0 rule scenario tests: play ASCII boards, name actions."""
import numpy as np

from botarena.envs.paint_v0 import Action, Config, PaintGame

STAY = int(Action.STAY)
DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def walk(direction):
    """The walk action in compass ``direction`` ("N", "NE", ... "NW")."""
    return int(Action[f"WALK_{direction}"])


def shoot(direction):
    """The shoot action in compass ``direction``."""
    return int(Action[f"SHOOT_{direction}"])


def new_game(board, seed=0, **config):
    """A one-env PaintGame on ``board`` (list of rows or string), reset with ``seed``."""
    if isinstance(board, (list, tuple)):
        board = "\n".join(board)
    config.setdefault("max_turns", 50)
    game = PaintGame(Config(board=board, **config), num_envs=1)
    game.reset(seed=seed)
    return game


def step(game, actions):
    """One turn with the players' ``actions`` (a sequence of ints); the snapshot after."""
    game.step(np.array([list(actions)], dtype=np.int64))
    return game.snapshot(0)


def play(board, *turns, **config):
    """Play ``turns`` (each a sequence of actions, one per player) on ``board``; the
    snapshot after the last turn."""
    game = new_game(board, **config)
    snap = game.snapshot(0)
    for actions in turns:
        snap = step(game, actions)
    return snap


def play_game(board, *turns, **config):
    """Like ``play`` but returns ``(game, snapshot)``."""
    game = new_game(board, **config)
    snap = game.snapshot(0)
    for actions in turns:
        snap = step(game, actions)
    return game, snap


def scores(snap):
    return [int(x) for x in snap["scores"]]


def count_colours(rows, num_players):
    """Squares of each player's colour in ASCII rows (avatars stand on their own colour)."""
    text = "".join(rows)
    return [text.count(chr(ord("a") + p)) + text.count(chr(ord("A") + p))
            for p in range(num_players)]


# -- an independent, plain-Python reading of rules/paint.md (for cross-checks) ---------

DELTAS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


def reference_turn(colour, positions, actions):
    """One turn by rules/paint.md, written directly from the text: returns
    ``(colour, positions, scores)`` after the turn (inputs are not changed)."""
    colour = np.array(colour, copy=True)
    height, width = colour.shape
    n = len(positions)
    inside = lambda r, c: 0 <= r < height and 0 <= c < width   # noqa: E731
    origin = [tuple(int(x) for x in p) for p in positions]
    new = list(origin)
    # 1. walks (off the board / onto obstacles dropped)
    for a, act in enumerate(actions):
        if 1 <= act <= 8:
            dr, dc = DELTAS[act - 1]
            r, c = origin[a][0] + dr, origin[a][1] + dc
            if inside(r, c) and colour[r, c] != -1:
                new[a] = (r, c)
    # 2. undo every move onto a crowded square, until none is crowded
    while True:
        count = {}
        for p in new:
            count[p] = count.get(p, 0) + 1
        undo = [a for a in range(n) if new[a] != origin[a] and count[new[a]] > 1]
        if not undo:
            break
        for a in undo:
            new[a] = origin[a]
    # 3. paint avatars
    for a, (r, c) in enumerate(new):
        colour[r, c] = a + 1
    # 4. ranges
    shots = {}
    for a, act in enumerate(actions):
        if act >= 9:
            dr, dc = DELTAS[act - 9]
            r, c = new[a]
            k = 0
            while inside(r - dr, c - dc) and colour[r - dr, c - dc] == a + 1:
                r, c, k = r - dr, c - dc, k + 1
            shots[a] = (new[a][0], new[a][1], dr, dc, max(1, k))
    # 5. flight
    avatars = set(new)
    shot_painted = set()
    while shots:
        moved = {}
        for a, (r, c, dr, dc, rng) in shots.items():
            r, c, rng = r + dr, c + dc, rng - 1
            if inside(r, c) and colour[r, c] != -1:
                moved[a] = (r, c, dr, dc, rng)
        count = {}
        for v in moved.values():
            count[v[:2]] = count.get(v[:2], 0) + 1
        alive = {a: v for a, v in moved.items()
                 if count[v[:2]] == 1 and v[:2] not in avatars and v[:2] not in shot_painted}
        for a, v in alive.items():
            colour[v[0], v[1]] = a + 1
        shot_painted.update(v[:2] for v in alive.values())
        shots = {a: v for a, v in alive.items() if v[4] > 0}
    scores = [int((colour == a + 1).sum()) for a in range(n)]
    return colour, np.array(new), scores
