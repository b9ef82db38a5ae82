"""``DungeonGame``: dungeon's state, params and spaces for the batched-game contract."""
import itertools

import numpy as np
from gymnasium import spaces

from ...core import frame
from ...core.batched import OBS_DTYPES, OBS_ONE, BatchedGame
from ...core.grid import EGO_VIEW, ego_shape
from ...core.jit import BatchTyped
from ...core.params import make_params
from ...core.rewards import REWARD_MODES
from ...core.rng import GAME, NUM_STREAMS, shuffle
from . import kernel, render
from . import snapshot as snapshot_module
from .bots import BOTS, shield
from .config import Config
from .constants import (ACTION_NAMES, AMMO_OBS_CAP, NUM_ACTIONS, NUM_PLANES, POWER_OBS_CAP,
                        RANDOM_BOARD, SCORE_OBS_CAP, METAL, WOOD, AMMO, TREASURE, Action)
from .maps import load_board
from .state import alloc

SHIELD = BatchTyped(shield)
OBSERVE_WHOLE = BatchTyped(kernel.observe_one)


def _lut(values, dtype, integer):
    """Observation values (already scaled to ``full``) in the obs dtype, rounded to the
    nearest where it is an integer type."""
    values = np.asarray(values, dtype=np.float64)
    if integer:
        values = np.floor(values + 0.5)
    return values.astype(dtype)


class DungeonGame(BatchedGame):
    """E dungeon games.  ``DungeonGame(Config(...), num_envs)``."""

    agent_prefix = "player"
    kernels = kernel
    bots = BOTS
    action_names = ACTION_NAMES
    action_meanings = Action
    cell_pixels = render.CELL_PIXELS

    def __init__(self, config=None, num_envs=1, threads=None):
        config = Config() if config is None else config
        if isinstance(config.board, str) and config.board == RANDOM_BOARD:
            self.height, self.width = config.height, config.width
            self._players = config.num_players
            self._template = None
        else:
            self._template = load_board(config.board)
            self.height, self.width = self._template[0].shape
            self._players = len(self._template[1])
        super().__init__(config, num_envs, threads)
        self.observation_space = spaces.Box(0, OBS_ONE[config.obs_dtype], self.observation_shape(),
                                            dtype=self.obs.dtype)
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def agent_count(self):
        return self._players

    def reset(self, seed=None, env_ids=None):
        super().reset(seed, env_ids)
        self._shield()

    def _advance(self, actions, autoreset=False):
        super()._advance(actions, autoreset)
        self._shield()

    def _shield(self):
        """``Config.shield``: the masks of every env still playing are shielded (an env's
        shielded mask is its own fixed point, so envs not reset or stepped keep theirs)."""
        if self.config.shield:
            SHIELD(self.state, self.params, self.masks)

    def make_state(self, num_envs):
        c = self.config
        return alloc(num_envs, self.height, self.width, self._players, c.ammo_delay,
                     OBS_DTYPES[c.obs_dtype], c.view == EGO_VIEW)

    def make_params(self):
        c = self.config
        if self._template is None:
            tiles = np.zeros((self.height, self.width), dtype=np.uint8)
            positions = np.zeros((self._players, 2), dtype=np.int16)
        else:
            tiles, positions = self._template
        dtype = OBS_DTYPES[c.obs_dtype]
        integer = c.obs_dtype == "uint8"
        full = OBS_ONE[c.obs_dtype]
        fuse = c.bomb_fuse
        ore_lut = _lut(full * (np.arange(c.ore_hp + 1) / c.ore_hp), dtype, integer)
        bomb_lut = _lut(full * (np.arange(fuse + 1) / fuse), dtype, integer)
        # hit in h ticks (1 .. fuse + 1): full at 1, falling to full / (fuse + 1)
        hits = np.arange(fuse + 2)
        danger = np.where(hits >= 1, (fuse + 2 - hits) / (fuse + 1), 0.0)
        danger_lut = _lut(full * danger, dtype, integer)
        hp_lut = _lut(full * (np.arange(c.player_hp + 1) / c.player_hp), dtype, integer)
        # the constant planes: full * count / total (in that order, as the step once computed)
        time_lut = _lut(full * (c.max_turns - np.arange(c.max_turns + 1)) / c.max_turns, dtype,
                        integer)
        ammo_lut = _lut(full * np.arange(AMMO_OBS_CAP + 1) / AMMO_OBS_CAP, dtype, integer)
        power_lut = _lut(full * np.arange(POWER_OBS_CAP + 1) / POWER_OBS_CAP, dtype, integer)
        score_lut = _lut(full * np.arange(2 * SCORE_OBS_CAP + 1) / (2 * SCORE_OBS_CAP), dtype,
                         integer)
        return make_params(
            kernel.Params, c, tiles=tiles, positions=positions,
            generate=self._template is None, reward_mode=REWARD_MODES[c.reward],
            ego=c.view == EGO_VIEW, on=dtype(full), off=dtype(0), ore_lut=ore_lut,
            bomb_lut=bomb_lut, danger_lut=danger_lut, hp_lut=hp_lut, time_lut=time_lut,
            ammo_lut=ammo_lut, power_lut=power_lut, score_lut=score_lut)

    def observation_shape(self):
        if self.config.view == EGO_VIEW:
            return (NUM_PLANES,) + ego_shape(self.height, self.width)
        return (NUM_PLANES, self.height, self.width)

    def num_actions(self):
        return NUM_ACTIONS

    # -- views of one env ------------------------------------------------------------
    def _fire(self, e):
        s = self.state
        n = int(s.num_fires[e])
        return render.fire_cells(s.fire_x[e, :n], s.fire_y[e, :n], s.fire_reach[e, :n])

    def board_rows(self, e=0):
        s = self.state
        return render.board_rows(s.tiles[e], s.bomb_grid[e], s.positions[e], s.alive[e],
                                 self._fire(e))

    def snapshot(self, e=0):
        """Copies of env e as a dict, a stable format (every key in ``snapshot``'s module
        doc): ``board``, ``tick``, ``turns_left``, ``steps``, ``over``, ``players`` (dicts
        ``x``, ``y``, ``hp``, ``ammo``, ``power``, ``score``, ``alive``, ``death_tick``),
        ``positions``, ``hp``, ``ammo``, ``alive``, ``scores``, ``bombs`` (dicts ``x``,
        ``y``, ``owner``, ``fuse``, ``power``, in placing order), ``fires`` (the fire
        hitting during the next tick: dicts ``x``, ``y``, ``owner``, ``up``, ``down``,
        ``left``, ``right``), ``fire`` (its sorted (x, y) cells), ``ore_hp`` ({(x, y):
        hits left}), ``ammo_items`` (dicts ``x``, ``y``, ``life``), ``pending_ammo``,
        ``treasure_timer``, ``tiles``, ``winner``, ``rng``.  ``restore`` takes it back."""
        return snapshot_module.take(self, self.state, e)

    def write_snapshot(self, snapshot, state):
        snapshot_module.write(self, snapshot, state)

    def observe_env(self, e):
        OBSERVE_WHOLE(self.state, self.params, e, self.obs, self.masks, self.obs_journal)
        self._shield()

    def set_action_order(self, order, e=0):
        """Make env ``e``'s next tick apply its living players' actions in ``order`` (their
        indices, each living player once) instead of a random order, e.g. to replay a game
        recorded elsewhere: its GAME stream is set to a state whose draw gives that order
        (the stream goes on from there)."""
        living = self.live_agents(e)
        order = [int(a) for a in order]
        if sorted(order) != living:
            raise ValueError(f"order {order} is not an order of the living players {living}")
        if len(living) < 2:
            return                                  # nothing to order: the stream stays
        probe = np.zeros((1, NUM_STREAMS), dtype=np.uint64)
        drawn = np.zeros(len(living), dtype=self.state.order.dtype)
        for start in itertools.count():
            probe[0, GAME] = start
            drawn[:] = living
            shuffle(probe, 0, GAME, drawn)          # the draw of rules.apply_actions
            if drawn.tolist() == order:
                self.state.rng[e, GAME] = start
                return

    def render_ansi(self, e=0):
        s = self.state
        lines = self.board_rows(e)
        lines.append(f"tick={int(s.tick[e])} " + " ".join(
            f"p{a}:hp={int(s.hp[e, a])},ammo={int(s.ammo[e, a])},score={int(s.scores[e, a])}"
            for a in range(self.num_agents)))
        return "\n".join(lines) + "\n"

    def render_rgb(self, e=0):
        s = self.state
        board = render.rgb(s.tiles[e], s.bomb_grid[e], s.positions[e], s.alive[e], self._fire(e))
        players = [frame.player_line(
            f"P{a}", render.player_rgb(a), s.scores[e, a],
            [("HP", s.hp[e, a]), ("AMMO", s.ammo[e, a]), ("POWER", s.power[e, a])]
            if s.alive[e, a] else ["OUT"]) for a in range(self.num_agents)]
        return frame.status_frame(board, s.tick[e], self.config.max_turns, s.over[e], players,
                                  render.LEGEND)

    @property
    def global_state_space(self):
        A = self.num_agents
        return spaces.Box(0.0, 1.0, (8 + 2 * A, self.height, self.width), dtype=np.float32)

    def global_state(self, e=0):
        """float32 planes: metal, wood, ore (hits left / ore_hp), bombs (fuse / bomb_fuse),
        fire, ammo, treasure, each player (HP / player_hp) (A), each player's score share
        (constant, score / total, A), the fraction of ticks left."""
        s, A, c = self.state, self.num_agents, self.config
        out = np.zeros(self.global_state_space.shape, dtype=np.float32)
        tiles = s.tiles[e]
        out[0] = tiles == METAL
        out[1] = tiles == WOOD
        out[2] = s.ore_hp[e] / c.ore_hp
        for b in range(int(s.num_bombs[e])):
            out[3, s.bomb_y[e, b], s.bomb_x[e, b]] = min(1.0, s.bomb_timer[e, b] / c.bomb_fuse)
        for (x, y) in self._fire(e):
            out[4, y, x] = 1.0
        out[5] = tiles == AMMO
        out[6] = tiles == TREASURE
        total = max(1, int(np.abs(s.scores[e]).sum()))
        for a in range(A):
            if s.alive[e, a]:
                out[7 + a, s.positions[e, a, 1], s.positions[e, a, 0]] = min(
                    1.0, max(0, s.hp[e, a]) / c.player_hp)
            out[7 + A + a] = min(1.0, max(0.0, s.scores[e, a] / total))
        out[7 + 2 * A] = (c.max_turns - s.tick[e]) / c.max_turns
        return out
