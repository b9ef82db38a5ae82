"""Paint's configuration: one frozen dataclass; every value the rules use is here."""
from dataclasses import dataclass
from typing import Optional

from ...core.config import MAX_SIZE, MAX_TURNS, bounded, check_common
from ...core.grid import BOARD_VIEW
from .constants import RANDOM_BOARD
from .maps import load_board

TURNS_PER_COLUMN = 10  # the original boards last 10 turns per column (10x10: 100, 5x11: 110)
MAX_PLAYERS = 1000     # players of a generated board (each needs a free square)
MAX_DENSITY = 0.99     # obstacle density of a generated board (below 1: room for players)


@dataclass(frozen=True)
class Config:
    """Settings of a paint game.

    board: a bundled board name ("10x10", "5x11", "7x13", "7x13b"), an ASCII board (a
        string with one row per line, or a list of rows), a path to a file holding one, or
        "random" for a new generated board at every reset.
    width, height, num_players, obstacle_density, symmetric: the generator's settings
        (used with board="random").  symmetric=True mirrors obstacles and start squares
        through the centre (player 2k+1 starts opposite player 2k); an odd player count
        then needs odd width and height (the last player starts in the centre).  Where 100
        draws give no board whose free squares are connected and hold every start (a
        density near 1), the board has no obstacles.
    max_turns: turns per game; None takes the bundled board's own, else 10 x width.
    reward: "score" (change of own square count), "zero_sum" (change of the margin over
        the best opponent) or "win_loss" (+1/0/-1 at the end).
    obs_dtype: "uint8" (planes 0/255, time left 0..255) or "float32" (all in [0, 1]).
    view: "board" (the planes cover the board as it is) or "ego" (a (2H-1, 2W-1) window
        centred on the observer's avatar; squares off the board read as obstacles).
    max_steps: truncate an episode after this many steps (None: play to the end).
    """
    board: object = "10x10"
    width: int = bounded(10, 1, MAX_SIZE)
    height: int = bounded(10, 1, MAX_SIZE)
    num_players: int = bounded(2, 2, MAX_PLAYERS)
    obstacle_density: float = bounded(0.0, 0.0, MAX_DENSITY)
    symmetric: bool = True
    max_turns: Optional[int] = bounded(None, 1, MAX_TURNS)
    reward: str = "score"
    obs_dtype: str = "uint8"
    view: str = BOARD_VIEW
    max_steps: Optional[int] = bounded(None, 1, MAX_TURNS)

    def __post_init__(self):
        check_common(self)
        if isinstance(self.board, str) and self.board == RANDOM_BOARD:
            self._check_generator()
        else:
            load_board(self.board)

    def _check_generator(self):
        if self.width * self.height < 2:
            raise ValueError("a board needs at least 2 squares")
        if self.num_players > self.width * self.height:
            raise ValueError(
                f"{self.num_players} players do not fit on a {self.height}x{self.width} board "
                f"({self.width * self.height} squares)"
            )
        if self.symmetric and self.num_players % 2 == 1 and (self.width % 2 == 0 or self.height % 2 == 0):
            raise ValueError(
                "symmetric boards with an odd number of players need odd width and height "
                "(the odd player starts in the centre); use symmetric=False"
            )
