"""Towers' configuration: one frozen dataclass; every constant of the rules is a field."""
from dataclasses import dataclass, fields
from typing import Optional

from ...core.config import check_common
from .constants import RANDOM_BOARD
from .maps import MIN_SIZE, load_map

INT_FIELDS = ("map_size", "num_turns", "num_bots_start", "bot_spawn_frequency", "max_num_bots",
              "max_num_towers", "max_bot_hp", "max_tower_hp", "bot_blast_damage_points",
              "tower_blast_damage_points", "tower_min_blast_age", "bot_score_multiplier",
              "tower_score_multiplier", "transform_hp_factor", "flag_size")
POSITIVE = ("map_size", "num_turns", "max_num_bots", "max_num_towers", "max_bot_hp",
            "max_tower_hp", "transform_hp_factor")
FLOAT_FIELDS = ("bot_speed", "bot_blast_impact_radius", "tower_blast_impact_radius", "water",
                "turn_score_weight")
LIMIT = 1_000_000            # every count and HP stays well inside int32


@dataclass(frozen=True)
class Config:
    """Settings of a towers game (defaults: the contest's constants).

    board: a bundled map name ("default": the water cross with the 4 x 4 flag in the
        middle, "islands", "lanes"), a path to a map file, the map's text (``map_size``
        lines of ``map_size`` space-separated letters ``L``, ``W``, ``F``), a list of
        rows, or "random": a new point-symmetric connected map at every reset, drawn from
        the env's RNG (``water``: its fraction of water tiles, about; ``flag_size``: the
        side of its central flag square).
    map_size: the map's side (30).  Player 0's base is tile (0, 0), player 1's the
        opposite corner.
    num_turns: NUM_TURNS (1000); num_bots_start: bots each player starts with (20);
        bot_spawn_frequency: bots spawned per player per turn (1); max_num_bots,
        max_num_towers: the caps per player (150, 100).
    max_bot_hp, max_tower_hp (200, 600); bot_speed: path length a bot walks per turn (1).
    bot_blast_impact_radius / bot_blast_damage_points (2, 50), tower_blast_impact_radius /
        tower_blast_damage_points (6, 500): a blast hurts each enemy unit within the radius
        R by floor(D * (R - d) / R) at distance d.
    tower_min_blast_age: turns a tower must stand before it may blast (3).
    bot_score_multiplier, tower_score_multiplier: turn score per bot / tower on a flag
        tile (10, 25).  transform_hp_factor: a new tower's HP is this times its bot's (3).
    reward: "score" (game points gained), "zero_sum" (change of the point margin) or
        "win_loss"; turn_score_weight: shaping, added each turn times (own - enemy turn
        score) (0.0).
    obs_dtype: "uint8" or "float32"; max_steps: truncate after that many steps (None).
    """
    board: object = "default"
    map_size: int = 30
    water: float = 0.12
    flag_size: int = 4
    num_turns: int = 1000
    num_bots_start: int = 20
    bot_spawn_frequency: int = 1
    max_num_bots: int = 150
    max_num_towers: int = 100
    max_bot_hp: int = 200
    max_tower_hp: int = 600
    bot_speed: float = 1.0
    bot_blast_impact_radius: float = 2.0
    bot_blast_damage_points: int = 50
    tower_blast_impact_radius: float = 6.0
    tower_blast_damage_points: int = 500
    tower_min_blast_age: int = 3
    bot_score_multiplier: int = 10
    tower_score_multiplier: int = 25
    transform_hp_factor: int = 3
    reward: str = "score"
    turn_score_weight: float = 0.0
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = None

    def __post_init__(self):
        check_common(self)
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in INT_FIELDS:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError(f"{f.name} must be an int, got {value!r}")
                low = 1 if f.name in POSITIVE else 0
                if not low <= value <= LIMIT:
                    raise ValueError(f"{f.name} must be in [{low}, {LIMIT}], got {value}")
            elif f.name in FLOAT_FIELDS:
                if not isinstance(value, (int, float)) or isinstance(value, bool) \
                        or value != value or abs(value) > LIMIT:
                    raise ValueError(f"{f.name} must be a finite number, got {value!r}")
        if self.map_size < MIN_SIZE:
            raise ValueError(f"map_size must be >= {MIN_SIZE}, got {self.map_size}")
        for name in ("bot_speed", "bot_blast_impact_radius", "tower_blast_impact_radius"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")
        if not 0.0 <= self.water <= 0.5:
            raise ValueError(f"water must be in [0, 0.5], got {self.water}")
        if self.flag_size > self.map_size - 2:
            raise ValueError(f"flag_size must be <= map_size - 2 = {self.map_size - 2}, "
                             f"got {self.flag_size}")
        if self.num_bots_start > self.max_num_bots:
            raise ValueError(f"num_bots_start ({self.num_bots_start}) exceeds max_num_bots "
                             f"({self.max_num_bots})")
        if self.transform_hp_factor * self.max_bot_hp > LIMIT:
            raise ValueError("transform_hp_factor * max_bot_hp must be <= 1000000")
        self.load_map()

    @property
    def random_board(self):
        return isinstance(self.board, str) and self.board == RANDOM_BOARD

    def load_map(self):
        """The ``maps.TowersMap`` this config plays on (None for ``board="random"``)."""
        if self.random_board:
            return None
        return load_map(self.board, self.map_size)
