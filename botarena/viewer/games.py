"""What the web viewer draws of each game, and how it names a turn's actions.

``VIEWS[env_id]`` is a ``GameView``: ``view(snapshot)`` (plain JSON values, as
``replay.plain`` makes them) keeps only what the page draws, in the cells of the game's
picture (``[row, col]``, row 0 at the top, as ``render_rgb`` draws it; towers' unit
positions are continuous), grids as strings of one character a cell; ``grid`` names the
view's key whose rows are the board's rows; for a game of a command per cell, ``units(view,
seat)`` lists the cells of the seat's units.  The page's drawing code (``viewer.js``) reads
the same keys, one drawer per env id.

``ActionLabels`` names each seat's action through the game's own ``action_meanings`` and
``seat_view`` (so a seat shown its board turned or mirrored reads as the picture shows it).
"""
import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from ..envs.ants.constants import CHAR_WATER

MAX_LISTED = 12          # commands listed per seat and turn in per-cell games; then a count
POSITION_DIGITS = 2      # decimals kept of towers' continuous unit positions


@dataclass(frozen=True)
class GameView:
    view: Callable                    # snapshot -> dict of what the page draws
    grid: str                         # the view's key holding the board's rows
    units: Optional[Callable] = None  # (view, seat) -> [(row, col)] of the seat's units


class ActionLabels:
    """``labels(before, actions)``: what each seat did in a turn (``before``: the view of
    the position it was played in), as lists of strings: the name of its action, or for a
    command per cell the commands given to its own units, ``(row,col) NAME``, at most
    ``MAX_LISTED`` and then how many more."""

    def __init__(self, game, game_view):
        self.game_view = game_view
        self.names = [meaning.name for meaning in game.action_meanings]
        self.seats = []
        for seat in range(game.num_agents):
            cells, commands = game.seat_view(seat)
            entries = None if cells is None else np.argsort(cells)  # picture cell -> entry
            self.seats.append((entries, commands))

    def __call__(self, before, actions):
        return [self._seat(seat, action, before) for seat, action in enumerate(actions)]

    def _seat(self, seat, action, before):
        entries, commands = self.seats[seat]
        if entries is None:
            return [self.names[commands[action]]]
        width = len(before[self.game_view.grid][0])
        given = []
        for row, col in sorted(self.game_view.units(before, seat)):
            command = commands[action[entries[row * width + col]]]
            if command:                 # 0 is the no-op
                given.append(f"({row},{col}) {self.names[command]}")
        if len(given) > MAX_LISTED:
            given[MAX_LISTED:] = [f"+{len(given) - MAX_LISTED} more"]
        return given


def _digits(row):
    return "".join(str(int(v)) for v in row)


# -- paint_v0: each square's colour (0 neutral, -1 obstacle, p + 1 player p), avatars ------
def paint_view(s):
    return {"colour": [[int(v) for v in row] for row in s["colour"]],
            "avatars": [[int(r), int(c)] for r, c in s["positions"]]}


# -- dungeon_v0: (x, y) with y up, turned into rows from the top ---------------------------
def dungeon_view(s):
    height = len(s["tiles"])

    def cell(x, y):
        return [height - 1 - int(y), int(x)]

    return {"tiles": [_digits(row) for row in reversed(s["tiles"])],
            "players": [cell(p["x"], p["y"]) + [p["hp"], p["ammo"], p["power"], int(p["alive"])]
                        for p in s["players"]],
            "bombs": [cell(b["x"], b["y"]) + [b["owner"], b["fuse"]] for b in s["bombs"]],
            "fire": [cell(x, y) for x, y in s["fire"]],
            "ore": [cell(*key.split(",")) + [hp] for key, hp in s["ore_hp"].items()]}


# -- ants_v0: (x, y) = (col, row) ------------------------------------------------------------
def ants_view(s):
    return {"water": ["".join(ch if ch == CHAR_WATER else "." for ch in row)
                      for row in s["board"]],
            "hills": [[h["y"], h["x"], h["owner"], int(h["razed"])] for h in s["hills"]],
            "food": [[int(y), int(x)] for x, y, _ in s["food"]],
            "ants": [[a["y"], a["x"], a["owner"]] for a in s["ants"]],
            "stored": [int(v) for v in s["stored_food"]],
            "alive": [int(v) for v in s["alive"]]}


def ants_units(view, seat):
    return [(r, c) for r, c, owner in view["ants"] if owner == seat]


# -- coderunner_v0: (row, col); (-1, -1) for the dead ------------------------------------------
def coderunner_view(s):
    return {"board": list(s["board"]),
            "visited": [_digits(row) for row in s["visited"]],
            "runners": [[int(r), int(c), int(alive)]
                        for (r, c), alive in zip(s["runners"], s["runner_alive"])],
            "enemies": [[int(r), int(c), int(alive), int(trapped)] for (r, c), alive, trapped
                        in zip(s["enemies"], s["enemy_alive"], s["enemy_trapped"])]}


# -- towers_v0: x is the row, y the column; living units only ----------------------------------
def towers_view(s):
    return {"terrain": [row.replace(" ", "") for row in s["map"]],
            "bots": [[b["owner"], round(b["x"], POSITION_DIGITS), round(b["y"], POSITION_DIGITS),
                      b["hp"]] for b in s["bots"] if not b["dead"]],
            "towers": [[t["owner"], t["x"], t["y"], t["hp"]] for t in s["towers"]
                       if not t["dead"]],
            "turn_scores": [int(v) for v in s["turn_scores"]]}


def towers_units(view, seat):
    bots = {(math.floor(x), math.floor(y)) for owner, x, y, _ in view["bots"] if owner == seat}
    return bots | {(x, y) for owner, x, y, _ in view["towers"] if owner == seat}


VIEWS = {
    "paint_v0": GameView(paint_view, "colour"),
    "dungeon_v0": GameView(dungeon_view, "tiles"),
    "ants_v0": GameView(ants_view, "water", ants_units),
    "coderunner_v0": GameView(coderunner_view, "board"),
    "towers_v0": GameView(towers_view, "terrain", towers_units),
}
