"""CodeRunner's configuration: one frozen dataclass; every number the rules use is here."""
from dataclasses import dataclass, fields
from typing import Optional

from ...core.config import check_common
from .constants import RANDOM_MAP
from .maps import load_map

MAX_TURNS_LIMIT = 1200


@dataclass(frozen=True)
class Config:
    """Settings of a CodeRunner game (defaults: the seed and shared/rules/coderunner.md).

    map: a bundled map name (``maps.BUNDLED``: "alpha", "beta", "gamma", generated, and
        "tower", "cavern", "maze", drawn by hand; default "alpha"), a path to a map
        file, a map's text, or "random": a pool of ``random_maps`` generated maps (seeds
        ``map_seed`` .. ``map_seed + random_maps - 1``), one drawn per reset.
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
    map: object = "alpha"
    random_maps: int = 8
    map_seed: int = 0
    max_turns: int = 700
    brick_restore: int = 25
    gold_respawn: int = 150
    runner_respawn: int = 50
    enemy_respawn: int = 25
    dig_delay: int = 10
    enemy_period: int = 2
    enemy_first_move_turn: int = 0
    chase_radius: int = 5
    master_radius: int = 4
    other_radius: int = 8
    gold_points: int = 100
    visit_points: int = 1
    enemy_kill_points: int = 20
    opponent_kill_points: int = 300
    reward: str = "score"
    death_penalty: float = 0.0
    mirror: bool = False
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = None

    def __post_init__(self):
        check_common(self)
        if not isinstance(self.mirror, bool):
            raise ValueError(f"mirror must be a bool, got {self.mirror!r}")
        positive = ("random_maps", "max_turns", "brick_restore", "gold_respawn",
                    "runner_respawn", "enemy_respawn", "dig_delay", "enemy_period")
        non_negative = ("map_seed", "enemy_first_move_turn", "chase_radius", "master_radius",
                        "other_radius", "gold_points", "visit_points", "enemy_kill_points",
                        "opponent_kill_points")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in positive or f.name in non_negative:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError(f"{f.name} must be an int, got {value!r}")
                low = 1 if f.name in positive else 0
                if value < low:
                    raise ValueError(f"{f.name} must be >= {low}, got {value}")
        if self.max_turns > MAX_TURNS_LIMIT:
            raise ValueError(f"max_turns must be <= {MAX_TURNS_LIMIT}, got {self.max_turns}")
        for name in ("brick_restore", "gold_respawn", "runner_respawn", "enemy_respawn",
                     "dig_delay", "enemy_period"):
            if getattr(self, name) > 10_000:
                raise ValueError(f"{name} must be <= 10000")
        for name in ("chase_radius", "master_radius", "other_radius"):
            if getattr(self, name) > 400:
                raise ValueError(f"{name} must be <= 400")
        if self.random_maps > 64:
            raise ValueError(f"random_maps must be <= 64, got {self.random_maps}")
        if isinstance(self.death_penalty, bool) or not isinstance(self.death_penalty, (int, float)):
            raise ValueError(f"death_penalty must be a number, got {self.death_penalty!r}")
        if not (isinstance(self.map, str) and self.map == RANDOM_MAP):
            load_map(self.map)
