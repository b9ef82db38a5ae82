"""Ants' configuration: one frozen dataclass; every number the rules use is here."""
from dataclasses import dataclass
from typing import Optional

from ...core.config import MAX_POINTS, MAX_SIZE, MAX_TURNS, bounded, check_common
from .constants import MAX_PLAYERS, MIN_PLAYERS, RANDOM_BOARD
from .maps import generate_map, load_map

MAX_HILLS = 100           # hills per colony
MAX_WATER = 0.9           # water share of a generated map (land must remain for the hills)
MAX_RADIUS2 = 400         # a squared radius
MAX_FOOD = 1_000_000      # food on the map or in store
MAX_SEED = 2 ** 31 - 1


@dataclass(frozen=True)
class Config:
    """Settings of an ants game (defaults: the AntWars contest's rules).

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
    num_players: int = bounded(2, MIN_PLAYERS, MAX_PLAYERS)
    hills_per_player: int = bounded(1, 1, MAX_HILLS)
    width: int = bounded(20, 1, MAX_SIZE)
    height: int = bounded(20, 1, MAX_SIZE)
    water: float = bounded(0.15, 0.0, MAX_WATER)
    map_seed: int = bounded(0, 0, MAX_SEED)
    attack_radius2: int = bounded(5, 0, MAX_RADIUS2)
    gather_radius2: int = bounded(1, 0, MAX_RADIUS2)
    max_food: int = bounded(20, 0, MAX_FOOD)
    start_food: int = bounded(0, 0, MAX_FOOD)
    spawn_food_at_reset: bool = True
    hill_points: int = bounded(1, 0, MAX_POINTS)
    raze_loss: int = bounded(1, 0, MAX_POINTS)
    raze_gain: int = bounded(2, 0, MAX_POINTS)
    survive_points: int = bounded(1, 0, MAX_POINTS)
    max_turns: int = bounded(300, 1, MAX_TURNS)
    raze_one_hill_per_turn: bool = False
    contested_food_credit: bool = False
    sequential_elimination_points: bool = False
    reward: str = "score"
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = bounded(None, 1, MAX_TURNS)

    def __post_init__(self):
        check_common(self)
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
