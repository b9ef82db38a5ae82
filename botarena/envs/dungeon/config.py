"""Dungeon's configuration: one frozen dataclass; every number the rules use is here."""
from dataclasses import dataclass, fields
from typing import Optional

from ...core.config import check_common, check_view
from ...core.grid import BOARD_VIEW
from .constants import MAX_PLAYERS, MIN_PLAYERS, RANDOM_BOARD
from .maps import CELLS_KEPT_PER_PLAYER, load_board


@dataclass(frozen=True)
class Config:
    """Settings of a dungeon game (defaults: the seed and shared/rules/dungeon.md).

    board: "random" (a new generated map at every reset, default), a bundled map name
        ("classic"), an ASCII map (string or list of rows, see ``maps``) or a path to one.
    width, height, num_players, symmetric: the generator's board (12 x 10, 2 players) and
        whether it mirrors the map and the starts left-right.
    metal_blocks, wooden_blocks, ore_blocks, map_ammo: what the generator puts down.
    player_hp, player_ammo, bomb_power: each player's start (3 HP, 3 ammo, blast 2).
    bomb_fuse: a bomb placed at tick t turns into fire at the end of tick t + fuse - 1
        and its fire hits during tick t + fuse (35).
    ore_hp: hits an ore block takes (3).
    wood_points, ore_points, treasure_points, hit_points: +2, +10, +1, +25.
    ammo_lifetime: ticks an ammo token lies on the floor before it perishes (175): a
        token that appears at the end of tick s perishes at the end of tick s + 175.
    ammo_delay: a bomb placed in tick t schedules one new ammo, which appears at the end
        of tick t + ammo_delay - 1 (70, timed as the fuse).
    ammo_respawn: a token that perishes at the end of tick p (also one taken during that
        tick, its last) is replaced at the end of tick p + ammo_respawn (70); an ammo
        spawn that finds no free cell retries ammo_respawn ticks later.
    treasure_min, treasure_max: a treasure appears every randint(min, max) ticks (50, 250,
        both included); treasure_retry: when no cell is free it retries after
        randint(1, treasure_retry) ticks (50).
    max_ticks: ticks per game (1800; the original engine plays 1802 for its 1800).
    double_pay: the original engine's quirk (off by default, as the rules decide): a
        block already destroyed this tick pays its points again to every further fire
        that hits it in the same tick.
    reward: "score" (score change), "zero_sum" (change of the margin over the best
        opponent) or "win_loss" (+1/0/-1 at the end: last alive, else score).
    hurt_penalty: shaping, subtracted from the reward per hit point the player loses
        (its own fire included; 0: none).
    shield: a training aid: the action mask also clears the actions after which the
        player would have no escape from the fire it can foresee (``bots.shield``: the
        bombs on the board and their chains as the bots see them, not the other players'
        next moves), unless that clears them all.  The game and its rules are unchanged.
    view: "board" (the planes cover the board as it is) or "ego" (a (2H-1, 2W-1) window
        centred on the observing player: board cell (x, y) is window cell
        (x - own x + W - 1, y - own y + H - 1); cells off the board read as metal).
    obs_dtype: "uint8" (binary planes 0/1, graded 0..255) or "float32" (all in [0, 1]).
    max_steps: truncate an episode after that many steps (None: play to the end).
    """
    board: object = RANDOM_BOARD
    width: int = 12
    height: int = 10
    num_players: int = 2
    symmetric: bool = False
    metal_blocks: int = 18
    wooden_blocks: int = 20
    ore_blocks: int = 5
    map_ammo: int = 1
    player_hp: int = 3
    player_ammo: int = 3
    bomb_power: int = 2
    bomb_fuse: int = 35
    ore_hp: int = 3
    wood_points: int = 2
    ore_points: int = 10
    treasure_points: int = 1
    hit_points: int = 25
    ammo_lifetime: int = 175
    ammo_delay: int = 70
    ammo_respawn: int = 70
    treasure_min: int = 50
    treasure_max: int = 250
    treasure_retry: int = 50
    max_ticks: int = 1800
    double_pay: bool = False
    reward: str = "score"
    hurt_penalty: float = 0.0
    shield: bool = False
    view: str = BOARD_VIEW
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = None

    def __post_init__(self):
        check_common(self)
        check_view(self)
        if isinstance(self.hurt_penalty, bool) or not isinstance(self.hurt_penalty, (int, float)) \
                or not self.hurt_penalty >= 0:
            raise ValueError(f"hurt_penalty must be a number >= 0, got {self.hurt_penalty!r}")
        for flag in ("symmetric", "shield", "double_pay"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be a bool, got {getattr(self, flag)!r}")
        positive = ("width", "height", "num_players", "player_hp", "bomb_fuse", "ore_hp",
                    "ammo_lifetime", "ammo_delay", "ammo_respawn", "treasure_min",
                    "treasure_retry", "max_ticks")
        non_negative = ("metal_blocks", "wooden_blocks", "ore_blocks", "map_ammo", "player_ammo",
                        "bomb_power", "wood_points", "ore_points", "treasure_points", "hit_points")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in positive or f.name in non_negative:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError(f"{f.name} must be an int, got {value!r}")
                low = 1 if f.name in positive else 0
                if value < low:
                    raise ValueError(f"{f.name} must be >= {low}, got {value}")
        if self.treasure_max < self.treasure_min:
            raise ValueError(f"treasure_max ({self.treasure_max}) < treasure_min ({self.treasure_min})")
        if self.ore_hp > 255 or self.player_hp > 10_000 or self.bomb_fuse > 10_000 \
                or self.bomb_power > 100:
            raise ValueError("ore_hp <= 255, player_hp, bomb_fuse <= 10000 and bomb_power <= 100")
        if isinstance(self.board, str) and self.board == RANDOM_BOARD:
            self._check_generator()
        else:
            load_board(self.board)

    def _check_generator(self):
        n = self.num_players
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"dungeon takes {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
        if self.width < 3 or self.height < 3:
            raise ValueError(f"the board must be at least 3 x 3, got {self.width} x {self.height}")
        cells = self.width * self.height
        blocks = self.metal_blocks + self.wooden_blocks + self.ore_blocks
        # symmetric boards without a middle column round odd counts up (one more each)
        extra = 4 if self.symmetric and self.width % 2 == 0 else 0
        need = blocks + self.map_ammo + CELLS_KEPT_PER_PLAYER * n + extra
        if need > cells:
            raise ValueError(
                f"a {self.width} x {self.height} board ({cells} cells) is too small for "
                f"{blocks} blocks, {self.map_ammo} ammo and {n} players with their escape "
                f"cells ({need} cells needed)")
        if self.symmetric:
            if n % 2 == 1 and self.width % 2 == 0:
                raise ValueError("symmetric maps with an odd number of players need an odd "
                                 "width (the odd player starts on the middle column)")
            if self.width < 5:
                raise ValueError("symmetric maps need width >= 5 (mirrored starts at least "
                                 "2 columns apart)")
