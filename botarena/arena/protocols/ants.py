"""ants_v0's contest protocol: AntWars' text blocks (the original server's format).

Every message ends with a line holding only ``.``.  A block is a header line ``NAME
COUNT`` followed by COUNT lines.  Players are numbered from 1 (colony_0 is player 1, the
server's numbering); hills by their index among the dealt hills; ``x`` is the column and
``y`` the row (0 at the top).

- ``INIT``: ``SPAWN_INFO`` (the own player id, then ``hill_id owner x y`` per hill) and
  ``MAP`` (``W H``, then ``x y`` per water cell).  The bot answers ``.`` (an empty message).
- ``TURN <n>``: ``ALIVE_ANTS`` (``owner ant_id x y``), ``ALIVE_HILLS`` (ids of the hills
  not razed), ``FOOD`` (``x y`` per unit of food), ``FOOD_COUNT`` (the own stored food).
  The bot answers lines ``ant_id x y`` (the target: the ant's cell or one of its four
  neighbours) and ``.``.  A line that does not parse voids all that turn's commands;
  commands for other players' ants, repeated commands and other targets are ignored.

A bot that does not answer within 1000 ms, or dies, is eliminated (the seed's rule): it is
no longer asked, its ants and hills stay, and every colony still in scores as for any
elimination.
"""
from ...envs.ants.constants import COMMAND_DELTAS, WATER
from ..process import DOT, Limits
from . import ELIMINATE, Garbled, Protocol

REPLY_S = 1.0
COMMAND_OF = {(int(dx), int(dy)): c for c, (dx, dy) in enumerate(COMMAND_DELTAS)}
FIRST_PLAYER_ID = 1


def block(name, lines):
    return [f"{name} {len(lines)}"] + [str(line) for line in lines]


class AntsProtocol(Protocol):
    terminator = DOT
    limits = Limits(turn_s=REPLY_S, start_s=REPLY_S)
    on_failure = ELIMINATE

    def hello(self, e):
        s = self.game.snapshot(e)
        water = self.game.params.water
        height, width = water.shape
        hills = [f"{i} {h['owner'] + FIRST_PLAYER_ID} {h['x']} {h['y']}"
                 for i, h in enumerate(s["hills"])]
        cells = [f"{x} {y}" for y, x in zip(*(water == WATER).nonzero())]
        lines = (["INIT"] + block("SPAWN_INFO", [self.seat + FIRST_PLAYER_ID] + hills)
                 + block("MAP", [f"{width} {height}"] + cells) + ["."])
        return "\n".join(lines) + "\n"

    def check_hello(self, text):
        return text.strip() == ""

    def message(self, e):
        s = self.game.snapshot(e)
        ants = [f"{a['owner'] + FIRST_PLAYER_ID} {a['id']} {a['x']} {a['y']}" for a in s["ants"]]
        standing = [i for i, h in enumerate(s["hills"]) if not h["razed"]]
        food = [f"{x} {y}" for x, y, count in s["food"] for _ in range(count)]
        lines = ([f"TURN {s['turn']}"] + block("ALIVE_ANTS", ants) + block("ALIVE_HILLS", standing)
                 + block("FOOD", food) + block("FOOD_COUNT", [int(s["stored_food"][self.seat])])
                 + ["."])
        return "\n".join(lines) + "\n"

    def parse(self, text, e):
        commands = []
        for line in text.splitlines():
            parts = line.split()
            if not parts:
                continue
            try:
                commands.append(tuple(int(p) for p in parts) if len(parts) == 3 else None)
            except ValueError:
                commands.append(None)
            if commands[-1] is None:
                raise Garbled(f"line {line[:40]!r} is not 'ant_id x y': no command this turn")
        s = self.game.snapshot(e)
        width = self.game.params.water.shape[1]
        mine = {a["id"]: (a["x"], a["y"]) for a in s["ants"] if a["owner"] == self.seat}
        grid = self.noop()
        done = set()
        for ant, x, y in commands:
            if ant not in mine or ant in done:
                continue
            done.add(ant)
            ax, ay = mine[ant]
            command = COMMAND_OF.get((x - ax, y - ay))
            if command is not None:
                grid[ay * width + ax] = command
        return grid

    def eliminate(self, game, e):
        s = game.snapshot(e)
        if not s["alive"][self.seat]:
            return
        max_turns = game.config.max_turns
        s["alive"][self.seat] = False
        s["elim_turn"][self.seat] = min(s["turn"] + 1, max_turns)
        s["scores"][s["alive"]] += game.config.survive_points
        s["over"] = bool(s["alive"].sum() <= 1)
        game.restore(s, e)


PROTOCOL = AntsProtocol
