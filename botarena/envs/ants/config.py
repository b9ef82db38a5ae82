"""Ants' configuration: one frozen dataclass; every number the rules use is here."""
from dataclasses import dataclass, fields
from typing import Optional

from ...core.config import check_common
from .constants import MAX_PLAYERS, MIN_PLAYERS, RANDOM_BOARD
from .maps import generate_map, load_map

SWITCHES = ("spawn_food_at_reset", "raze_one_hill_per_turn", "contested_food_credit",
            "sequential_elimination_points")


@dataclass(frozen=True)
class Config:
    """Settings of an ants game (defaults: the seed and shared/rules/ants.md).

    board: a bundled map name ("default": 20 x 20 for 2 colonies, "quad": 20 x 20, 4
        hills), a path to a ``.ppm`` or ASCII map, an ASCII map (string or list of rows,
        see ``maps``), or "random": the seeded symmetric generator (``width``, ``height``,
        ``water``, ``map_seed``; drawn once, when the game is built).
    num_players: colonies (2 to 4); hills_per_player: hills each colony gets (1).
    attack_radius2, gather_radius2: squared Euclidean radii (5, 1).
    max_food: max_food_count of the food formula (20); start_food: food each colony
        starts with (0); spawn_food_at_reset: run the food-spawn formula once at reset, so
        the first observation shows food (True).
    hill_points: points per hill a colony starts with (1); raze_loss, raze_gain: points a
        razed hill costs its owner and gives the razer (1, 2); survive_points: points each
        colony still in the game gets per eliminated colony (1).
    max_turns: the turn limit (300).
    raze_one_hill_per_turn, contested_food_credit, sequential_elimination_points: switches
        that reproduce the original engine where the rules file deliberately differs
        (all False): the engine razes only the first hill in hill-id order that stands
        under an enemy ant; credits a food in reach of two or more colonies to the first
        colony its scan around the food meets (dx, then dy) instead of destroying it; and
        eliminates the colonies out in one check one by one in index order, each giving
        ``survive_points`` to every colony still in at that moment (so a colony out later
        in the same check also gets them for those out before it).
    reward: "score" (score change), "zero_sum" (change of the margin over the best
        opponent) or "win_loss" (+1/0/-1 at the end; eliminated later = better, then score).
    obs_dtype: "uint8" (0/255 planes) or "float32" (0..1).
    max_steps: truncate an episode after that many steps (None: play to the end).
    """
    board: object = "default"
    num_players: int = 2
    hills_per_player: int = 1
    width: int = 20
    height: int = 20
    water: float = 0.15
    map_seed: int = 0
    attack_radius2: int = 5
    gather_radius2: int = 1
    max_food: int = 20
    start_food: int = 0
    spawn_food_at_reset: bool = True
    hill_points: int = 1
    raze_loss: int = 1
    raze_gain: int = 2
    survive_points: int = 1
    max_turns: int = 300
    raze_one_hill_per_turn: bool = False
    contested_food_credit: bool = False
    sequential_elimination_points: bool = False
    reward: str = "score"
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = None

    def __post_init__(self):
        check_common(self)
        for name in SWITCHES:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")
        positive = ("num_players", "hills_per_player", "width", "height", "max_turns")
        non_negative = ("attack_radius2", "gather_radius2", "max_food", "start_food",
                        "hill_points", "raze_loss", "raze_gain", "survive_points", "map_seed")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in positive or f.name in non_negative:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError(f"{f.name} must be an int, got {value!r}")
                low = 1 if f.name in positive else 0
                if value < low:
                    raise ValueError(f"{f.name} must be >= {low}, got {value}")
        if not isinstance(self.water, (int, float)) or isinstance(self.water, bool):
            raise ValueError(f"water must be a number, got {self.water!r}")
        if not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS:
            raise ValueError(f"ants takes {MIN_PLAYERS} to {MAX_PLAYERS} colonies, got "
                             f"{self.num_players}")
        if self.attack_radius2 > 400 or self.gather_radius2 > 400:
            raise ValueError("attack_radius2 and gather_radius2 must be <= 400")
        if self.max_turns > 1_000_000 or self.start_food > 1_000_000 or self.max_food > 1_000_000:
            raise ValueError("max_turns, start_food and max_food must be <= 1000000")
        check_hills(self.load_map(), self.num_players, self.hills_per_player)

    def load_map(self):
        """The ``maps.AntsMap`` this config plays on."""
        if isinstance(self.board, str) and self.board == RANDOM_BOARD:
            return generate_map(self.width, self.height, self.num_players, self.hills_per_player,
                                float(self.water), self.map_seed)
        return load_map(self.board)


def check_hills(ants_map, num_players, hills_per_player):
    """Raise ``ValueError`` unless the map can deal ``hills_per_player`` hills to each of
    ``num_players`` colonies."""
    owners = ants_map.hills[:, 2].tolist()
    free = owners.count(-1)
    need = 0
    for p in range(max(owners) + 1 if owners else 0):
        if p >= num_players and owners.count(p):
            raise ValueError(f"{ants_map.name} has a hill of player {p} but the game has "
                             f"{num_players} colonies")
    for p in range(num_players):
        own = owners.count(p)
        if own > hills_per_player:
            raise ValueError(f"{ants_map.name} gives player {p} {own} hills, more than "
                             f"hills_per_player={hills_per_player}")
        need += hills_per_player - own
    if need > free:
        raise ValueError(f"{ants_map.name} has {free} unassigned hills; {num_players} colonies "
                         f"with {hills_per_player} hill(s) each need {need}")
