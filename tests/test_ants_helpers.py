"""Helpers for the ants_v0 scenario tests (no tests here): play ASCII boards with per-cell commands.

Boards use the snapshot format: ``.`` land, ``%`` water, ``0``-``3`` a standing hill of
that colony, ``f`` food, ``a``-``d`` an ant of colony 0-3, ``A``-``D`` an ant standing on
a hill of its own colony (in the boards *before*; after a turn, on any hill), ``x`` a
razed hill.  Rows are listed top (y = 0) to bottom.
"""
import numpy as np

from botarena.envs.ants_v0 import AntsGame, Command, Config

N, E, S, W, STAY = int(Command.N), int(Command.E), int(Command.S), int(Command.W), int(Command.STAY)


def map_of(rows):
    """(map rows, colonies, hills per colony) of a scenario board."""
    out, owners = [], []
    for row in rows:
        chars = []
        for ch in row:
            if ch in "abcd":
                owners.append("abcd".index(ch))
                chars.append(".")
            elif ch in "ABCD":
                owners.append("ABCD".index(ch))
                chars.append(str("ABCD".index(ch)))
            elif ch == "f":
                chars.append(".")
            else:
                if ch in "0123":
                    owners.append(int(ch))
                chars.append(ch)
        out.append("".join(chars))
    hills = {}
    for row in out:
        for ch in row:
            if ch in "0123":
                hills[int(ch)] = hills.get(int(ch), 0) + 1
    players = max(2, max(owners, default=0) + 1, max(hills, default=0) + 1)
    counts = {hills.get(p, 0) for p in range(players)}
    return out, players, counts


def new_game(rows, seed=0, stored_food=None, num_envs=1, **config):
    """A game on the scenario ``rows`` (ants and food placed as drawn, no food spawning
    unless ``max_food`` is given)."""
    map_rows, players, counts = map_of(rows)
    hpp = max(counts)
    if "x" in "".join(rows):
        raise ValueError("scenario boards before a turn have no razed hill")
    if min(counts) != hpp:
        # colonies without hills of their own in the drawing: give them far-away ones
        raise ValueError("every colony needs the same number of hills in a scenario")
    config.setdefault("max_food", 0)
    config.setdefault("spawn_food_at_reset", False)
    config.setdefault("num_players", players)
    game = AntsGame(Config(board="\n".join(map_rows), hills_per_player=hpp, **config), num_envs)
    game.reset(seed=seed)
    for e in range(num_envs):
        game.set_position(e, list(rows), stored_food)
    return game


def with_food(game, food, e=0):
    """Env e with ``food`` ((x, y, count) cells) instead of the food it holds: a board holds
    one food per cell, drawn only where no ant or hill stands."""
    snap = game.snapshot(e)
    snap["food"] = food
    game.restore(snap, e)
    return game.snapshot(e)


def commands(game, orders):
    """Action array (1, A, H*W) from ``orders``: {colony: {(x, y): command}}."""
    actions = np.zeros((1, game.num_agents, game.height * game.width), dtype=np.int64)
    for a, cells in orders.items():
        for (x, y), cmd in cells.items():
            actions[0, a, y * game.width + x] = cmd
    return actions


def turn(game, orders=None):
    """One turn with ``orders``; the snapshot after."""
    game.step(commands(game, orders or {}))
    return game.snapshot(0)


def play(rows, *turns, **kwargs):
    """Play ``turns`` (each an orders dict) on ``rows``; (game, last snapshot)."""
    game = new_game(rows, **kwargs)
    snap = game.snapshot(0)
    for orders in turns:
        snap = turn(game, orders)
    return game, snap


def scores(snap):
    return [int(x) for x in snap["scores"]]


def reference_focus_split(ants, radius2=5):
    """The seed's pseudocode on a list of (owner, x, y): the set of indices that die."""
    focus = [0] * len(ants)
    for i, (o, x, y) in enumerate(ants):
        for (p, u, v) in ants:
            if o != p and (x - u) ** 2 + (y - v) ** 2 <= radius2:
                focus[i] += 1
    dead = set()
    for i, (o, x, y) in enumerate(ants):
        for j, (p, u, v) in enumerate(ants):
            if o != p and (x - u) ** 2 + (y - v) ** 2 <= radius2:
                if focus[i] >= focus[j]:
                    dead.add(i)
    return dead
