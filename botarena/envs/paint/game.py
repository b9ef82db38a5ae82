"""``PaintGame``: paint's state, params and spaces for the batched-game contract."""
import numpy as np
from gymnasium import spaces

from ...core import frame
from ...core import snapshot as snap
from ...core.batched import OBS_DTYPES, OBS_ONE, BatchedGame
from ...core.jit import BatchTyped
from ...core.grid import EGO_VIEW, ego_shape
from ...core.params import make_params
from ...core.rewards import REWARD_MODES
from . import kernel, render
from .bots import BOTS
from .config import TURNS_PER_COLUMN, Config
from .constants import NUM_ACTIONS, NUM_PLANES, OBSTACLE, RANDOM_BOARD, Action
from .maps import load_board
from .state import alloc

OBSERVE_ONE = BatchTyped(kernel.observe_one)
# the keys ``restore`` reads; ``board``, ``scores`` and ``ranks`` follow from them (checked
# against them when given), ``rng`` is optional
SNAPSHOT_KEYS = ("colour", "positions", "turns_left", "steps", "over")


class PaintGame(BatchedGame):
    """E paint games.  ``PaintGame(Config(...), num_envs)``."""

    agent_prefix = "player"
    kernels = kernel
    bots = BOTS
    action_meanings = Action
    cell_pixels = render.SQUARE_PIXELS
    redraws_observations = True     # observe.py draws every plane whole each turn

    def __init__(self, config=None, num_envs=1, threads=None):
        config = Config() if config is None else config
        if config.board == RANDOM_BOARD:
            self.height, self.width = config.height, config.width
            self._players = config.num_players
            self._template = None
            turns = None
        else:
            colour, positions, turns = load_board(config.board)
            self._template = colour, positions
            self.height, self.width = self._template[0].shape
            self._players = len(self._template[1])
        self.max_turns = config.max_turns or turns or TURNS_PER_COLUMN * self.width
        super().__init__(config, num_envs, threads)
        high = OBS_ONE[config.obs_dtype]
        self.observation_space = spaces.Box(0, high, self.observation_shape(), dtype=self.obs.dtype)
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def agent_count(self):
        return self._players

    def make_state(self, num_envs):
        return alloc(num_envs, self.height, self.width, self._players)

    def make_params(self):
        c = self.config
        if self._template is None:
            colour = np.zeros((self.height, self.width), dtype=np.int16)
            positions = np.zeros((self._players, 2), dtype=np.int16)
        else:
            colour, positions = self._template
        return make_params(
            kernel.Params, c, num_players=self._players, max_turns=self.max_turns,
            colour=colour, positions=positions, generate=self._template is None,
            reward_mode=REWARD_MODES[c.reward], ego=c.view == EGO_VIEW,
            on=OBS_DTYPES[c.obs_dtype](OBS_ONE[c.obs_dtype]), full=float(OBS_ONE[c.obs_dtype]),
            round=0.5 if c.obs_dtype == "uint8" else 0.0,
            alive=np.ones(self._players, dtype=np.bool_))

    def observation_shape(self):
        if self.config.view == EGO_VIEW:
            return (NUM_PLANES,) + ego_shape(self.height, self.width)
        return (NUM_PLANES, self.height, self.width)

    def num_actions(self):
        return NUM_ACTIONS

    # -- views of one env ------------------------------------------------------------
    def snapshot(self, e=0):
        """Copies of env e, a stable format (``restore`` reads it back): ``board`` (ASCII
        rows), ``colour`` (int16 grid: 0 neutral, -1 obstacle, p+1 player p),
        ``positions`` ([A, 2] row, col), ``scores`` (squares of each colour), ``ranks``
        (1 + players with more squares: equal counts share a rank), ``turns_left``,
        ``steps``, ``over``, ``rng``."""
        s = self.state
        scores = s.scores[e]
        return {
            "board": render.board_rows(s.colour[e], s.positions[e]),
            "colour": s.colour[e].copy(),
            "positions": s.positions[e].copy(),
            "scores": scores.copy(),
            "ranks": 1 + (scores[None, :] > scores[:, None]).sum(axis=1),
            "turns_left": int(s.turns_left[e]),
            "steps": int(s.steps[e]),
            "over": bool(s.over[e]),
            "rng": s.rng[e].copy(),
        }

    def write_snapshot(self, snapshot, state):
        """``snapshot``'s env, checked whole, into env 0 of ``state`` (see ``restore``):
        avatars on distinct squares of the board that are not obstacles."""
        snap.require(snapshot, SNAPSHOT_KEYS, "paint")
        H, W, A = self.height, self.width, self._players
        colour = snap.array(snapshot, "colour", (H, W), OBSTACLE, A)
        positions = snap.array(snapshot, "positions", (A, 2), 0)
        for r, c in positions:
            if r >= H or c >= W or colour[r, c] == OBSTACLE:
                raise snap.fail("positions", f"({r}, {c}) is off the board or an obstacle")
        if len({(int(r), int(c)) for r, c in positions}) < A:
            raise snap.fail("positions", "two avatars on one square")
        scores = np.array([(colour == a + 1).sum() for a in range(A)], dtype=np.int32)
        for key, derived in (("scores", scores), ("board", render.board_rows(colour, positions))):
            if key in snapshot and not np.array_equal(np.asarray(snapshot[key]), derived):
                raise snap.fail(key, "disagrees with 'colour' and 'positions'")
        turns_left = snap.integer(snapshot, "turns_left", 0, self.max_turns)
        steps, over = snap.integer(snapshot, "steps", 0), snap.flag(snapshot, "over")
        rng = snap.rng(snapshot, state.rng[0])
        s = state
        s.colour[0], s.positions[0] = colour, positions
        s.scores[0] = s.prev_scores[0] = scores
        s.turns_left[0], s.steps[0], s.over[0] = turns_left, steps, over
        s.shot_stamp[0] = 0         # as a reset leaves it: no square shot this turn
        s.occupancy[0] = 0
        s.rng[0] = rng

    def observe_env(self, e):
        OBSERVE_ONE(self.state, self.params, e, self.obs, self.masks, self.obs_journal)

    def render_ansi(self, e=0):
        s = self.state
        return render.ansi(s.colour[e], s.positions[e], s.turns_left[e], s.scores[e])

    def render_rgb(self, e=0):
        s = self.state
        players = [frame.player_line(f"P{a}", render.player_rgb(a), s.scores[e, a])
                   for a in range(self.num_agents)]
        return frame.status_frame(render.rgb(s.colour[e], s.positions[e]),
                                  self.max_turns - s.turns_left[e], self.max_turns, s.over[e],
                                  players, render.LEGEND)

    @property
    def global_state_space(self):
        A = self.num_agents
        return spaces.Box(0.0, 1.0, (2 * A + 2, self.height, self.width), dtype=np.float32)

    def global_state(self, e=0):
        """float32 planes: each player's colour (A), obstacles, each player's avatar (A),
        and the fraction of turns left."""
        s, A = self.state, self.num_agents
        out = np.zeros(self.global_state_space.shape, dtype=np.float32)
        colour = s.colour[e]
        for a in range(A):
            out[a] = colour == a + 1
            out[A + 1 + a, s.positions[e, a, 0], s.positions[e, a, 1]] = 1.0
        out[A] = colour == OBSTACLE
        out[2 * A + 1] = s.turns_left[e] / self.max_turns
        return out
