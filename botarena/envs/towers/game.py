"""``TowersGame``: towers' state, params and spaces for the batched-game contract."""
import functools
from collections.abc import Mapping, Sequence

import numpy as np
from gymnasium import spaces

from ...core import frame
from ...core.batched import OBS_ONE, BatchedGame
from ...core.grid import DIRECTIONS
from ...core.jit import BatchTyped
from ...core.params import make_params
from ...core.rewards import REWARD_MODES
from ...core.snapshot import array, fail, flag, integer, require
from ...core.snapshot import rng as snapshot_rng
from . import kernel, render
from .bots import BOTS
from .config import Config
from .constants import (BOT_COMMAND_NAMES, CHAR_BOTS, CHAR_BOTS_ON_FLAG, CHAR_TERRAIN,
                        CHAR_TOWERS, CHAR_TOWERS_ON_FLAG, COMMAND_NAMES, FIRST_MOVE, FLAG,
                        LAND, NUM_COMMANDS, NUM_PLANES, NUM_PLAYERS, WATER, BotCommand, Command)
from .maps import TowersMap, parse_map
from .paths import NUM_DIRECTIONS, forget_fields
from .rules import update_rank_keys, view_direction, view_tile

GAME_NAME = "towers_v0"
OBSERVE_ONE = BatchTyped(kernel.observe_one)
# the keys ``restore`` needs; it also reads ``steps`` (default: ``turn``), ``over``
# (default: False) and ``rng`` (default: the env's RNG carries on) when present
SNAPSHOT_KEYS = ("map", "turn", "scores", "turn_scores", "next_id", "bots", "towers")
BOT_KEYS = ("owner", "id", "x", "y", "hp", "command", "target_x", "target_y", "dead")
TOWER_KEYS = ("owner", "id", "x", "y", "hp", "age", "dead")
INT32_MAX = int(np.iinfo(np.int32).max)
# the types a snapshot's unit fields take (``TowersGame._table``)
INT_TYPES = (int, np.integer)
NUMBER_TYPES = (int, float, np.integer, np.floating)
FLAG_TYPES = (bool, np.bool_, int, np.integer)
BOOL_TYPES = (bool, np.bool_)
MAPS_KEPT = 8          # parsed maps remembered by ``restore`` (a client restores every turn)


class OPEN_BELOW(int):
    """An upper bound that the value must stay below (positions: below ``map_size``)."""

    @property
    def limit(self):
        return int(self)


def _is(kind, types):
    """Whether a value of type ``kind`` is of ``types``; a bool only where they name bool."""
    return issubclass(kind, types) and (bool in types or not issubclass(kind, BOOL_TYPES))


@functools.lru_cache(maxsize=MAPS_KEPT)
def _terrain_of(rows, size):
    """The checked terrain of a map given as a tuple of rows (read-only: shared)."""
    terrain = parse_map(list(rows), size, "the map").terrain
    terrain.flags.writeable = False
    return terrain


def neighbours(size):
    """int64[N * N, 8]: the flat neighbour of each tile in each direction, -1 off the map."""
    nbr = np.full((size * size, len(DIRECTIONS)), -1, dtype=np.int64)
    for x in range(size):
        for y in range(size):
            for k, (dx, dy) in enumerate(DIRECTIONS.tolist()):
                if 0 <= x + dx < size and 0 <= y + dy < size:
                    nbr[x * size + y, k] = (x + dx) * size + y + dy
    return nbr


class TowersGame(BatchedGame):
    """E towers games.  ``TowersGame(Config(...), num_envs)``."""

    agent_prefix = "player"
    kernels = kernel
    bots = BOTS
    command_names = COMMAND_NAMES
    action_meanings = Command
    cell_pixels = render.TILE_PIXELS

    def __init__(self, config=None, num_envs=1, threads=None):
        config = Config() if config is None else config
        self.map = config.load_map()
        self.size = config.map_size
        super().__init__(config, num_envs, threads)
        self.observation_space = spaces.Box(0, OBS_ONE[config.obs_dtype], self.observation_shape(),
                                            dtype=self.obs.dtype)
        self.action_space = spaces.MultiDiscrete(np.full(self.size * self.size, NUM_COMMANDS,
                                                         dtype=np.int64))

    def agent_count(self):
        return NUM_PLAYERS

    def make_state(self, num_envs):
        from .state import alloc
        return alloc(num_envs, self.size, self.config.max_num_bots, self.config.max_num_towers)

    def make_params(self):
        c = self.config
        N = self.size
        integer = c.obs_dtype == "uint8"
        terrain = self.map.terrain if self.map is not None else np.zeros((N, N), np.uint8)
        return make_params(
            kernel.Params, c, nbr=neighbours(N),
            base_tile=np.array([0, N * N - 1], dtype=np.int64), terrain=terrain, random_board=c.random_board, reward_mode=REWARD_MODES[c.reward],
            full=float(OBS_ONE[c.obs_dtype]), round=0.5 if integer else 0.0,
            noop_mask=np.tile(np.eye(NUM_COMMANDS, 1, dtype=np.int8).reshape(-1), N * N))

    def observation_shape(self):
        return (NUM_PLANES, self.size, self.size)

    def num_actions(self):
        return NUM_COMMANDS * self.size * self.size

    def action_shape(self):
        return (self.size * self.size,)

    def action_values(self):
        return NUM_COMMANDS


    # -- views of one env ------------------------------------------------------------
    def terrain(self, e=0):
        return self.state.terrain[e].copy()

    def _bots(self, e, living=True):
        """(owner, x, y) of env e's bots (only the living ones by default)."""
        s = self.state
        return [(a, float(s.bot_x[e, a, i]), float(s.bot_y[e, a, i]))
                for a in range(NUM_PLAYERS) for i in range(int(s.num_bots[e, a]))
                if not (living and s.bot_dead[e, a, i])]

    def _towers(self, e):
        """(owner, tile x, tile y) of env e's living towers."""
        s = self.state
        return [(a, int(s.tower_x[e, a, i]), int(s.tower_y[e, a, i]))
                for a in range(NUM_PLAYERS) for i in range(int(s.num_towers[e, a]))
                if not s.tower_dead[e, a, i]]

    def board_rows(self, e=0):
        return render.board_rows(self.state.terrain[e], self._bots(e), self._towers(e))

    def snapshot(self, e=0):
        """Copies of env e: a dict, the stable format that ``restore`` reads back.

        State (``restore`` reads these):

        - ``map``: the terrain, N rows of N space-separated letters (``L``, ``W``, ``F``).
        - ``turn``: turns played; ``steps``: steps since the reset (``max_steps``
          truncates on it); ``over``: the game has ended.
        - ``scores``: int32[2] game points; ``turn_scores``: int32[2], the last turn's.
        - ``next_id``: the id the next unit gets (above every id; never reused).
        - ``bots``: dicts ``owner``, ``id``, ``x``, ``y`` (float position, absolute: player
          0's frame), ``hp``, ``command`` (``"idle"``, ``"move"``, ``"blast"``,
          ``"transform"``), ``target_x``, ``target_y`` (its target position), ``dead``
          (died this turn: leaves at the next turn's start); player 0's pool in order,
          then player 1's.
        - ``towers``: dicts ``owner``, ``id``, ``x``, ``y`` (its tile; its position is the
          tile's midpoint ``(x + 0.5, y + 0.5)``), ``hp``, ``age`` (turns it has stood: it
          may blast from ``tower_min_blast_age``), ``dead``; in pool order as bots.
        - ``rng``: uint64[2], the env's random streams (``core.rng``).

        Views (``restore`` ignores them): ``board`` (ASCII rows, row x = 0 first: ``.``
        land, ``~`` water, ``!`` flag, ``a``/``b`` bots of player 0/1 (``A``/``B`` on a
        flag), ``*`` bots of both, ``x``/``y`` a tower of player 0/1 (``X``/``Y`` on a
        flag)), ``turns_left``, ``positions`` ([2, 2], each player's base tile, for tools
        that expect one position per agent), ``winner`` (0 or 1 once over, -1 for a draw
        or while the game goes on)."""
        s = self.state
        bots = []
        for a in range(NUM_PLAYERS):
            for i in range(int(s.num_bots[e, a])):
                bots.append({"owner": a, "id": int(s.bot_id[e, a, i]),
                             "x": float(s.bot_x[e, a, i]), "y": float(s.bot_y[e, a, i]),
                             "hp": int(s.bot_hp[e, a, i]),
                             "command": BOT_COMMAND_NAMES[int(s.bot_cmd[e, a, i])],
                             "target_x": float(s.bot_tx[e, a, i]),
                             "target_y": float(s.bot_ty[e, a, i]),
                             "dead": bool(s.bot_dead[e, a, i])})
        towers = []
        for a in range(NUM_PLAYERS):
            for i in range(int(s.num_towers[e, a])):
                towers.append({"owner": a, "id": int(s.tower_id[e, a, i]),
                               "x": int(s.tower_x[e, a, i]), "y": int(s.tower_y[e, a, i]),
                               "hp": int(s.tower_hp[e, a, i]),
                               "age": int(s.turn[e] - s.tower_born[e, a, i]),
                               "dead": bool(s.tower_dead[e, a, i])})
        winner = -1
        if s.over[e] and s.scores[e, 0] != s.scores[e, 1]:
            winner = int(np.argmax(s.scores[e]))
        return {
            "map": TowersMap(s.terrain[e]).rows(),
            "board": self.board_rows(e),
            "turn": int(s.turn[e]),
            "turns_left": int(self.config.max_turns - s.turn[e]),
            "steps": int(s.steps[e]),
            "over": bool(s.over[e]),
            "scores": s.scores[e].copy(),
            "turn_scores": s.turn_scores[e].copy(),
            "next_id": int(s.next_id[e]),
            "bots": bots,
            "towers": towers,
            "positions": np.array([[0, 0], [self.size - 1] * 2], dtype=np.int16),
            "winner": winner,
            "rng": s.rng[e].copy(),
        }

    def write_snapshot(self, snapshot, state):
        """Check ``snapshot`` (the keys ``snapshot`` documents) whole, then write it into
        env 0 of ``state`` (see ``BatchedGame.restore``)."""
        require(snapshot, SNAPSHOT_KEYS, GAME_NAME)
        c, N = self.config, self.size
        try:
            rows = snapshot["map"]
            rows = tuple(rows.splitlines() if isinstance(rows, str) else map(str, rows))
            terrain = _terrain_of(rows, N)
        except (TypeError, ValueError) as err:
            raise fail("map", str(err)) from None
        turn = integer(snapshot, "turn", 0, c.max_turns)
        steps = integer(snapshot, "steps", 0, INT32_MAX) if "steps" in snapshot else turn
        over = flag(snapshot, "over") if "over" in snapshot else False
        scores = array(snapshot, "scores", (NUM_PLAYERS,), 0, INT32_MAX)
        turn_scores = array(snapshot, "turn_scores", (NUM_PLAYERS,), 0, INT32_MAX)
        next_id = integer(snapshot, "next_id", 0, INT32_MAX)
        towers = self._read_towers(snapshot, terrain, turn)
        bots = self._read_bots(snapshot, terrain, towers)
        ids = np.concatenate([bots["id"], towers["id"]])
        if len(np.unique(ids)) != len(ids):
            raise fail("bots", "two units (bots or towers) have the same id")
        if len(ids) and next_id <= ids.max():
            raise fail("next_id", f"{next_id} is not above every unit's id (the highest is "
                                  f"{ids.max()})")
        rng = snapshot_rng(snapshot)

        s, e = state, 0
        T = c.max_num_towers
        s.terrain[e] = terrain
        s.tower_at[e] = -1
        s.count[e] = 0
        s.hp_sum[e] = 0
        for a in range(NUM_PLAYERS):
            own = bots["owner"] == a
            n = int(own.sum())
            s.num_bots[e, a] = n
            s.bot_x[e, a, :n], s.bot_y[e, a, :n] = bots["x"][own], bots["y"][own]
            s.bot_hp[e, a, :n], s.bot_id[e, a, :n] = bots["hp"][own], bots["id"][own]
            s.bot_cmd[e, a, :n] = bots["command"][own]
            s.bot_tx[e, a, :n] = bots["target_x"][own]
            s.bot_ty[e, a, :n] = bots["target_y"][own]
            s.bot_dead[e, a, :n] = bots["dead"][own]
            s.bot_damage[e, a, :n] = 0
            own = towers["owner"] == a
            n = int(own.sum())
            s.num_towers[e, a] = n
            s.tower_x[e, a, :n], s.tower_y[e, a, :n] = towers["x"][own], towers["y"][own]
            s.tower_hp[e, a, :n], s.tower_id[e, a, :n] = towers["hp"][own], towers["id"][own]
            s.tower_born[e, a, :n] = turn - towers["age"][own]
            s.tower_dead[e, a, :n] = towers["dead"][own]
            s.tower_blast[e, a, :n] = False
            s.tower_damage[e, a, :n] = 0
            standing = np.flatnonzero(~towers["dead"][own])
            s.tower_at[e, towers["x"][own][standing] * N + towers["y"][own][standing]] = \
                a * T + standing
        forget_fields(s, e)
        s.field_next[e] = 0
        s.scores[e], s.prev_scores[e], s.turn_scores[e] = scores, scores, turn_scores
        s.alive[e], s.prev_alive[e] = True, True
        s.next_id[e] = next_id
        s.turn[e], s.steps[e], s.over[e] = turn, steps, over
        if rng is not None:
            s.rng[e] = rng
        update_rank_keys(s, e)

    def _table(self, snapshot, key, columns):
        """``snapshot[key]``, a list of dicts, as a float64[N, len(columns)] array, each
        column checked at once: ``columns`` holds ``(name, types, low, high)``; a value must
        be of ``types`` (a bool only where ``types`` names bool) and in ``[low, high]``
        (``low`` may be an array, one bound per entry; ``high = OPEN_BELOW(n)`` means below
        ``n``).  The error names the first bad entry."""
        value = snapshot[key]
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise fail(key, f"want a list, got {type(value).__name__}")
        names = [column[0] for column in columns]
        for i, entry in enumerate(value):
            if not isinstance(entry, Mapping) or not entry.keys() >= set(names):
                raise fail(key, f"entry {i} ({entry!r}): want a dict with keys "
                                f"{', '.join(names)}")
        table = np.zeros((len(value), len(columns)))
        for j, (name, types, low, high) in enumerate(columns):
            values = [entry[name] for entry in value]
            bounds = np.broadcast_to(np.asarray(low), len(values))
            typed = {kind: _is(kind, types) for kind in set(map(type, values))}
            good = np.array([typed[type(v)] for v in values], dtype=bool)
            if good.all():                   # Python's comparisons: no overflow, NaN fails
                numbers = np.array(values, dtype=object)
                with np.errstate(invalid="ignore"):
                    good = (numbers >= bounds) & (numbers < high.limit
                                                  if isinstance(high, OPEN_BELOW)
                                                  else numbers <= high)
            if not good.all():
                i = int(np.argmin(good))
                want = "a number" if float in types else "an int"
                top = f"{high.limit})" if isinstance(high, OPEN_BELOW) else f"{high}]"
                raise fail(key, f"entry {i}: {name} = {values[i]!r}, want {want} in "
                                f"[{bounds[i]}, {top}")
            table[:, j] = values
        return table

    @staticmethod
    def _tiles_checked(key, xs, ys, terrain, living, taken, what, where):
        """Raise unless no tile ``(xs, ys)`` is water and no living one (``living``) is in
        ``taken`` (bool[N, N]), which ``where`` names."""
        for i in np.flatnonzero(terrain[xs, ys] == WATER)[:1]:
            raise fail(key, f"entry {i}: a {what} in water at (x, y) = "
                            f"{(int(xs[i]), int(ys[i]))}")
        for i in np.flatnonzero(living & taken[xs, ys])[:1]:
            raise fail(key, f"entry {i}: a {what} {where} (x, y) = {(int(xs[i]), int(ys[i]))}")

    def _owners_checked(self, key, owners, most, what):
        for a in range(NUM_PLAYERS):
            if (owners == a).sum() > most:
                raise fail(key, f"player {a} has more than {what} = {most}")

    def _read_towers(self, snapshot, terrain, turn):
        """The towers' columns (owner, id, x, y, hp, age, dead), checked."""
        c, N = self.config, self.size
        dead = self._table(snapshot, "towers", [("dead", FLAG_TYPES, 0, 1)])[:, 0] > 0
        t = self._table(snapshot, "towers", [
            ("owner", INT_TYPES, 0, NUM_PLAYERS - 1), ("id", INT_TYPES, 0, INT32_MAX),
            ("x", INT_TYPES, 0, N - 1), ("y", INT_TYPES, 0, N - 1),
            ("hp", INT_TYPES, np.where(dead, -INT32_MAX, 1), c.max_tower_hp),
            ("age", INT_TYPES, 0, turn)]).astype(np.int64)
        owner, x, y = t[:, 0], t[:, 2], t[:, 3]
        bases = np.zeros((N, N), dtype=bool)
        bases[0, 0] = bases[N - 1, N - 1] = True
        self._tiles_checked("towers", x, y, terrain, np.ones(len(t), dtype=bool), bases,
                            "tower", "on a base tile")
        tile = x * N + y
        living = tile[~dead]
        if len(np.unique(living)) != len(living):
            two = next(u for u in living.tolist() if (living == u).sum() > 1)
            raise fail("towers", f"two living towers at (x, y) = {divmod(two, N)}")
        self._owners_checked("towers", owner, c.max_num_towers, "max_num_towers")
        return {"owner": owner, "id": t[:, 1], "x": x, "y": y, "hp": t[:, 4],
                "age": t[:, 5], "dead": dead}

    def _read_bots(self, snapshot, terrain, towers):
        """The bots' columns (owner, id, x, y, hp, command, target_x, target_y, dead),
        checked; positions as float32."""
        c, N = self.config, self.size
        dead = self._table(snapshot, "bots", [("dead", FLAG_TYPES, 0, 1)])[:, 0] > 0
        inside = OPEN_BELOW(N)
        b = self._table(snapshot, "bots", [
            ("owner", INT_TYPES, 0, NUM_PLAYERS - 1), ("id", INT_TYPES, 0, INT32_MAX),
            ("hp", INT_TYPES, np.where(dead, -INT32_MAX, 1), c.max_bot_hp),
            ("x", NUMBER_TYPES, 0, inside), ("y", NUMBER_TYPES, 0, inside),
            ("target_x", NUMBER_TYPES, 0, inside), ("target_y", NUMBER_TYPES, 0, inside)])
        commands = []
        for i, entry in enumerate(snapshot["bots"]):
            if entry["command"] not in BOT_COMMAND_NAMES:
                raise fail("bots", f"entry {i}: command {entry['command']!r}, want one of "
                                   f"{', '.join(BOT_COMMAND_NAMES)}")
            commands.append(BOT_COMMAND_NAMES.index(entry["command"]))
        x, y, tx, ty = (b[:, k].astype(np.float32) for k in range(3, 7))
        towered = np.zeros((N, N), dtype=bool)
        towered[towers["x"][~towers["dead"]], towers["y"][~towers["dead"]]] = True
        self._tiles_checked("bots", np.floor(x).astype(np.int64), np.floor(y).astype(np.int64),
                            terrain, ~dead, towered, "bot", "inside a tower's tile")
        owner = b[:, 0].astype(np.int64)
        self._owners_checked("bots", owner, c.max_num_bots, "max_num_bots")
        return {"owner": owner, "id": b[:, 1].astype(np.int64), "hp": b[:, 2].astype(np.int64),
                "x": x, "y": y, "target_x": tx, "target_y": ty,
                "command": np.array(commands, dtype=np.int64), "dead": dead}

    def observe_env(self, e):
        OBSERVE_ONE(self.state, self.params, e, self.obs, self.masks, self.obs_journal)

    def set_position(self, rows, e=0, turn=None):
        """Put env e into the position of an ASCII board (``snapshot()["board"]``'s
        characters, a list of rows or a string): the terrain, one idle bot with full HP
        at the centre of each tile marked ``a``/``b`` (``A``/``B`` on a flag) and a tower
        with full HP, old enough to blast, on each ``x``/``y`` (``X``/``Y``); scores and
        the other keys stay.  For scenarios and debugging (through ``restore``)."""
        if isinstance(rows, str):
            rows = [r.strip() for r in rows.splitlines() if r.strip()]
        N, c = self.size, self.config
        if len(rows) != N or any(len(r) != N for r in rows):
            raise ValueError(f"the board must be {N} rows of {N} characters")
        snap = self.snapshot(e)
        if turn is not None:
            snap["turn"] = turn
        letters, bots, towers = [], [], []
        marks = {**{ch: (LAND, None) for ch in CHAR_TERRAIN[LAND]},
                 **{ch: (WATER, None) for ch in CHAR_TERRAIN[WATER]},
                 **{ch: (FLAG, None) for ch in CHAR_TERRAIN[FLAG]}}
        for a in range(NUM_PLAYERS):
            marks[CHAR_BOTS[a]] = (LAND, ("bot", a))
            marks[CHAR_BOTS_ON_FLAG[a]] = (FLAG, ("bot", a))
            marks[CHAR_TOWERS[a]] = (LAND, ("tower", a))
            marks[CHAR_TOWERS_ON_FLAG[a]] = (FLAG, ("tower", a))
        for x, row in enumerate(rows):
            line = []
            for y, ch in enumerate(row):
                if ch not in marks:
                    raise ValueError(f"unknown character {ch!r} at (x, y) = {(x, y)}")
                code, unit = marks[ch]
                line.append("LWF"[code])
                if unit and unit[0] == "bot":
                    bots.append({"owner": unit[1], "id": 0, "x": x + 0.5, "y": y + 0.5,
                                 "hp": c.max_bot_hp, "command": "idle", "target_x": x + 0.5,
                                 "target_y": y + 0.5, "dead": False})
                elif unit:
                    towers.append({"owner": unit[1], "id": 0, "x": x, "y": y,
                                   "hp": c.max_tower_hp,
                                   "age": min(c.tower_min_blast_age, snap["turn"]),
                                   "dead": False})
            letters.append(" ".join(line))
        units = sorted(bots, key=lambda b: b["owner"]) + sorted(towers, key=lambda t: t["owner"])
        for k, unit in enumerate(units):
            unit["id"] = k
        snap.update(map=letters, bots=bots, towers=towers, next_id=len(units))
        self.restore(snap, e)

    def render_ansi(self, e=0):
        s = self.state
        lines = self.board_rows(e)
        lines.append(f"turn={int(s.turn[e])} " + " ".join(
            f"p{a}:points={int(s.scores[e, a])},turn_score={int(s.turn_scores[e, a])},"
            f"bots={sum(1 for o, _, _ in self._bots(e) if o == a)},"
            f"towers={sum(1 for o, _, _ in self._towers(e) if o == a)}"
            for a in range(NUM_PLAYERS)))
        return "\n".join(lines) + "\n"

    def render_rgb(self, e=0):
        s = self.state
        bots, towers = self._bots(e), self._towers(e)
        players = [frame.player_line(
            f"P{a}", render.PLAYER_RGB[a], s.scores[e, a],
            [("FLAGS", s.turn_scores[e, a]), ("BOTS", sum(owner == a for owner, _, _ in bots)),
             ("TOWERS", sum(owner == a for owner, _, _ in towers))])
            for a in range(NUM_PLAYERS)]
        return frame.status_frame(render.rgb(s.terrain[e], bots, towers), s.turn[e],
                                  self.config.max_turns, s.over[e], players, render.LEGEND)

    def seat_view(self, seat):
        """Player_1 sees the board turned by half a turn: tiles and directions."""
        tiles = self.size * self.size
        cells = np.array([view_tile(t, seat, tiles) for t in range(tiles)])
        commands = np.arange(NUM_COMMANDS)
        commands[FIRST_MOVE:FIRST_MOVE + NUM_DIRECTIONS] = FIRST_MOVE + np.array(
            [view_direction(k, seat) for k in range(NUM_DIRECTIONS)])
        return cells, commands

    @property
    def global_state_space(self):
        return spaces.Box(0.0, 1.0, (7, self.size, self.size), dtype=np.float32)

    def global_state(self, e=0):
        """float32 planes in absolute terms: water, flag, each player's bots (count /
        max_num_bots), each player's towers (HP / max_tower_hp), turn / max_turns."""
        c, s = self.config, self.state
        out = np.zeros(self.global_state_space.shape, dtype=np.float32)
        out[0] = s.terrain[e] == WATER
        out[1] = s.terrain[e] == FLAG
        for owner, x, y in self._bots(e):
            out[2 + owner, int(x), int(y)] += 1.0 / c.max_num_bots
        for a in range(NUM_PLAYERS):
            for i in range(int(s.num_towers[e, a])):
                if not s.tower_dead[e, a, i]:
                    out[4 + a, s.tower_x[e, a, i], s.tower_y[e, a, i]] = \
                        min(1.0, s.tower_hp[e, a, i] / c.max_tower_hp)
        out[6] = min(1.0, int(s.turn[e]) / c.max_turns)
        return out


__all__ = ["TowersGame", "Command", "BotCommand"]
