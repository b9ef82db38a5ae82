"""``AntsGame``: ants' state, params and spaces for the batched-game contract."""
import numpy as np
from gymnasium import spaces

from ...core.batched import OBS_DTYPES, OBS_ONE, BatchedGame
from ...core.rewards import REWARD_MODES
from . import kernel, render
from .bots import BOTS
from .config import Config
from .constants import (CHAR_ANTS, CHAR_ANTS_ON_HILL, CHAR_FOOD, CHAR_HILLS, CHAR_LAND,
                        CHAR_RAZED, CHAR_WATER, COMMAND_DELTAS, COMMAND_NAMES, NUM_COMMANDS,
                        NUM_PLANES)
from .state import alloc


def disc_offsets(radius2, include_centre):
    """(dx, dy) rows with dx^2 + dy^2 <= radius2, in reading order."""
    r = int(np.floor(np.sqrt(radius2)))
    rows = [(dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
            if dx * dx + dy * dy <= radius2 and (include_centre or (dx, dy) != (0, 0))]
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


class AntsGame(BatchedGame):
    """E ants games.  ``AntsGame(Config(...), num_envs)``."""

    agent_prefix = "colony"
    kernels = kernel
    bots = BOTS
    command_names = COMMAND_NAMES

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
        return alloc(num_envs, self.height, self.width, self._players, len(self.map.hills))

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
        gather = disc_offsets(c.gather_radius2, True)
        half = np.floor(full * 0.5 + 0.5) if integer else 0.5
        return kernel.Params(
            water=water, water_plane=(water.reshape(-1) * full).astype(dtype),
            move_ok=move_ok,
            stay_mask=np.tile(np.eye(NUM_COMMANDS, 1, dtype=np.int8).reshape(-1), H * W),
            hill_x=hills[:, 0].copy(), hill_y=hills[:, 1].copy(),
            hill_owner=hills[:, 2].astype(np.int8),
            attack_offsets=attack, attack_reach=int(np.abs(attack).max(initial=0)),
            gather_offsets=gather, gather_reach=int(np.abs(gather).max(initial=0)),
            hills_per_player=int(c.hills_per_player), hill_points=int(c.hill_points),
            start_food=int(c.start_food), spawn_food_at_reset=bool(c.spawn_food_at_reset),
            max_food=int(c.max_food), raze_loss=int(c.raze_loss), raze_gain=int(c.raze_gain),
            survive_points=int(c.survive_points), max_turns=int(c.max_turns),
            reward_mode=REWARD_MODES[c.reward], max_steps=int(c.max_steps or 0),
            on=dtype(full), half=dtype(half), full=float(full), round=0.5 if integer else 0.0,
        )

    def observation_shape(self):
        return (NUM_PLANES, self.height, self.width)

    def num_actions(self):
        return NUM_COMMANDS * self.height * self.width

    def action_shape(self):
        return (self.height * self.width,)

    def action_values(self):
        return NUM_COMMANDS

    def copy_env(self, src, dst):
        """Copy env ``src``'s state onto env ``dst``, with its observations and masks (a
        step updates them in place from the state they show)."""
        super().copy_env(src, dst)
        self.obs[dst] = self.obs[src]
        self.masks[dst] = self.masks[src]

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
        s = self.state
        n = int(s.num_food[e])
        return sorted((int(x), int(y)) for x, y in zip(s.food_x[e, :n], s.food_y[e, :n]))

    def board_rows(self, e=0):
        return render.board_rows(self.map.water, self._ants(e), self._hills(e), self._food(e))

    def snapshot(self, e=0):
        """Copies of env e.

        ``board`` (ASCII rows, top row first: ``.`` land, ``%`` water, ``0``-``3`` a
        standing hill, ``x`` a razed hill, ``f`` food, ``a``-``d`` an ant of colony 0-3,
        ``A``-``D`` one standing on a hill), ``turn``, ``turns_left``, ``steps``, ``over``,
        ``ants`` (dicts ``owner``, ``id``, ``x``, ``y``, oldest first), ``hills`` (dicts
        ``owner``, ``x``, ``y``, ``razed``, dealt hills in map order), ``food`` (sorted
        (x, y)), ``stored_food``, ``scores``, ``alive``, ``elim_turn`` (turn a colony was
        eliminated, max_turns + 1 while in), ``positions`` ([A, 2] (x, y) of each
        colony's first hill, for tools that expect one position per agent), ``winner``
        (the colony ranked first once over, -1 for a draw or while the game goes on),
        ``rng``."""
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

    def set_position(self, e, rows, stored_food=None):
        """Replace env e's ants and food (and razed marks) by those of a board in the
        snapshot format (list of rows or string); for scenarios and debugging.

        Water must match the map.  A hill character (``0``-``3``, ``x`` razed, or an
        uppercase ant) must stand on a dealt hill of the map; lowercase ants and ``f``
        on other land.  Ants get ids 0, 1, ... in reading order."""
        if isinstance(rows, str):
            rows = [r for r in rows.splitlines() if r.strip()]
        s = self.state
        H, W = self.height, self.width
        if len(rows) != H or any(len(r) != W for r in rows):
            raise ValueError(f"the board must be {H} rows of {W} characters")
        hill_index = {(int(s.hill_x[e, h]), int(s.hill_y[e, h])): h
                      for h in range(s.hill_x.shape[1]) if s.hill_owner[e, h] >= 0}
        s.ant_at[e] = -1
        s.food_at[e] = 0
        n = f = 0
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                on_hill = ch in CHAR_HILLS[:4] + CHAR_RAZED + CHAR_ANTS_ON_HILL
                if (ch == CHAR_WATER) != bool(self.map.water[y, x]):
                    raise ValueError(f"water at (x, y) = {(x, y)} does not match the map")
                if on_hill != ((x, y) in hill_index):
                    raise ValueError(f"{ch!r} at (x, y) = {(x, y)}: hills must match the map's")
                if on_hill:
                    s.hill_razed[e, hill_index[(x, y)]] = ch == CHAR_RAZED
                owner = -1
                if ch in CHAR_ANTS:
                    owner = CHAR_ANTS.index(ch)
                elif ch in CHAR_ANTS_ON_HILL:
                    owner = CHAR_ANTS_ON_HILL.index(ch)
                if owner >= self.num_agents:
                    raise ValueError(f"ant {ch!r}: only {self.num_agents} colonies")
                if owner >= 0:
                    s.ant_x[e, n], s.ant_y[e, n], s.ant_owner[e, n], s.ant_id[e, n] = x, y, owner, n
                    s.ant_at[e, y, x] = n
                    n += 1
                elif ch == CHAR_FOOD:
                    s.food_x[e, f], s.food_y[e, f] = x, y
                    s.food_at[e, y, x] = 1
                    f += 1
                elif ch not in CHAR_LAND + CHAR_WATER and not on_hill:
                    raise ValueError(f"unknown character {ch!r} at (x, y) = {(x, y)}")
        s.num_ants[e], s.next_ant_id[e], s.num_food[e] = n, n, f
        if stored_food is not None:
            s.stored_food[e] = stored_food
        kernel.observe_env(s, self.params, e, self.obs[e], self.masks[e])

    def render_ansi(self, e=0):
        s = self.state
        lines = self.board_rows(e)
        lines.append(f"turn={int(s.turn[e])} " + " ".join(
            f"c{a}:food={int(s.stored_food[e, a])},score={int(s.scores[e, a])}"
            + ("" if s.alive[e, a] else ",out") for a in range(self.num_agents)))
        return "\n".join(lines) + "\n"

    def render_rgb(self, e=0):
        return render.rgb(self.map.water, self._ants(e), self._hills(e), self._food(e))

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
        for x, y in self._food(e):
            out[1, y, x] = 1.0
        for owner, x, y in self._ants(e):
            out[2 + owner, y, x] = 1.0
        for owner, x, y, razed in self._hills(e):
            out[2 + A + owner, y, x] = 0.5 if razed else 1.0
        out[2 + 2 * A] = min(1.0, int(self.state.turn[e]) / c.max_turns)
        return out
