"""``CodeRunnerGame``: CodeRunner's state, params and spaces for the batched-game contract."""
import numpy as np
from gymnasium import spaces

from ...core import frame
from ...core import snapshot as snap
from ...core.batched import OBS_DTYPES, OBS_ONE, BatchedGame
from ...core.jit import BatchTyped
from ...core.params import make_params
from ...core.rewards import REWARD_MODES
from . import kernel, render
from .bots import BOTS
from .config import Config
from .constants import (ACTION_NAMES, BOTTOM, BRICK, CHAR_CELLS, EMPTY, GOLD, HEIGHT, LEFT,
                        MIDDLE, MIRRORED, NUM_ACTIONS, NUM_CELL_CODES, NUM_PLANES, QUEUE,
                        RANDOM_MAP, REMOVED, UNREACHABLE, WIDTH, Action)
from .maps import generate_map, load_map, pursuit_tables
from .state import alloc

N = HEIGHT * WIDTH
_TABLE_CACHE = {}
OBSERVE_ONE = BatchTyped(kernel.observe_one)
# the keys ``restore`` reads (``snapshot`` also gives ``turns_left``, ``positions`` and
# ``enemy_trapped``, which follow from these; ``rng`` is optional)
SNAPSHOT_KEYS = ("board", "turn", "steps", "over", "map", "runners", "runner_alive",
                 "runner_respawn", "scores", "dig_delay", "visited", "enemies", "enemy_alive",
                 "enemy_master", "enemy_radius", "enemy_pc", "enemy_stack", "enemy_respawn",
                 "enemy_next", "restore_turn", "dug_by", "gold_turn")


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
    action_meanings = Action
    cell_pixels = render.CELL_PIXELS

    def __init__(self, config=None, num_envs=1, threads=None):
        config = Config() if config is None else config
        if isinstance(config.board, str) and config.board == RANDOM_MAP:
            self.maps = [generate_map(config.map_seed + i) for i in range(config.random_maps)]
        else:
            self.maps = [load_map(config.board)]
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

        return make_params(
            kernel.Params, c, cells=cells, spawns=spawns, n_enemies=n_enemies,
            enemy_spawn=enemy_spawn, prog=prog, prog_len=prog_len, side=side, nbr=nbr,
            dist=dist, num_maps=K, reward_mode=REWARD_MODES[c.reward], on=dtype(full),
            half=_lut([0.5], dtype, full, integer)[0], cell_lut=ramp(NUM_CELL_CODES - 1),
            removed_lut=ramp(c.brick_restore), gold_lut=ramp(c.gold_respawn),
            runner_lut=ramp(c.runner_respawn, rising=True), enemy_lut=ramp(c.enemy_respawn),
            dig_bar=bar(c.dig_delay), turn_bar=bar(c.max_turns))

    def observation_shape(self):
        return (NUM_PLANES, HEIGHT, WIDTH)

    def num_actions(self):
        return NUM_ACTIONS


    # -- views of one env ------------------------------------------------------------
    def _positions(self, pos, alive):
        return [(int(r), int(c)) if live else (-1, -1) for (r, c), live in zip(pos, alive)]

    def snapshot(self, e=0):
        """Copies of env e, a stable format (``restore`` reads it back):

        ``board`` (16 strings: ``. = H *`` and ``-`` for a removed brick), ``turn`` (turns
        played), ``turns_left``, ``steps``, ``over``, ``map`` (index in the pool),
        ``runners`` ([(row, col)] red, blue; (-1, -1) when dead), ``positions`` (the same
        as int16[2, 2]), ``runner_alive``, ``runner_respawn`` (turn a dead runner
        reappears), ``scores``, ``dig_delay`` (turns until each runner may dig again),
        ``visited`` (uint8[16, 25]: 1 where a runner has stood, no first-visit points
        left), ``enemies`` ([(row, col)], (-1, -1) when dead; each listed enemy of the map
        file followed by its mirror), ``enemy_alive``, ``enemy_trapped``,
        ``enemy_master`` (0, 1 or -1), ``enemy_radius`` ([n, 2]), ``enemy_pc`` (next letter
        of its program), ``enemy_stack`` (list of pursuit move lists, bottom first),
        ``enemy_respawn`` (turn a dead enemy reappears, in that turn's timed events),
        ``enemy_next`` (first turn it may move again), ``restore_turn`` ({(row, col):
        turn} of removed bricks), ``dug_by`` ({(row, col): bits, 1 red, 2 blue}),
        ``gold_turn`` ({(row, col): turn} of collected gold), ``rng``."""
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
            "enemy_next": s.enemy_next[e, :n].copy(),
            "restore_turn": {(int(r), int(c)): int(s.restore_turn[e, r, c]) for r, c in holes},
            "dug_by": {(int(r), int(c)): int(s.dug_by[e, r, c]) for r, c in holes},
            "gold_turn": {(int(r), int(c)): int(s.gold_turn[e, r, c]) for r, c in golds},
            "rng": s.rng[e].copy(),
        }

    def write_snapshot(self, snapshot, state):
        """``snapshot``'s env, checked whole, into env 0 of ``state`` (see ``restore``).
        The board must be the map's, but for removed bricks (each with a ``restore_turn``
        and ``dug_by``) and collected gold (each with a ``gold_turn``)."""
        snap.require(snapshot, SNAPSHOT_KEYS, "coderunner")
        turn = snap.integer(snapshot, "turn", 0, self.config.max_turns)
        m = snap.integer(snapshot, "map", 0, len(self.maps) - 1)
        data = self.maps[m]
        cells = self._read_board(snapshot, data.cells)
        holes = self._read_timed(snapshot, "restore_turn", cells, REMOVED, turn)
        golds = self._read_timed(snapshot, "gold_turn", cells, GOLD, turn)
        dug_by = {key: int(bits) for key, bits in dict(snapshot["dug_by"]).items()}
        if set(dug_by) != set(holes) or not all(1 <= bits <= 3 for bits in dug_by.values()):
            raise snap.fail("dug_by", "want bits 1 (red), 2 (blue) or 3 for every removed brick")
        runners, runner_alive = self._read_characters(snapshot, "runners", "runner_alive", 2, cells)
        n = len(data.enemies)
        enemies, enemy_alive = self._read_characters(snapshot, "enemies", "enemy_alive", n, cells)
        runner_respawn = snap.array(snapshot, "runner_respawn", (2,), -1)
        enemy_respawn = snap.array(snapshot, "enemy_respawn", (n,), -1)
        for key, alive, due in (("runner_respawn", runner_alive, runner_respawn),
                                ("enemy_respawn", enemy_alive, enemy_respawn)):
            if any(not live and t < turn for live, t in zip(alive, due)):
                raise snap.fail(key, f"a dead character's respawn turn is before turn {turn}")
        stacks = list(snapshot["enemy_stack"])
        cap = state.enemy_stack.shape[2]
        if len(stacks) != n or any(len(st) > cap or any(not LEFT <= int(m) <= BOTTOM for m in st)
                                   for st in stacks):
            raise snap.fail("enemy_stack", f"want {n} lists of at most {cap} moves 1..4")
        programs = [len(prog) for _, _, prog in data.enemies]
        enemy_pc = snap.array(snapshot, "enemy_pc", (n,), 0)
        if any(pc >= size for pc, size in zip(enemy_pc, programs)):
            raise snap.fail("enemy_pc", "past the end of the enemy's program")
        values = {
            "visited": snap.array(snapshot, "visited", (HEIGHT, WIDTH), 0, 1),
            "scores": snap.array(snapshot, "scores", (2,), 0),
            "dig_delay": snap.array(snapshot, "dig_delay", (2,), 0, self.config.dig_delay),
            "enemy_master": snap.array(snapshot, "enemy_master", (n,), -1, 1),
            "enemy_radius": snap.array(snapshot, "enemy_radius", (n, 2), 0),
            "enemy_next": snap.array(snapshot, "enemy_next", (n,), 0),
            "steps": snap.integer(snapshot, "steps", 0),
            "over": snap.flag(snapshot, "over"),
        }
        rng = snap.rng(snapshot, state.rng[0])
        # everything is checked: write env 0
        s = state
        s.cells[0], s.map_id[0], s.turn[0], s.steps[0] = cells, m, turn, values["steps"]
        s.over[0] = values["over"]
        s.restore_turn[0], s.dug_by[0], s.gold_turn[0] = -1, 0, -1
        for (r, c), due in holes.items():
            s.restore_turn[0, r, c], s.dug_by[0, r, c] = due, dug_by[(r, c)]
        for (r, c), due in golds.items():
            s.gold_turn[0, r, c] = due
        for queue, head, count, timed in ((s.hole_queue, s.hole_head, s.num_holes, holes),
                                          (s.gold_queue, s.gold_head, s.num_gold_out, golds)):
            cells_due = sorted(timed, key=timed.get)      # the queues are in due order
            queue[0, :len(cells_due)] = [r * WIDTH + c for r, c in cells_due]
            head[0], count[0] = 0, len(cells_due)
        s.runner_pos[0], s.runner_alive[0], s.runner_respawn[0] = runners, runner_alive, runner_respawn
        s.dig_ready[0] = turn + values["dig_delay"]
        s.died[0], s.new_visit[0] = False, -1
        s.visited[0] = values["visited"]
        s.scores[0] = s.prev_scores[0] = s.rank_key[0] = values["scores"]
        s.alive[0] = s.prev_alive[0] = True
        s.num_enemies[0] = n
        s.enemy_pos[0], s.enemy_alive[0] = -1, False
        s.enemy_pos[0, :n], s.enemy_alive[0, :n] = enemies, enemy_alive
        s.enemy_respawn[0, :n], s.enemy_next[0, :n] = enemy_respawn, values["enemy_next"]
        s.enemy_pc[0, :n], s.enemy_master[0, :n] = enemy_pc, values["enemy_master"]
        s.enemy_radius[0, :n] = values["enemy_radius"]
        s.enemy_stack[0], s.enemy_sp[0] = 0, 0
        for i, stack in enumerate(stacks):
            s.enemy_stack[0, i, :len(stack)] = stack
            s.enemy_sp[0, i] = len(stack)
        s.rng[0] = rng

    def _read_board(self, snapshot, map_cells):
        rows = snapshot["board"]
        if (isinstance(rows, str) or len(rows) != HEIGHT
                or any(not isinstance(row, str) or len(row) != WIDTH for row in rows)):
            raise snap.fail("board", f"want {HEIGHT} strings of {WIDTH} characters")
        try:
            cells = np.array([[CHAR_CELLS[ch] for ch in row] for row in rows], dtype=np.uint8)
        except KeyError as bad:
            raise snap.fail("board", f"unknown character {bad.args[0]!r}") from None
        allowed = ((cells == map_cells) | ((map_cells == BRICK) & (cells == REMOVED))
                   | ((map_cells == GOLD) & (cells == EMPTY)))
        if not allowed.all():
            r, c = np.argwhere(~allowed)[0]
            raise snap.fail("board", f"cell (row, col) = ({r}, {c}) is not the map's")
        return cells

    @staticmethod
    def _read_timed(snapshot, key, cells, kind, turn):
        """{(row, col): turn} of the removed bricks (``kind`` REMOVED) or the collected gold
        (GOLD: empty cells of the map's gold), each due at ``turn`` or later."""
        try:
            timed = {(int(r), int(c)): int(due) for (r, c), due in dict(snapshot[key]).items()}
        except (TypeError, ValueError):
            raise snap.fail(key, "want a dict {(row, col): turn}") from None
        board = cells == REMOVED if kind == REMOVED else cells == EMPTY
        for (r, c), due in timed.items():
            if not (0 <= r < HEIGHT and 0 <= c < WIDTH) or not board[r, c] or due < turn:
                raise snap.fail(key, f"({r}, {c}): turn {due}")
        if kind == REMOVED and len(timed) != int(board.sum()):
            raise snap.fail(key, "every removed brick needs its restore turn")
        if len(timed) > QUEUE:
            raise snap.fail(key, f"more than {QUEUE} entries")
        return timed

    @staticmethod
    def _read_characters(snapshot, key, alive_key, count, cells):
        """(positions int16[count, 2], alive bool[count]): living characters inside the map
        and not in brick, dead ones at (-1, -1)."""
        alive = snap.array(snapshot, alive_key, (count,), 0, 1).astype(bool)
        pos = snap.array(snapshot, key, (count, 2), -1)
        for (r, c), live in zip(pos, alive):
            if (live and min(r, c) < 0) or (not live and (r, c) != (-1, -1)):
                raise snap.fail(key, f"({r}, {c}) disagrees with {alive_key!r}")
            if live and not (r < HEIGHT and c < WIDTH and cells[r, c] != BRICK):
                raise snap.fail(key, f"({r}, {c}) is off the map or in brick")
        return pos.astype(np.int16), alive

    def observe_env(self, e):
        OBSERVE_ONE(self.state, self.params, e, self.obs, self.masks, self.obs_journal)

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
        n, turn = int(s.num_enemies[e]), int(s.turn[e])
        board = render.rgb(s.cells[e], s.runner_pos[e], s.runner_alive[e], s.enemy_pos[e, :n],
                           s.enemy_alive[e, :n])
        players = []
        for a, name in enumerate(render.RUNNER_NAMES):
            counts = ([("DIG", max(0, int(s.dig_ready[e, a]) - turn))] if s.runner_alive[e, a]
                      else [("RESPAWN", int(s.runner_respawn[e, a]) - turn)])
            players.append(frame.player_line(name, render.RUNNER_RGB[a], s.scores[e, a], counts))
        return frame.status_frame(board, turn, self.config.max_turns, s.over[e], players,
                                  render.LEGEND)

    def seat_view(self, seat):
        """Blue's actions are mirrored left-right with ``mirror=True``."""
        cells, commands = super().seat_view(seat)
        if seat == 1 and self.config.mirror:
            commands = MIRRORED.copy()
        return cells, commands

    @property
    def global_state_space(self):
        return spaces.Box(0.0, 1.0, (NUM_PLANES, HEIGHT, WIDTH), dtype=np.float32)

    def global_state(self, e=0):
        """float32: red's observation planes (absolute: red is never mirrored; OWN is red,
        OPPONENT blue; the visited cells are both runners') scaled to [0, 1]."""
        full = float(OBS_ONE[self.config.obs_dtype])
        return self.obs[e, 0].astype(np.float32) / full
