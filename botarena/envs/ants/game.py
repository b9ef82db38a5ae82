"""``AntsGame``: ants' state, params and spaces for the batched-game contract."""
import operator
from collections.abc import Mapping, Sequence

import numpy as np
from gymnasium import spaces

from ...core import frame
from ...core.batched import OBS_DTYPES, OBS_ONE, BatchedGame
from ...core.jit import BatchTyped
from ...core.params import make_params
from ...core.rewards import REWARD_MODES
from ...core.snapshot import array, fail, flag, integer, require
from ...core.snapshot import rng as snapshot_rng
from . import kernel, render
from .bots import BOTS
from .config import Config
from .constants import (CHAR_ANTS, CHAR_ANTS_ON_HILL, CHAR_FOOD, CHAR_HILLS, CHAR_LAND,
                        CHAR_RAZED, CHAR_WATER, COMMAND_DELTAS, COMMAND_NAMES, NUM_COMMANDS,
                        HILL_REACH, NUM_PLANES, UNREACHED, Command)
from .rules import Draws, land_distances, update_rank_keys
from .state import alloc

GAME_NAME = "ants_v0"
OBSERVE_ONE = BatchTyped(kernel.observe_one)
# the keys ``restore`` needs; it also reads ``steps`` (default: ``turn``), ``over``
# (default: False) and ``rng`` (default: the env's RNG carries on) when present
SNAPSHOT_KEYS = ("turn", "ants", "next_ant_id", "hills", "food", "stored_food", "scores",
                 "alive", "elim_turn")
ANT_KEYS = ("owner", "id", "x", "y")
HILL_KEYS = ("owner", "x", "y", "razed")
INT32_MAX = int(np.iinfo(np.int32).max)
INT32_MIN = int(np.iinfo(np.int32).min)


def disc_offsets(radius2, include_centre, column_major=False):
    """(dx, dy) rows with dx^2 + dy^2 <= radius2, in reading order (dy, then dx), or
    column by column (dx, then dy: the original engine's scan order) if
    ``column_major``."""
    r = int(np.floor(np.sqrt(radius2)))
    rows = [(dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
            if dx * dx + dy * dy <= radius2 and (include_centre or (dx, dy) != (0, 0))]
    if column_major:
        rows.sort()
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


def hill_nearness(move_ok, width, hills, full, round_, dtype):
    """``dtype[K, H*W]``: the HILL_PROXIMITY plane that each hill of the map gives alone
    (``full * (HILL_REACH - d) / HILL_REACH + round_`` at d steps over land, 0 from
    HILL_REACH steps, cut off or water); a colony's plane is the largest over the standing
    hills of the other colonies (``observe.show_hill_proximity``)."""
    cells = move_ok.shape[0]
    near = np.zeros((len(hills), cells), dtype=dtype)
    for k, (x, y) in enumerate(hills[:, :2]):
        dist = np.full(cells, UNREACHED, dtype=np.int64)
        queue = np.zeros(cells, dtype=np.int64)
        dist[y * width + x] = 0
        queue[0] = y * width + x
        land_distances(move_ok, width, dist, queue, 1)
        close = (dist != UNREACHED) & (dist < HILL_REACH)
        near[k, close] = full * (HILL_REACH - dist[close]) / HILL_REACH + round_
    return near


class AntsGame(BatchedGame):
    """E ants games.  ``AntsGame(Config(...), num_envs)``."""

    agent_prefix = "colony"
    kernels = kernel
    bots = BOTS
    command_names = COMMAND_NAMES
    action_meanings = Command
    cell_pixels = render.CELL_PIXELS

    def __init__(self, config=None, num_envs=1, threads=None):
        config = Config() if config is None else config
        self.map = config.load_map()
        self.height, self.width = self.map.height, self.map.width
        self._players = config.num_players
        super().__init__(config, num_envs, threads)
        self.observation_space = spaces.Box(0, OBS_ONE[config.obs_dtype], self.observation_shape(),
                                            dtype=self.obs.dtype)
        self.action_space = spaces.MultiDiscrete(np.full(self.height * self.width, NUM_COMMANDS,
                                                         dtype=np.int64))

    def agent_count(self):
        return self._players

    def make_state(self, num_envs):
        return alloc(num_envs, self.height, self.width, self._players, len(self.map.hills),
                     self.config.max_food)

    def make_params(self):
        c = self.config
        H, W = self.height, self.width
        water = self.map.water
        dtype = OBS_DTYPES[c.obs_dtype]
        integer = c.obs_dtype == "uint8"
        full = OBS_ONE[c.obs_dtype]
        move_ok = np.zeros((H * W, NUM_COMMANDS), dtype=np.uint8)
        for y in range(H):
            for x in range(W):
                if water[y, x]:
                    continue
                move_ok[y * W + x, 0] = 1
                for k in range(1, NUM_COMMANDS):
                    nx, ny = x + COMMAND_DELTAS[k, 0], y + COMMAND_DELTAS[k, 1]
                    if 0 <= nx < W and 0 <= ny < H and not water[ny, nx]:
                        move_ok[y * W + x, k] = 1
        hills = self.map.hills
        attack = disc_offsets(c.attack_radius2, False)
        gather = disc_offsets(c.gather_radius2, True, column_major=True)
        half = np.floor(full * 0.5 + 0.5) if integer else 0.5
        round_ = 0.5 if integer else 0.0
        return make_params(
            kernel.Params, c, water_plane=(water.reshape(-1) * full).astype(dtype),
            land_cells=np.flatnonzero(water.reshape(-1) == 0).astype(np.int64),
            move_ok=move_ok,
            stay_mask=np.tile(np.eye(NUM_COMMANDS, 1, dtype=np.int8).reshape(-1), H * W),
            hill_x=hills[:, 0].copy(), hill_y=hills[:, 1].copy(),
            hill_owner=hills[:, 2].astype(np.int8),
            attack_offsets=attack, attack_reach=int(np.abs(attack).max(initial=0)),
            gather_offsets=gather, gather_reach=int(np.abs(gather).max(initial=0)),
            hill_near=hill_nearness(move_ok, W, hills, float(full), round_, dtype),
            reward_mode=REWARD_MODES[c.reward],
            on=dtype(full), half=dtype(half), full=float(full), round=round_)

    def observation_shape(self):
        return (NUM_PLANES, self.height, self.width)

    def num_actions(self):
        return NUM_COMMANDS * self.height * self.width

    def action_shape(self):
        return (self.height * self.width,)

    def action_values(self):
        return NUM_COMMANDS


    # -- views of one env ------------------------------------------------------------
    def _ants(self, e):
        s = self.state
        n = int(s.num_ants[e])
        return [(int(o), int(x), int(y)) for o, x, y in
                zip(s.ant_owner[e, :n], s.ant_x[e, :n], s.ant_y[e, :n])]

    def _hills(self, e):
        s = self.state
        return [(int(o), int(x), int(y), bool(r)) for o, x, y, r in
                zip(s.hill_owner[e], s.hill_x[e], s.hill_y[e], s.hill_razed[e]) if o >= 0]

    def _food(self, e):
        """(x, y, count) of the cells holding food, oldest first."""
        s = self.state
        n = int(s.num_food[e])
        return [(int(x), int(y), int(s.food_at[e, y, x]))
                for x, y in zip(s.food_x[e, :n], s.food_y[e, :n])]

    def _food_cells(self, e):
        return [(x, y) for x, y, _ in self._food(e)]

    def board_rows(self, e=0):
        return render.board_rows(self.map.water, self._ants(e), self._hills(e),
                                 self._food_cells(e))

    def snapshot(self, e=0):
        """Copies of env e: a dict, the stable format that ``restore`` reads back.

        State (``restore`` reads these):

        - ``turn``: turns played; ``steps``: steps since the reset (= turn unless restored
          otherwise; ``max_steps`` truncates on it); ``over``: the game has ended.
        - ``ants``: dicts ``owner``, ``id``, ``x``, ``y``, oldest (lowest id) first;
          ``next_ant_id``: the id the next ant spawned gets (ids are never reused).
        - ``hills``: dicts ``owner``, ``x``, ``y``, ``razed`` of the dealt hills in hill-id
          order (the map's reading order after a reset; ``restore`` keeps the order it is
          given: ``raze_one_hill_per_turn`` razes the first); the map's other hills are
          plain land.
        - ``food``: ``(x, y, count)`` of every cell holding food (count >= 1: food lands on
          any non-water cell, ants, hills and food included), in the order food first
          landed on each.
        - ``stored_food``, ``scores``: int32[A]; ``alive``: bool[A] (still in the game);
          ``elim_turn``: int32[A], the turn a colony was eliminated (``max_turns + 1``
          while in).
        - ``rng``: uint64[2], the env's random streams (``core.rng``).

        Views (``restore`` ignores them): ``board`` (ASCII rows, top row first: ``.``
        land, ``%`` water, ``0``-``3`` a standing hill, ``x`` a razed hill, ``f`` food not
        on a hill, ``a``-``d`` an ant of colony 0-3, ``A``-``D`` one standing on a hill),
        ``turns_left``, ``positions`` ([A, 2] (x, y) of each colony's first hill, for tools
        that expect one position per agent), ``winner`` (the colony ranked first once
        over, -1 for a draw or while the game goes on)."""
        s = self.state
        n = int(s.num_ants[e])
        ants = [{"owner": int(s.ant_owner[e, i]), "id": int(s.ant_id[e, i]),
                 "x": int(s.ant_x[e, i]), "y": int(s.ant_y[e, i])} for i in range(n)]
        hills = [{"owner": o, "x": x, "y": y, "razed": r} for o, x, y, r in self._hills(e)]
        positions = np.zeros((self.num_agents, 2), dtype=np.int16)
        for a in range(self.num_agents):
            mine = [(h["x"], h["y"]) for h in hills if h["owner"] == a]
            if mine:
                positions[a] = mine[0]
        winner = -1
        if s.over[e]:
            key = s.rank_key[e]
            best = np.flatnonzero(key == key.max())
            winner = int(best[0]) if len(best) == 1 else -1
        return {
            "board": self.board_rows(e),
            "turn": int(s.turn[e]),
            "turns_left": int(self.config.max_turns - s.turn[e]),
            "steps": int(s.steps[e]),
            "over": bool(s.over[e]),
            "ants": ants,
            "next_ant_id": int(s.next_ant_id[e]),
            "hills": hills,
            "food": self._food(e),
            "stored_food": s.stored_food[e].copy(),
            "scores": s.scores[e].copy(),
            "alive": s.alive[e].copy(),
            "elim_turn": s.elim_turn[e].copy(),
            "positions": positions,
            "winner": winner,
            "rng": s.rng[e].copy(),
        }

    def write_snapshot(self, snapshot, state):
        """Check ``snapshot`` (the keys ``snapshot`` documents) whole, then write it into
        env 0 of ``state`` (see ``BatchedGame.restore``)."""
        require(snapshot, SNAPSHOT_KEYS, GAME_NAME)
        max_turns = self.config.max_turns
        turn = integer(snapshot, "turn", 0, max_turns)
        steps = integer(snapshot, "steps", 0, INT32_MAX) if "steps" in snapshot else turn
        over = flag(snapshot, "over") if "over" in snapshot else False
        ants = self._read_ants(snapshot)
        next_id = integer(snapshot, "next_ant_id", 0, INT32_MAX)
        if len(ants) and next_id <= ants[:, 1].max():
            raise fail("next_ant_id", f"{next_id} is not above every ant's id "
                                      f"(the highest is {ants[:, 1].max()})")
        hills = self._read_hills(snapshot)
        food = self._read_food(snapshot, state.food_at.dtype)
        A = self.num_agents
        stored = array(snapshot, "stored_food", (A,), 0, INT32_MAX)
        scores = array(snapshot, "scores", (A,), INT32_MIN, INT32_MAX)
        alive = array(snapshot, "alive", (A,), 0, 1).astype(bool)
        elim_turn = array(snapshot, "elim_turn", (A,), 1, max_turns + 1)
        if np.any(alive != (elim_turn == max_turns + 1)):
            raise fail("elim_turn", f"must be max_turns + 1 = {max_turns + 1} exactly for "
                                    f"the colonies still in (alive = {alive.tolist()})")
        rng = snapshot_rng(snapshot)

        s, e = state, 0
        n = len(ants)
        s.ant_at[e] = -1
        for field, column in zip((s.ant_owner, s.ant_id, s.ant_x, s.ant_y), ants.T):
            field[e, :n] = column
        s.ant_at[e, ants[:, 3], ants[:, 2]] = np.arange(n)
        s.num_ants[e], s.next_ant_id[e] = n, next_id
        m = len(food)
        s.food_at[e] = 0
        s.food_x[e, :m], s.food_y[e, :m] = food[:, 0], food[:, 1]
        s.food_at[e, food[:, 1], food[:, 0]] = food[:, 2]
        s.num_food[e], s.food_total[e] = m, food[:, 2].sum()
        for field, column in zip((s.hill_owner, s.hill_x, s.hill_y, s.hill_razed), hills.T):
            field[e] = column
        s.stored_food[e], s.scores[e], s.prev_scores[e] = stored, scores, scores
        s.alive[e], s.prev_alive[e], s.elim_turn[e] = alive, alive, elim_turn
        s.turn[e], s.steps[e], s.over[e] = turn, steps, over
        if rng is not None:
            s.rng[e] = rng
        update_rank_keys(s, self.params, e)

    def _entries(self, snapshot, key, width):
        """``snapshot[key]`` as an int64[N, width] array, from a list of dicts with the
        keys ``width`` names (a tuple) or of sequences of ``width`` integers."""
        value = snapshot[key]
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise fail(key, f"want a list, got {type(value).__name__}")
        names = width if isinstance(width, tuple) else None
        size = len(names) if names else width
        rows = np.zeros((len(value), size), dtype=np.int64)
        for i, entry in enumerate(value):
            try:
                if names:
                    if not isinstance(entry, Mapping) or any(k not in entry for k in names):
                        raise ValueError
                    entry = [entry[k] for k in names]
                if len(entry) != size:
                    raise ValueError
                rows[i] = [operator.index(v) for v in entry]
            except (TypeError, ValueError, OverflowError):
                want = f"a dict with keys {', '.join(names)}" if names else f"{size} integers"
                raise fail(key, f"entry {i} ({entry!r}): want {want}") from None
        return rows

    def _check_land(self, key, xs, ys, what):
        """Raise unless every (x, y) is a land cell of the map."""
        for i, (x, y) in enumerate(zip(xs.tolist(), ys.tolist())):
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise fail(key, f"entry {i}: (x, y) = {(x, y)} is off the "
                                f"{self.width} x {self.height} map")
            if self.map.water[y, x]:
                raise fail(key, f"entry {i}: {what} in water at (x, y) = {(x, y)}")

    def _check_cells(self, key, xs, ys, what):
        """Raise unless every (x, y) is a distinct land cell of the map."""
        self._check_land(key, xs, ys, what)
        cells = ys * self.width + xs
        if len(np.unique(cells)) != len(cells):
            c = next(c for c in cells.tolist() if (cells == c).sum() > 1)
            raise fail(key, f"two {what}s at (x, y) = {(c % self.width, c // self.width)}")

    def _check_owners(self, key, owners):
        if len(owners) and not 0 <= owners.min() <= owners.max() < self.num_agents:
            raise fail(key, f"owner {owners.max() if owners.max() >= 0 else owners.min()} "
                            f"is not a colony (0 to {self.num_agents - 1})")

    def _read_ants(self, snapshot):
        """int64[N, 4] (owner, id, x, y) rows of ``snapshot["ants"]``, by id."""
        ants = self._entries(snapshot, "ants", ANT_KEYS)
        self._check_owners("ants", ants[:, 0])
        if len(ants) and ants[:, 1].min() < 0:
            raise fail("ants", f"id {ants[:, 1].min()} is negative")
        if len(np.unique(ants[:, 1])) != len(ants):
            raise fail("ants", "two ants have the same id")
        self._check_cells("ants", ants[:, 2], ants[:, 3], "ant")
        return ants[np.argsort(ants[:, 1], kind="stable")]

    def _read_hills(self, snapshot):
        """int64[K, 4] (owner, x, y, razed) rows of every hill of the map: the dealt ones
        of ``snapshot["hills"]`` in its order, then the others (owner -1) in map order."""
        hills = self._entries(snapshot, "hills", HILL_KEYS)
        self._check_owners("hills", hills[:, 0])
        if len(hills) and not 0 <= hills[:, 3].min() <= hills[:, 3].max() <= 1:
            raise fail("hills", "razed must be a bool")
        where = {(int(x), int(y)): h for h, (x, y, _) in enumerate(self.map.hills.tolist())}
        dealt = []
        for i, (x, y) in enumerate(hills[:, 1:3].tolist()):
            if (x, y) not in where:
                raise fail("hills", f"entry {i}: the map has no hill at (x, y) = {(x, y)}")
            if where[(x, y)] in dealt:
                raise fail("hills", f"entry {i}: the hill at (x, y) = {(x, y)} is listed twice")
            dealt.append(where[(x, y)])
        others = [(-1, x, y, 0) for h, (x, y, _) in enumerate(self.map.hills.tolist())
                  if h not in dealt]
        return np.concatenate([hills, np.array(others, dtype=np.int64).reshape(-1, 4)])

    def _read_food(self, snapshot, count_type):
        """int64[N, 3] (x, y, count) rows of ``snapshot["food"]``."""
        food = self._entries(snapshot, "food", 3)
        most = int(np.iinfo(count_type).max)
        if len(food) and not 1 <= food[:, 2].min() <= food[:, 2].max() <= most:
            raise fail("food", f"a cell's count must be in [1, {most}] (the type of food_at "
                               f"for max_food={self.config.max_food})")
        self._check_cells("food", food[:, 0], food[:, 1], "food cell")
        if food[:, 2].sum() > INT32_MAX:
            raise fail("food", f"more than {INT32_MAX} food in all")
        return food

    def observe_env(self, e):
        OBSERVE_ONE(self.state, self.params, e, self.obs, self.masks, self.obs_journal)

    def step_drawn(self, actions, env=0, food=(), spawn_hills=()):
        """One turn of env ``env`` with ``actions`` (int[A, H*W]) and the turn's random
        draws given, to replay a recorded game: ``food``, the (x, y) cells of the new food
        in the order drawn (the rules draw any further ones), and ``spawn_hills``, (x, y)
        of hills in the order colonies spawn on them (a colony's free hills not listed
        come after, in hill-id order), instead of the shuffle.  Updates the env's
        observations, masks, rewards and end flags as ``step`` does, without autoreset;
        an env that is over is left as it is."""
        e = operator.index(env)
        if not 0 <= e < self.num_envs:
            raise ValueError(f"env {env} is outside [0, {self.num_envs})")
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != self.actions.shape[1:]:
            raise ValueError(f"actions: shape {actions.shape}, want {self.actions.shape[1:]}")
        self.check_actions(actions)
        food = np.array(food, dtype=np.int64).reshape(-1, 2)
        self._check_land("food", food[:, 0], food[:, 1], "food")
        cells = food[:, 1] * self.width + food[:, 0]
        s = self.state
        order = {(int(x), int(y)): k for k, (x, y) in enumerate(spawn_hills)}
        K = s.hill_x.shape[1]
        rank = np.array([order.get((int(s.hill_x[e, h]), int(s.hill_y[e, h])), len(order) + h)
                         for h in range(K)], dtype=np.int64)
        if s.over[e]:
            return
        planes = self.obs[e].reshape(self.num_agents, -1)
        kernel.step_and_observe(s, self.params, e, actions, Draws(cells, rank), self.rewards[e],
                                self.terminated[e], self.truncated[e], planes, self.masks[e],
                                self.env_journal(e))

    def set_position(self, e, rows, stored_food=None):
        """Replace env e's ants and food (and razed marks) by those of a board in the
        snapshot format (list of rows or string), through ``restore``; for scenarios and
        debugging.

        Water must match the map.  A hill character (``0``-``3``, ``x`` razed, or an
        uppercase ant) must stand on a dealt hill of the map; lowercase ants and ``f`` (one
        food) on other land.  Ants get ids 0, 1, ... in reading order."""
        if isinstance(rows, str):
            rows = [r for r in rows.splitlines() if r.strip()]
        H, W = self.height, self.width
        if len(rows) != H or any(len(r) != W for r in rows):
            raise ValueError(f"the board must be {H} rows of {W} characters")
        snap = self.snapshot(e)
        hills = {(h["x"], h["y"]): h for h in snap["hills"]}
        ants, food = [], []
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                on_hill = ch in CHAR_HILLS[:4] + CHAR_RAZED + CHAR_ANTS_ON_HILL
                if (ch == CHAR_WATER) != bool(self.map.water[y, x]):
                    raise ValueError(f"water at (x, y) = {(x, y)} does not match the map")
                if on_hill != ((x, y) in hills):
                    raise ValueError(f"{ch!r} at (x, y) = {(x, y)}: hills must match the map's")
                if on_hill:
                    hills[(x, y)]["razed"] = ch == CHAR_RAZED
                if ch in CHAR_ANTS + CHAR_ANTS_ON_HILL:
                    owner = (CHAR_ANTS if ch in CHAR_ANTS else CHAR_ANTS_ON_HILL).index(ch)
                    ants.append({"owner": owner, "id": len(ants), "x": x, "y": y})
                elif ch == CHAR_FOOD:
                    food.append((x, y, 1))
                elif ch not in CHAR_LAND + CHAR_WATER and not on_hill:
                    raise ValueError(f"unknown character {ch!r} at (x, y) = {(x, y)}")
        snap.update(ants=ants, next_ant_id=len(ants), food=food)
        if stored_food is not None:
            snap["stored_food"] = stored_food
        self.restore(snap, e)

    def render_ansi(self, e=0):
        s = self.state
        lines = self.board_rows(e)
        lines.append(f"turn={int(s.turn[e])} " + " ".join(
            f"c{a}:food={int(s.stored_food[e, a])},score={int(s.scores[e, a])}"
            + ("" if s.alive[e, a] else ",out") for a in range(self.num_agents)))
        return "\n".join(lines) + "\n"

    def render_rgb(self, e=0):
        s = self.state
        ants, hills = self._ants(e), self._hills(e)
        players = [frame.player_line(
            f"C{a}", render.COLONY_RGB[a], s.scores[e, a],
            [("ANTS", sum(owner == a for owner, _, _ in ants)),
             ("HILLS", sum(owner == a and not razed for owner, _, _, razed in hills)),
             ("FOOD", s.stored_food[e, a])] if s.alive[e, a] else ["OUT"])
            for a in range(self.num_agents)]
        board = render.rgb(self.map.water, ants, hills, self._food_cells(e))
        return frame.status_frame(board, s.turn[e], self.config.max_turns, s.over[e], players,
                                  render.LEGEND)

    @property
    def global_state_space(self):
        A = self.num_agents
        return spaces.Box(0.0, 1.0, (3 + 2 * A, self.height, self.width), dtype=np.float32)

    def global_state(self, e=0):
        """float32 planes: water, food, each colony's ants (A), each colony's hills (A;
        1 standing, 0.5 razed), the fraction of turns played."""
        A, c = self.num_agents, self.config
        out = np.zeros(self.global_state_space.shape, dtype=np.float32)
        out[0] = self.map.water
        for x, y in self._food_cells(e):
            out[1, y, x] = 1.0
        for owner, x, y in self._ants(e):
            out[2 + owner, y, x] = 1.0
        for owner, x, y, razed in self._hills(e):
            out[2 + A + owner, y, x] = 0.5 if razed else 1.0
        out[2 + 2 * A] = min(1.0, int(self.state.turn[e]) / c.max_turns)
        return out
