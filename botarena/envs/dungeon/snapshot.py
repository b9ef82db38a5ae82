"""Dungeon's snapshot: one env's state as a plain dict, and back (``DungeonGame.snapshot``
and ``DungeonGame.restore``).  The keys are a stable format, read by the runner, the
replays, the fidelity tests and users' own tools.  Coordinates are ``(x, y)``, y up.

Keys that ``restore`` reads (all required, but ``rng``):

``tick``            ticks played in this game
``steps``           steps since the reset (``max_steps`` truncation counts them)
``over``            the game has ended (it must be, once at most one player lives or
                    ``max_turns`` ticks were played)
``tiles``           ``[H, W]`` tile codes (``constants``: FLOOR, METAL, WOOD, ORE, AMMO,
                    TREASURE), indexed ``[y, x]``
``ore_hp``          ``{(x, y): hits left}`` of every ore block (1..ore_hp; ``"x,y"`` string
                    keys, as replays write them, are read too)
``players``         one dict per player: ``x``, ``y``, ``hp``, ``ammo``, ``power``,
                    ``score``, ``alive`` (``hp > 0``), ``death_tick`` (the tick it died in,
                    ``None`` while alive); a dead player's body stays on its cell
``bombs``           dicts ``x``, ``y``, ``owner``, ``fuse`` (the bomb turns into fire at the
                    end of tick ``tick + fuse - 1``), ``power``, in placing order (the order
                    their fires are processed in)
``fires``           the fire that hits during the next tick, one dict per explosion in the
                    order the bombs exploded: ``x``, ``y`` (the bomb's cell), ``owner``,
                    ``up``, ``down``, ``left``, ``right`` (cells covered each way)
``ammo_items``      dicts ``x``, ``y``, ``life`` (the token perishes at the end of tick
                    ``tick + life - 1`` if nobody takes it), sorted by (y, x); exactly the
                    AMMO tiles
``pending_ammo``    sorted ticks until each scheduled ammo spawn (it appears at the end of
                    tick ``tick + pending - 1``)
``treasure_timer``  the next treasure appears at the end of tick ``tick + timer - 1``
``rng``             ``uint64[NUM_STREAMS]``: the env's random streams (optional: without
                    it the env's streams carry on)

Derived keys (``restore`` checks those given against the keys above): ``board`` (ASCII
rows, top row first, see ``maps``), ``positions`` ([A, 2] x, y), ``hp``, ``ammo``,
``alive``, ``scores`` (per player), ``fire`` (sorted (x, y) cells hit during the next
tick).  Not read: ``turns_left`` (``max_turns - tick``) and ``winner`` (the player ranked
first once over, -1 for a draw or while the game goes on).
"""
from collections.abc import Mapping

import numpy as np

from ...core.jit import BatchTyped
from ...core.snapshot import array, fail, flag, integer, require
from ...core.snapshot import rng as snapshot_rng
from . import render
from .constants import AMMO, FLOOR, NUM_TILES, ORE
from .rules import is_block, update_rank_keys

GAME_NAME = "dungeon"
READ_KEYS = ("tick", "steps", "over", "tiles", "ore_hp", "players", "bombs", "fires",
             "ammo_items", "pending_ammo", "treasure_timer")
DERIVED_KEYS = ("board", "positions", "hp", "ammo", "alive", "scores", "fire")
ARMS = ("up", "down", "left", "right")      # fire_reach's order (the move actions')
INT8_MAX, INT16_MIN, INT16_MAX = 127, -32768, 32767
INT32_MIN, INT32_MAX = -2**31, 2**31 - 1
UPDATE_RANK_KEYS = BatchTyped(update_rank_keys)


def take(game, s, e):
    """The snapshot dict of env ``e`` of the state ``s`` of ``game`` (keys above)."""
    A = game.num_agents
    positions = s.positions[e]
    players = [{"x": int(positions[a, 0]), "y": int(positions[a, 1]), "hp": int(s.hp[e, a]),
                "ammo": int(s.ammo[e, a]), "power": int(s.power[e, a]),
                "score": int(s.scores[e, a]), "alive": bool(s.alive[e, a]),
                "death_tick": None if s.alive[e, a] else int(s.death_tick[e, a])}
               for a in range(A)]
    bombs = [{"x": int(s.bomb_x[e, b]), "y": int(s.bomb_y[e, b]),
              "owner": int(s.bomb_owner[e, b]), "fuse": int(s.bomb_timer[e, b]),
              "power": int(s.bomb_power[e, b])} for b in range(int(s.num_bombs[e]))]
    nf = int(s.num_fires[e])
    fires = [dict({"x": int(s.fire_x[e, f]), "y": int(s.fire_y[e, f]),
                   "owner": int(s.fire_owner[e, f])},
                  **{arm: int(s.fire_reach[e, f, d]) for d, arm in enumerate(ARMS)})
             for f in range(nf)]
    tiles = s.tiles[e]
    ys, xs = np.nonzero(tiles == ORE)
    winner = -1
    if s.over[e]:
        key = s.rank_key[e]
        best = np.flatnonzero(key == key.max())
        winner = int(best[0]) if len(best) == 1 else -1
    fire = render.fire_cells(s.fire_x[e, :nf], s.fire_y[e, :nf], s.fire_reach[e, :nf])
    na = int(s.num_ammo[e])
    return {
        "board": render.board_rows(tiles, s.bomb_grid[e], positions, s.alive[e], fire),
        "tick": int(s.tick[e]),
        "turns_left": int(game.config.max_turns - s.tick[e]),
        "steps": int(s.steps[e]),
        "over": bool(s.over[e]),
        "players": players,
        "positions": positions.copy(),
        "hp": s.hp[e].copy(),
        "ammo": s.ammo[e].copy(),
        "alive": s.alive[e].copy(),
        "scores": s.scores[e].copy(),
        "bombs": bombs,
        "fires": fires,
        "fire": sorted(fire),
        "ore_hp": {(int(x), int(y)): int(s.ore_hp[e, y, x]) for y, x in zip(ys, xs)},
        "ammo_items": sorted(({"x": int(s.ammo_x[e, i]), "y": int(s.ammo_y[e, i]),
                               "life": int(s.ammo_life[e, i])} for i in range(na)),
                             key=lambda d: (d["y"], d["x"])),
        "pending_ammo": sorted(int(t) for t in s.pending[e, :int(s.num_pending[e])]),
        "treasure_timer": int(s.treasure_timer[e]),
        "tiles": tiles.copy(),
        "winner": winner,
        "rng": s.rng[e].copy(),
    }


def _int(key, where, value, low, high):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise fail(key, f"{where} must be an int, got {value!r}")
    if not low <= value <= high:
        raise fail(key, f"{where} is {value}, outside [{low}, {high}]")
    return int(value)


def _table(snapshot, key, columns, capacity):
    """``snapshot[key]``, a list of dicts, as ``int64[N, len(columns)]``; ``columns``:
    ``(name, low, high)`` of each field read."""
    rows = snapshot[key]
    if not isinstance(rows, (list, tuple)):
        raise fail(key, f"want a list of dicts, got {type(rows).__name__}")
    if len(rows) > capacity:
        raise fail(key, f"{len(rows)} entries, at most {capacity} fit")
    out = np.zeros((len(rows), len(columns)), dtype=np.int64)
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise fail(key, f"entry {i} is not a dict")
        for j, (name, low, high) in enumerate(columns):
            if name not in row:
                raise fail(key, f"entry {i} has no {name!r}")
            out[i, j] = _int(key, f"entry {i}'s {name}", row[name], low, high)
    return out


def _distinct_cells(key, table, what):
    cells = [(int(x), int(y)) for x, y in table[:, :2]]
    if len(set(cells)) < len(cells):
        twice = next(c for c in cells if cells.count(c) > 1)
        raise fail(key, f"two {what} on cell {twice}")


def _ore_hits(snapshot, tiles, ore_hp):
    """``ore_hp`` as an ``[H, W]`` grid: exactly the ORE tiles, each 1..ore_hp hits."""
    given = snapshot["ore_hp"]
    if not isinstance(given, Mapping):
        raise fail("ore_hp", f"want a dict {{(x, y): hits}}, got {type(given).__name__}")
    grid = np.zeros(tiles.shape, dtype=np.uint8)
    height, width = tiles.shape
    for cell, hits in given.items():
        xy = cell.split(",") if isinstance(cell, str) else cell
        try:
            x, y = (int(v) for v in xy)
        except (TypeError, ValueError):
            raise fail("ore_hp", f"key {cell!r} is not a cell (x, y)") from None
        if not (0 <= x < width and 0 <= y < height) or tiles[y, x] != ORE:
            raise fail("ore_hp", f"cell {(x, y)} holds no ore block")
        grid[y, x] = _int("ore_hp", f"cell {(x, y)}", hits, 1, ore_hp)
    missing = np.argwhere((tiles == ORE) & (grid == 0))
    if len(missing):
        y, x = missing[0]
        raise fail("ore_hp", f"no hits given for the ore block at {(int(x), int(y))}")
    return grid


def _players(snapshot, A, tiles, tick):
    """(table x, y, hp, ammo, power, score; alive[A]; death_tick[A] or -1 while alive)."""
    height, width = tiles.shape
    table = _table(snapshot, "players", (
        ("x", 0, width - 1), ("y", 0, height - 1), ("hp", INT16_MIN, INT16_MAX),
        ("ammo", 0, INT16_MAX), ("power", 0, INT8_MAX), ("score", INT32_MIN, INT32_MAX)), A)
    if len(table) != A:
        raise fail("players", f"{len(table)} players, this game has {A}")
    alive = np.zeros(A, dtype=np.bool_)
    death_tick = np.full(A, -1, dtype=np.int64)
    for a, player in enumerate(snapshot["players"]):
        for name in ("alive", "death_tick"):
            if name not in player:
                raise fail("players", f"entry {a} has no {name!r}")
        alive[a] = flag(player, "alive")
        if alive[a] != (table[a, 2] > 0):
            raise fail("players", f"player {a}: alive is {bool(alive[a])} with hp {table[a, 2]}")
        if alive[a] and player["death_tick"] is not None:
            raise fail("players", f"player {a} is alive: its death_tick must be None")
        if not alive[a]:
            death_tick[a] = _int("players", f"player {a}'s death_tick", player["death_tick"],
                                 0, tick - 1)
    _distinct_cells("players", table, "players")
    for a, (x, y) in enumerate(table[:, :2]):
        if is_block(tiles[y, x]):
            raise fail("players", f"player {a} stands on a block at {(int(x), int(y))}")
    return table, alive, death_tick


def _bombs(snapshot, A, tiles):
    height, width = tiles.shape
    table = _table(snapshot, "bombs", (
        ("x", 0, width - 1), ("y", 0, height - 1), ("owner", 0, A - 1), ("fuse", 1, INT16_MAX),
        ("power", 0, INT8_MAX)), height * width)
    _distinct_cells("bombs", table, "bombs")
    for x, y in table[:, :2]:
        if tiles[y, x] != FLOOR:
            raise fail("bombs", f"a bomb at {(int(x), int(y))} is not on the floor")
    return table


def _fires(snapshot, A, tiles):
    height, width = tiles.shape
    longest = max(height, width) - 1
    table = _table(snapshot, "fires", (("x", 0, width - 1), ("y", 0, height - 1),
                                       ("owner", 0, A - 1))
                   + tuple((arm, 0, longest) for arm in ARMS), height * width)
    for x, y, _, up, down, left, right in table:
        if y + up >= height or y - down < 0 or x - left < 0 or x + right >= width:
            raise fail("fires", f"the fire at {(int(x), int(y))} reaches off the board")
    return table


def _ammo_items(snapshot, tiles):
    height, width = tiles.shape
    table = _table(snapshot, "ammo_items", (("x", 0, width - 1), ("y", 0, height - 1),
                                            ("life", 1, INT16_MAX)), height * width)
    _distinct_cells("ammo_items", table, "tokens")
    for x, y in table[:, :2]:
        if tiles[y, x] != AMMO:
            raise fail("ammo_items", f"a token at {(int(x), int(y))} where tiles has no AMMO")
    if len(table) != int((tiles == AMMO).sum()):
        raise fail("ammo_items", f"{len(table)} tokens for {int((tiles == AMMO).sum())} "
                                 "AMMO tiles")
    return table


def _check_over(over, alive, tick, max_turns):
    if not over and (alive.sum() <= 1 or tick >= max_turns):
        raise fail("over", f"the game has ended ({int(alive.sum())} alive at tick {tick}, "
                           f"max_turns {max_turns}) but over is False")


def _check_derived(game, snapshot, s):
    """The derived keys given agree with what the read keys made of ``s`` (env 0)."""
    made = take(game, s, 0)
    for key in DERIVED_KEYS:
        if key not in snapshot:
            continue
        try:
            same = np.array_equal(np.asarray(snapshot[key]), np.asarray(made[key]))
        except (TypeError, ValueError):
            same = False
        if not same:
            raise fail(key, f"{snapshot[key]!r} disagrees with the other keys, which give "
                            f"{made[key]!r}")


def write(game, snapshot, s):
    """Check ``snapshot`` whole, then write it into env 0 of the one-env state ``s``."""
    require(snapshot, READ_KEYS, GAME_NAME)
    c, A = game.config, game.num_agents
    H, W = game.height, game.width
    tick = integer(snapshot, "tick", 0, c.max_turns)
    steps = integer(snapshot, "steps", 0, INT32_MAX)
    over = flag(snapshot, "over")
    tiles = array(snapshot, "tiles", (H, W), 0, NUM_TILES - 1)
    ore = _ore_hits(snapshot, tiles, c.ore_hp)
    players, alive, death_tick = _players(snapshot, A, tiles, tick)
    bombs = _bombs(snapshot, A, tiles)
    fires = _fires(snapshot, A, tiles)
    tokens = _ammo_items(snapshot, tiles)
    pending = array(snapshot, "pending_ammo", (None,), 1, INT16_MAX)
    if len(pending) > s.pending.shape[1]:
        raise fail("pending_ammo", f"{len(pending)} spawns, at most {s.pending.shape[1]} fit")
    treasure_timer = integer(snapshot, "treasure_timer", 1, INT32_MAX)
    rng = snapshot_rng(snapshot)
    _check_over(over, alive, tick, c.max_turns)

    s.tiles[0] = tiles
    s.ore_hp[0] = ore
    s.bomb_grid[0] = 0
    for b, (x, y, owner, fuse, power) in enumerate(bombs):
        s.bomb_x[0, b], s.bomb_y[0, b], s.bomb_owner[0, b] = x, y, owner
        s.bomb_timer[0, b], s.bomb_power[0, b] = fuse, power
        s.bomb_grid[0, y, x] = b + 1
    s.num_bombs[0] = len(bombs)
    for f, (x, y, owner, *reach) in enumerate(fires):
        s.fire_x[0, f], s.fire_y[0, f], s.fire_owner[0, f] = x, y, owner
        s.fire_reach[0, f] = reach
    s.num_fires[0] = len(fires)
    for a, (x, y, hp, ammo, power, score) in enumerate(players):
        s.positions[0, a] = (x, y)
        s.hp[0, a], s.prev_hp[0, a] = hp, max(hp, 0)
        s.ammo[0, a], s.power[0, a] = ammo, power
        s.scores[0, a], s.prev_scores[0, a] = score, score
        s.alive[0, a], s.prev_alive[0, a] = alive[a], alive[a]
        s.death_tick[0, a] = death_tick[a] if not alive[a] else c.max_turns + 1
    for i, (x, y, life) in enumerate(tokens):
        s.ammo_x[0, i], s.ammo_y[0, i], s.ammo_life[0, i] = x, y, life
    s.num_ammo[0] = len(tokens)
    s.pending[0, :len(pending)] = pending
    s.num_pending[0] = len(pending)
    s.treasure_timer[0] = treasure_timer
    s.num_gone[0] = 0
    s.tick[0], s.steps[0], s.over[0] = tick, steps, over
    if rng is not None:
        s.rng[0] = rng
    UPDATE_RANK_KEYS(s, game.params, 0)
    _check_derived(game, snapshot, s)
