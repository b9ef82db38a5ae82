"""``CodeRunnerGame``: CodeRunner's state, params and spaces for the batched-game contract."""
import numpy as np
from gymnasium import spaces

from ...core.batched import OBS_DTYPES, OBS_ONE, BatchedGame
from ...core.rewards import REWARD_MODES
from . import kernel, render
from .bots import BOTS
from .config import Config
from .constants import (ACTION_NAMES, HEIGHT, MIDDLE, NUM_ACTIONS, NUM_CELL_CODES, NUM_PLANES,
                        RANDOM_MAP, UNREACHABLE, WIDTH)
from .maps import generate_map, load_map, pursuit_tables
from .state import alloc

N = HEIGHT * WIDTH
_TABLE_CACHE = {}


def _lut(values, dtype, full, integer):
    values = np.asarray(values, dtype=np.float64) * full
    if integer:
        values = np.floor(values + 0.5)
    return values.astype(dtype)


def map_tables(data):
    """(nbr int16[N, 5], dist int16[N, N]) of a ``MapData`` (cached by its cells)."""
    key = data.cells.tobytes()
    if key not in _TABLE_CACHE:
        nbr = np.zeros((N, 5), dtype=np.int16)
        dist = np.full((N, N), UNREACHABLE, dtype=np.int16)
        pursuit_tables(data.cells, nbr, dist)
        _TABLE_CACHE[key] = (nbr, dist)
    return _TABLE_CACHE[key]


class CodeRunnerGame(BatchedGame):
    """E CodeRunner games.  ``CodeRunnerGame(Config(...), num_envs)``."""

    agent_prefix = "runner"
    kernels = kernel
    bots = BOTS
    action_names = ACTION_NAMES

    def __init__(self, config=None, num_envs=1, threads=None):
        config = Config() if config is None else config
        if isinstance(config.map, str) and config.map == RANDOM_MAP:
            self.maps = [generate_map(config.map_seed + i) for i in range(config.random_maps)]
        else:
            self.maps = [load_map(config.map)]
        self.max_enemies = max(1, max(len(m.enemies) for m in self.maps))
        self.stack_size = (config.max_turns + config.enemy_period - 1) // config.enemy_period + 1
        super().__init__(config, num_envs, threads)
        self.observation_space = spaces.Box(0, OBS_ONE[config.obs_dtype], self.observation_shape(),
                                            dtype=self.obs.dtype)
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def agent_count(self):
        return 2

    def make_state(self, num_envs):
        return alloc(num_envs, self.max_enemies, self.stack_size)

    def make_params(self):
        c = self.config
        K, M = len(self.maps), self.max_enemies
        L = max([1] + [len(prog) for m in self.maps for _, _, prog in m.enemies])
        cells = np.zeros((K, HEIGHT, WIDTH), dtype=np.uint8)
        spawns = np.zeros((K, 2, 2), dtype=np.int16)
        n_enemies = np.zeros(K, dtype=np.int32)
        enemy_spawn = np.full((K, M, 2), -1, dtype=np.int16)
        prog = np.zeros((K, M, L), dtype=np.int8)
        prog_len = np.ones((K, M), dtype=np.int16)
        side = np.zeros((K, M), dtype=np.int8)
        nbr = np.zeros((K, N, 5), dtype=np.int16)
        dist = np.zeros((K, N, N), dtype=np.int16)
        for k, m in enumerate(self.maps):
            cells[k] = m.cells
            spawns[k] = np.array(m.spawns, dtype=np.int16)
            n_enemies[k] = len(m.enemies)
            for i, (r, col, letters) in enumerate(m.enemies):
                enemy_spawn[k, i] = (r, col)
                prog[k, i, :len(letters)] = letters
                prog_len[k, i] = len(letters)
                side[k, i] = 0 if col < MIDDLE else 1
            nbr[k], dist[k] = map_tables(m)
        dtype = OBS_DTYPES[c.obs_dtype]
        integer = c.obs_dtype == "uint8"
        full = OBS_ONE[c.obs_dtype]

        def bar(top):             # cells of a bar showing value / top, value = 0..top
            return ((np.arange(top + 1) * N + top - 1) // top).astype(np.int16)

        def ramp(top, rising=False):
            x = np.arange(top + 1) / top
            return _lut(1.0 - x if rising else x, dtype, full, integer)

        return kernel.Params(
            cells=cells, spawns=spawns, n_enemies=n_enemies, enemy_spawn=enemy_spawn, prog=prog,
            prog_len=prog_len, side=side, nbr=nbr, dist=dist, num_maps=K,
            brick_restore=int(c.brick_restore), gold_respawn=int(c.gold_respawn),
            runner_respawn=int(c.runner_respawn), enemy_respawn=int(c.enemy_respawn),
            dig_delay=int(c.dig_delay), enemy_period=int(c.enemy_period),
            enemy_first_move_turn=int(c.enemy_first_move_turn),
            chase_radius=int(c.chase_radius), master_radius=int(c.master_radius),
            other_radius=int(c.other_radius), gold_points=int(c.gold_points),
            visit_points=int(c.visit_points), enemy_kill_points=int(c.enemy_kill_points),
            opponent_kill_points=int(c.opponent_kill_points), max_turns=int(c.max_turns),
            reward_mode=REWARD_MODES[c.reward], max_steps=int(c.max_steps or 0),
            death_penalty=float(c.death_penalty), mirror=bool(c.mirror), on=dtype(full),
            half=_lut([0.5], dtype, full, integer)[0], cell_lut=ramp(NUM_CELL_CODES - 1),
            removed_lut=ramp(c.brick_restore), gold_lut=ramp(c.gold_respawn),
            runner_lut=ramp(c.runner_respawn, rising=True), enemy_lut=ramp(c.enemy_respawn),
            dig_bar=bar(c.dig_delay), turn_bar=bar(c.max_turns),
        )

    def observation_shape(self):
        return (NUM_PLANES, HEIGHT, WIDTH)

    def num_actions(self):
        return NUM_ACTIONS

    def copy_env(self, src, dst):
        """Copy env ``src``'s state onto env ``dst``, with its observations and masks (a
        step updates them from the state they show)."""
        super().copy_env(src, dst)
        self.obs[dst] = self.obs[src]
        self.masks[dst] = self.masks[src]

    # -- views of one env ------------------------------------------------------------
    def _positions(self, pos, alive):
        return [(int(r), int(c)) if live else (-1, -1) for (r, c), live in zip(pos, alive)]

    def snapshot(self, e=0):
        """Copies of env e.

        ``board`` (16 strings: ``. = H *`` and ``-`` for a removed brick), ``turn`` (turns
        played), ``turns_left``, ``steps``, ``over``, ``map`` (index in the pool),
        ``runners`` ([(row, col)] red, blue; (-1, -1) when dead), ``positions`` (the same
        as int16[2, 2]), ``runner_alive``, ``runner_respawn`` (turn a dead runner
        reappears), ``scores``, ``dig_delay`` (turns until each runner may dig again),
        ``visited`` (uint8[2, 16, 25]), ``enemies`` ([(row, col)], (-1, -1) when dead),
        ``enemy_alive``, ``enemy_trapped``, ``enemy_master`` (0, 1 or -1),
        ``enemy_radius`` ([n, 2]), ``enemy_pc``, ``enemy_stack`` (list of move lists,
        bottom first), ``enemy_respawn``, ``restore_turn`` ({(row, col): turn} of removed
        bricks), ``dug_by`` ({(row, col): bits}), ``gold_turn`` ({(row, col): turn}),
        ``rng``."""
        s = self.state
        n = int(s.num_enemies[e])
        turn = int(s.turn[e])
        cells = s.cells[e]
        enemies = self._positions(s.enemy_pos[e, :n], s.enemy_alive[e, :n])
        holes = np.argwhere(s.restore_turn[e] >= 0)
        golds = np.argwhere(s.gold_turn[e] >= 0)
        return {
            "board": render.board_rows(cells),
            "turn": turn,
            "turns_left": int(self.config.max_turns - turn),
            "steps": int(s.steps[e]),
            "over": bool(s.over[e]),
            "map": int(s.map_id[e]),
            "runners": self._positions(s.runner_pos[e], s.runner_alive[e]),
            "positions": s.runner_pos[e].copy(),
            "runner_alive": s.runner_alive[e].copy(),
            "runner_respawn": s.runner_respawn[e].copy(),
            "scores": s.scores[e].copy(),
            "dig_delay": [max(0, int(x) - turn) for x in s.dig_ready[e]],
            "visited": s.visited[e].copy(),
            "enemies": enemies,
            "enemy_alive": s.enemy_alive[e, :n].copy(),
            "enemy_trapped": [bool(live and cells[r, c] == 4) for (r, c), live
                              in zip(enemies, s.enemy_alive[e, :n])],
            "enemy_master": [int(x) for x in s.enemy_master[e, :n]],
            "enemy_radius": s.enemy_radius[e, :n].copy(),
            "enemy_pc": [int(x) for x in s.enemy_pc[e, :n]],
            "enemy_stack": [[int(x) for x in s.enemy_stack[e, i, :int(s.enemy_sp[e, i])]]
                            for i in range(n)],
            "enemy_respawn": s.enemy_respawn[e, :n].copy(),
            "restore_turn": {(int(r), int(c)): int(s.restore_turn[e, r, c]) for r, c in holes},
            "dug_by": {(int(r), int(c)): int(s.dug_by[e, r, c]) for r, c in holes},
            "gold_turn": {(int(r), int(c)): int(s.gold_turn[e, r, c]) for r, c in golds},
            "rng": s.rng[e].copy(),
        }

    def ansi_rows(self, e=0):
        s = self.state
        n = int(s.num_enemies[e])
        return render.ansi_rows(s.cells[e], s.runner_pos[e], s.runner_alive[e],
                                s.enemy_pos[e, :n], s.enemy_alive[e, :n])

    def render_ansi(self, e=0):
        s = self.state
        lines = self.ansi_rows(e)
        lines.append(f"turn={int(s.turn[e])} " + " ".join(
            f"{name}:score={int(s.scores[e, a])},dig={max(0, int(s.dig_ready[e, a] - s.turn[e]))}"
            for a, name in enumerate(("red", "blue"))))
        return "\n".join(lines) + "\n"

    def render_rgb(self, e=0):
        s = self.state
        n = int(s.num_enemies[e])
        return render.rgb(s.cells[e], s.runner_pos[e], s.runner_alive[e], s.enemy_pos[e, :n],
                          s.enemy_alive[e, :n])

    @property
    def global_state_space(self):
        return spaces.Box(0.0, 1.0, (NUM_PLANES + 1, HEIGHT, WIDTH), dtype=np.float32)

    def global_state(self, e=0):
        """float32: red's observation planes (absolute: red is never mirrored; OWN is red,
        OPPONENT blue) scaled to [0, 1], then blue's visited cells."""
        full = float(OBS_ONE[self.config.obs_dtype])
        out = np.zeros(self.global_state_space.shape, dtype=np.float32)
        out[:NUM_PLANES] = self.obs[e, 0].astype(np.float32) / full
        out[NUM_PLANES] = self.state.visited[e, 1]
        return out
