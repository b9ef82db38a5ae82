"""Towers' configuration: one frozen dataclass; every constant of the rules is a field."""
from dataclasses import dataclass
from typing import Optional

from ...core.config import (MAX_PENALTY, MAX_POINTS, MAX_SIZE, MAX_TURNS, bounded, check_common,
                            renamed)
from .constants import RANDOM_BOARD
from .maps import MIN_SIZE, load_map

MAX_UNITS = 100_000          # bots or towers of a player
MAX_HP = 1_000_000           # hit points and damage (int32 with room to spare)
MAX_WATER = 0.5              # water share of a generated map (the halves must connect)
MIN_LENGTH = 1e-6            # speeds and radii are positive lengths in tiles


@renamed(num_turns="max_turns")
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
    max_turns: the contest's NUM_TURNS (1000; formerly ``num_turns``: the old name still
        works, with a ``DeprecationWarning``); num_bots_start: bots each player starts with (20);
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
    map_size: int = bounded(30, MIN_SIZE, MAX_SIZE)
    water: float = bounded(0.12, 0.0, MAX_WATER)
    flag_size: int = bounded(4, 0, MAX_SIZE)
    max_turns: int = bounded(1000, 1, MAX_TURNS)
    num_bots_start: int = bounded(20, 0, MAX_UNITS)
    bot_spawn_frequency: int = bounded(1, 0, MAX_UNITS)
    max_num_bots: int = bounded(150, 1, MAX_UNITS)
    max_num_towers: int = bounded(100, 1, MAX_UNITS)
    max_bot_hp: int = bounded(200, 1, MAX_HP)
    max_tower_hp: int = bounded(600, 1, MAX_HP)
    bot_speed: float = bounded(1.0, MIN_LENGTH, MAX_SIZE)
    bot_blast_impact_radius: float = bounded(2.0, MIN_LENGTH, MAX_SIZE)
    bot_blast_damage_points: int = bounded(50, 0, MAX_HP)
    tower_blast_impact_radius: float = bounded(6.0, MIN_LENGTH, MAX_SIZE)
    tower_blast_damage_points: int = bounded(500, 0, MAX_HP)
    tower_min_blast_age: int = bounded(3, 0, MAX_TURNS)
    bot_score_multiplier: int = bounded(10, 0, MAX_POINTS)
    tower_score_multiplier: int = bounded(25, 0, MAX_POINTS)
    transform_hp_factor: int = bounded(3, 1, MAX_HP)
    reward: str = "score"
    turn_score_weight: float = bounded(0.0, -MAX_PENALTY, MAX_PENALTY)
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = bounded(None, 1, MAX_TURNS)

    def __post_init__(self):
        check_common(self)
        if self.flag_size > self.map_size - 2:
            raise ValueError(f"flag_size must be <= map_size - 2 = {self.map_size - 2}, "
                             f"got {self.flag_size}")
        if self.num_bots_start > self.max_num_bots:
            raise ValueError(f"num_bots_start ({self.num_bots_start}) exceeds max_num_bots "
                             f"({self.max_num_bots})")
        if self.transform_hp_factor * self.max_bot_hp > MAX_HP:
            raise ValueError(f"transform_hp_factor * max_bot_hp must be <= {MAX_HP}")
        self.load_map()

    @property
    def random_board(self):
        return isinstance(self.board, str) and self.board == RANDOM_BOARD

    def load_map(self):
        """The ``maps.TowersMap`` this config plays on (None for ``board="random"``)."""
        if self.random_board:
            return None
        return load_map(self.board, self.map_size)
