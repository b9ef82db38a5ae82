"""Dungeon's configuration: one frozen dataclass; every number the rules use is here."""
from dataclasses import dataclass
from typing import Optional

from ...core.config import (MAX_PENALTY, MAX_POINTS, MAX_SIZE, MAX_TURNS, bounded, check_common,
                            renamed)
from ...core.grid import BOARD_VIEW
from .constants import MAX_PLAYERS, MIN_PLAYERS, RANDOM_BOARD
from .maps import CELLS_KEPT_PER_PLAYER, load_board

MAX_BLOCKS = MAX_SIZE * MAX_SIZE     # blocks or items the generator puts down
MAX_COUNT = 10_000                   # HP and ammo (int16 in the state)
MAX_POWER = 100                      # blast reach (int8 in the state)
MAX_TIMER = 10_000                   # fuse and ammo timers (int16; one more tick is added)
MAX_ORE_HP = 255                     # ore hits (uint8 in the state)


@renamed(max_ticks="max_turns")
@dataclass(frozen=True)
class Config:
    """Settings of a dungeon game (defaults: the contest's, see the env's page).

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
    max_turns: ticks per game (1800; the original engine plays 1802 for its 1800).
        (Formerly ``max_ticks``: the old name still works, with a ``DeprecationWarning``.)
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
    width: int = bounded(12, 1, MAX_SIZE)
    height: int = bounded(10, 1, MAX_SIZE)
    num_players: int = 2                        # 2..4, checked with the generator's board
    symmetric: bool = False
    metal_blocks: int = bounded(18, 0, MAX_BLOCKS)
    wooden_blocks: int = bounded(20, 0, MAX_BLOCKS)
    ore_blocks: int = bounded(5, 0, MAX_BLOCKS)
    map_ammo: int = bounded(1, 0, MAX_BLOCKS)
    player_hp: int = bounded(3, 1, MAX_COUNT)
    player_ammo: int = bounded(3, 0, MAX_COUNT)
    bomb_power: int = bounded(2, 0, MAX_POWER)
    bomb_fuse: int = bounded(35, 1, MAX_TIMER)
    ore_hp: int = bounded(3, 1, MAX_ORE_HP)
    wood_points: int = bounded(2, 0, MAX_POINTS)
    ore_points: int = bounded(10, 0, MAX_POINTS)
    treasure_points: int = bounded(1, 0, MAX_POINTS)
    hit_points: int = bounded(25, 0, MAX_POINTS)
    ammo_lifetime: int = bounded(175, 1, MAX_TIMER)
    ammo_delay: int = bounded(70, 1, MAX_TIMER)
    ammo_respawn: int = bounded(70, 1, MAX_TIMER)
    treasure_min: int = bounded(50, 1, MAX_TURNS)
    treasure_max: int = bounded(250, 1, MAX_TURNS)
    treasure_retry: int = bounded(50, 1, MAX_TURNS)
    max_turns: int = bounded(1800, 1, MAX_TURNS)
    double_pay: bool = False
    reward: str = "score"
    hurt_penalty: float = bounded(0.0, 0.0, MAX_PENALTY)
    shield: bool = False
    view: str = BOARD_VIEW
    obs_dtype: str = "uint8"
    max_steps: Optional[int] = bounded(None, 1, MAX_TURNS)

    def __post_init__(self):
        check_common(self)
        if self.treasure_max < self.treasure_min:
            raise ValueError(f"treasure_max ({self.treasure_max}) < treasure_min ({self.treasure_min})")
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
