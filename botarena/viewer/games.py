"""What the web viewer draws of each game: a compact view of a snapshot, and the labels of
a turn's actions.

``VIEWS[env_id]`` is a ``GameView``: ``view(snapshot)`` (plain JSON values, as
``replay.plain`` makes them) keeps only what the page draws, in screen cells (``[row,
col]``, row 0 at the top; towers' unit positions are continuous), grids as strings of one
character a cell; ``labels(before, actions)`` names what each agent did in a turn
(``before``: the view of the position the turn was played in; in ants and towers, the
commands given to the agent's own units, in the game's ``(x, y)``).  The page's drawing
code (``viewer.js``) reads the same keys, one drawer per env id.
"""
import math
from dataclasses import dataclass
from typing import Callable

from ..envs.ants.constants import CHAR_WATER
from ..envs.ants.constants import COMMAND_NAMES as ANT_COMMANDS
from ..envs.ants.constants import Command as AntCommand
from ..envs.coderunner.constants import ACTION_NAMES as RUNNER_ACTIONS
from ..envs.dungeon.constants import Action as DungeonAction
from ..envs.paint.constants import Action as PaintAction
from ..envs.towers.constants import COMMAND_NAMES as TOWER_COMMANDS
from ..envs.towers.constants import FIRST_MOVE, NUM_PLAYERS, Command
from ..envs.towers.rules import view_direction, view_tile

MAX_LISTED = 12          # commands listed per agent and turn in per-cell games; then a count
POSITION_DIGITS = 2      # decimals kept of towers' continuous unit positions


@dataclass(frozen=True)
class GameView:
    view: Callable        # snapshot -> dict of what the page draws
    labels: Callable      # (view before the turn, actions of every agent) -> [[str]] per agent


def _named(names):
    """Labels of a game whose agents each play one action: its name."""
    return lambda before, actions: [[names[int(a)]] for a in actions]


def _listed(commands):
    """Labels of one agent's ``((x, y), name)`` commands (the game's own coordinates), at
    most ``MAX_LISTED``."""
    labels = [f"({x},{y}) {name}" for (x, y), name in commands[:MAX_LISTED]]
    if len(commands) > MAX_LISTED:
        labels.append(f"+{len(commands) - MAX_LISTED} more")
    return labels


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


def ants_labels(before, actions):
    width = len(before["water"][0])
    labels = []
    for agent, commands in enumerate(actions):
        own = [(r, c) for r, c, owner in before["ants"] if owner == agent]
        given = [((c, r), ANT_COMMANDS[commands[r * width + c]]) for r, c in own
                 if commands[r * width + c] != AntCommand.STAY]
        labels.append(_listed(given))
    return labels


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


def towers_labels(before, actions):
    size = len(before["terrain"])
    tiles = size * size
    labels = []
    for agent in range(NUM_PLAYERS):
        units = {(math.floor(x), math.floor(y)) for owner, x, y, _ in before["bots"]
                 if owner == agent}
        units |= {(x, y) for owner, x, y, _ in before["towers"] if owner == agent}
        given = []
        for x, y in sorted(units):
            command = int(actions[agent][view_tile.py_func(x * size + y, agent, tiles)])
            if command == Command.NOOP:
                continue
            if command < Command.BLAST:     # a move, turned into the absolute direction
                command = FIRST_MOVE + view_direction.py_func(command - FIRST_MOVE, agent)
            given.append(((x, y), TOWER_COMMANDS[command]))
        labels.append(_listed(given))
    return labels


VIEWS = {
    "paint_v0": GameView(paint_view, _named([a.name for a in PaintAction])),
    "dungeon_v0": GameView(dungeon_view, _named([a.name for a in DungeonAction])),
    "ants_v0": GameView(ants_view, ants_labels),
    "coderunner_v0": GameView(coderunner_view, _named(RUNNER_ACTIONS)),
    "towers_v0": GameView(towers_view, towers_labels),
}
