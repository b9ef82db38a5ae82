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

A bot that does not answer a turn within 1000 ms (the first exchange, start-up included:
10 s), or dies, is eliminated (the seed's rule): it is
no longer asked, its ants and hills stay, and every colony still in scores as for any
elimination.

The client (``AntsClient``) builds its map from ``INIT`` (water, the dealt hills with
their owners) and each turn's position from the blocks: the ants with their ids, the
hills (razed: not alive), the food.  The messages leave out what the own colony's
observation does not show (other colonies' food and scores) but for the number of
colonies still in: a colony counts as in while it has an ant or a standing hill (exact
with two colonies, where an elimination ends the game), and out for good once it had
neither.  The number of turns is not sent either: the client takes ``max_turns`` from its
config (the contest's 300 by default).
"""
from ...envs.ants.constants import CHAR_HILLS, CHAR_LAND, CHAR_WATER, COMMAND_DELTAS, WATER
from ..process import DOT, Limits
from . import ELIMINATE, Client, Garbled, Protocol

REPLY_S = 1.0
# The seed's 1000 ms is for a turn's commands; it gives no limit for the start.  A bot's
# start-up (a Python bot importing numpy, a JVM) rarely fits in 1 s, so the first exchange,
# INIT and its answer, start-up included, gets what the other games' first exchange gets.
START_S = 10.0
COMMAND_OF = {(int(dx), int(dy)): c for c, (dx, dy) in enumerate(COMMAND_DELTAS)}
FIRST_PLAYER_ID = 1


def block(name, lines):
    return [f"{name} {len(lines)}"] + [str(line) for line in lines]


class AntsProtocol(Protocol):
    terminator = DOT
    limits = Limits(turn_s=REPLY_S, start_s=START_S)
    on_failure = ELIMINATE

    def hello(self, e):
        s = self.game.snapshot(e)
        water = self.game.map.water
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
        width = self.game.map.water.shape[1]
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


END = "."


def blocks(lines):
    """``{NAME: [lines]}`` of a message's blocks (after its first line)."""
    out, i = {}, 0
    while i < len(lines):
        name, count = lines[i].split()
        out[name] = lines[i + 1:i + 1 + int(count)]
        i += 1 + int(count)
    return out


class AntsClient(Client):
    def __init__(self, env_id, config=None):
        super().__init__(env_id, config)
        self.seat = None
        self.hills = []                 # [(owner, x, y)] in hill-id order
        self.out = set()                # colonies known to be out
        self.mine = []                  # the own ants of the last position

    def read(self, lines):
        """One message: its lines up to the ``.`` line (None at the end of the input)."""
        message = []
        for line in lines:
            line = line.strip()
            if line == END:
                return message
            if line:
                message.append(line)
        return None

    def start(self, lines):
        message = self.read(lines)
        info = blocks(message[1:])
        spawn, board = info["SPAWN_INFO"], info["MAP"]
        self.seat = int(spawn[0]) - FIRST_PLAYER_ID
        for line in spawn[1:]:
            _, owner, x, y = (int(v) for v in line.split())
            self.hills.append((owner - FIRST_PLAYER_ID, x, y))
        width, height = (int(v) for v in board[0].split())
        rows = [[CHAR_LAND] * width for _ in range(height)]
        for line in board[1:]:
            x, y = (int(v) for v in line.split())
            rows[y][x] = CHAR_WATER
        for owner, x, y in self.hills:
            rows[y][x] = CHAR_HILLS[owner]
        owners = [owner for owner, _, _ in self.hills]
        self.game = self.make_game(board=["".join(r) for r in rows],
                                   num_players=max(owners) + 1,
                                   hills_per_player=max(owners.count(o) for o in set(owners)))
        return END + "\n"

    def position(self, message):
        turn = int(message[0].split()[1])
        info = blocks(message[1:])
        ants = []
        for line in info["ALIVE_ANTS"]:
            owner, ant, x, y = (int(v) for v in line.split())
            ants.append({"owner": owner - FIRST_PLAYER_ID, "id": ant, "x": x, "y": y})
        standing = {int(h) for h in info["ALIVE_HILLS"]}
        food = {}
        for line in info["FOOD"]:
            cell = tuple(int(v) for v in line.split())
            food[cell] = food.get(cell, 0) + 1
        game = self.game
        players, max_turns = game.num_agents, game.config.max_turns
        for a in range(players):
            if not any(x["owner"] == a for x in ants) and not any(
                    owner == a and h in standing for h, (owner, _, _) in enumerate(self.hills)):
                self.out.add(a)
        alive = [a not in self.out for a in range(players)]
        self.mine = [ant for ant in ants if ant["owner"] == self.seat]
        stored = [0] * players
        stored[self.seat] = int(info["FOOD_COUNT"][0])
        game.restore({
            "turn": turn, "ants": ants, "over": False,
            "next_ant_id": max((x["id"] for x in ants), default=-1) + 1,
            "hills": [{"owner": owner, "x": x, "y": y, "razed": h not in standing}
                      for h, (owner, x, y) in enumerate(self.hills)],
            "food": [(x, y, count) for (x, y), count in food.items()],
            "stored_food": stored, "scores": [0] * players, "alive": alive,
            "elim_turn": [max_turns + 1 if live else max(turn, 1) for live in alive]}, 0)
        return self.seat

    def reply(self, action, message):
        width = self.game.width
        lines = [f"{ant['id']} {ant['x'] + COMMAND_DELTAS[c, 0]} {ant['y'] + COMMAND_DELTAS[c, 1]}"
                 for ant in self.mine for c in [int(action[ant["y"] * width + ant["x"]])] if c]
        return "\n".join(lines + [END]) + "\n"


PROTOCOL = AntsProtocol
CLIENT = AntsClient
