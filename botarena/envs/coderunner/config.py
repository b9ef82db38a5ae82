"""CodeRunner's configuration: one frozen dataclass; every number the rules use is here."""
from dataclasses import dataclass
from typing import Optional

from ...core.config import MAX_PENALTY, MAX_POINTS, MAX_TURNS, bounded, check_common, renamed
from .constants import RANDOM_MAP
from .maps import load_map

MAX_TURNS_LIMIT = 1200    # the contest's longest game
MAX_DELAY = 10_000        # a timer in turns (brick, gold, respawns, digging, enemy moves)
MAX_RADIUS = 400          # a chase radius (farther than any path on the 16 x 25 map)
MAX_RANDOM_MAPS = 64      # generated maps in a pool
MAX_SEED = 2 ** 31 - 1


@renamed(map="board")
@dataclass(frozen=True)
class Config:
    """Settings of a CodeRunner game (defaults: the ICPC 2013 contest's rules and
    original engine).

    board: a bundled map name (``maps.BUNDLED``: "alpha", "beta", "gamma", generated, and
        "tower", "cavern", "maze", drawn by hand; default "alpha"), a path to a map
        file, a map's text, or "random": a pool of ``random_maps`` generated maps (seeds
        ``map_seed`` .. ``map_seed + random_maps - 1``), one drawn per reset.  (Formerly ``map``:
        the old name still works, with a ``DeprecationWarning``.)
    max_turns: turns per game (700; the contest's range is 400..1200, shorter games are
        allowed for tests and curricula: 1..1200).
    brick_restore (25), gold_respawn (150), runner_respawn (50), enemy_respawn (25),
        dig_delay (10): the timings in turns.
    enemy_period: an enemy moves once every that many turns (2); enemy_first_move_turn:
        the turn of its first move (0, the seed; the original engine: 1).
    chase_radius (5), master_radius (4), other_radius (8): pursuit radii.
    gold_points (100), visit_points (1), enemy_kill_points (20), opponent_kill_points (300).
    reward: "score" (score change), "zero_sum" or "win_loss".
    death_penalty: shaping, subtracted from a runner's reward on the turn it dies (0: off).
    mirror: blue sees its planes mirrored left-right and its LEFT/RIGHT, DIG_LEFT/DIG_RIGHT
        actions (and mask) are mirrored too, so one policy can play both sides.
    obs_dtype: "uint8" (0..255) or "float32" (0..1).
    max_steps: truncate an episode after that many steps (None: play to the end).
    """
    board: object = "alpha"
    random_maps: int = bounded(8, 1, MAX_RANDOM_MAPS)
    map_seed: int = bounded(0, 0, MAX_SEED)
    max_turns: int = bounded(700, 1, MAX_TURNS_LIMIT)
    brick_restore: int = bounded(25, 1, MAX_DELAY)
    gold_respawn: int = bounded(150, 1, MAX_DELAY)
    runner_respawn: int = bounded(50, 1, MAX_DELAY)
    enemy_respawn: int = bounded(25, 1, MAX_DELAY)
    dig_delay: int = bounded(10, 1, MAX_DELAY)
    enemy_period: int = bounded(2, 1, MAX_DELAY)
    enemy_first_move_turn: int = bounded(0, 0, MAX_TURNS_LIMIT)
    chase_radius: int = bounded(5, 0, MAX_RADIUS)
    master_radius: int = bounded(4, 0, MAX_RADIUS)
    other_radius: int = bounded(8, 0, MAX_RADIUS)
    gold_points: int = bounded(100, 0, MAX_POINTS)
    visit_points: int = bounded(1, 0, MAX_POINTS)
    enemy_kill_points: int = bounded(20, 0, MAX_POINTS)
    opponent_kill_points: int = bounded(300, 0, MAX_POINTS)
    reward: str = "score"
    death_penalty: float = bounded(0.0, -MAX_PENALTY, MAX_PENALTY)
    mirror: bool = False
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = bounded(None, 1, MAX_TURNS)

    def __post_init__(self):
        check_common(self)
        if not (isinstance(self.board, str) and self.board == RANDOM_MAP):
            load_map(self.board)
