"""towers_v0's protocol (ours: the seed's bots are C++ classes run by the engine; this
mirrors its player-state API in JSON lines).

Every player sees the game as player 1 of the seed, from the top-left corner: positions
``[x, y]`` (``x`` down, ``y`` right) of player_1 are turned by half a turn, as the seed
does for its player 2.

1. ``{"player_id": k, "map_size": N, "map": [N rows of "L W F ..."], "turns": T}`` ->
   the bot answers ``{"ready": true}``.
2. Every turn: ``{"turn": t, "scores": [own, enemy], "bots": [...], "towers": [...],
   "enemy_bots": [...], "enemy_towers": [...]}``.  A bot is ``{"id", "position": [x, y],
   "hp", "state": "idle" | "move" | "blast" | "transform"}`` (own bots also
   ``"commandable"``); a tower ``{"id", "position": [x + 0.5, y + 0.5], "hp", "age"}``.
   The bot answers ``{"turn": t, "commands": [{"id": ID, "command": C}, ...]}``, ``C`` one
   of ``N NE E SE S SW W NW`` (move to the centre of that neighbouring tile; N is x - 1),
   ``blast`` or ``transform``.  The game takes one command a tile, for the oldest own bot
   there (``"commandable": true``) or the own tower: commands for other units, unknown ids
   and repeated tiles are ignored.  A reply with another ``turn`` is a late one: skipped.

Limits: the seed counts instructions (10 million a turn, 100 million a game); here they
are time: 1 s a turn (past it, the turn's commands are void: no-op), 10 s a game (past it,
the player loses the match, as the seed's game limit says).

The client (``TowersClient``) turns the map and the units back into the game's own frame
(player_1's by half a turn) and restores them: a moving bot's target is not sent (the
observation does not show it), nor the last turn's scores, which it counts as the game
does: the living units on flag tiles, bots and towers weighted by the config's
multipliers.
"""
import json

import numpy as np

from ...envs.towers.constants import COMMAND_NAMES, NUM_PLAYERS
from ..process import LINE, Limits
from . import FORFEIT, Client, Garbled, JsonReady, Protocol, Stale

TURN_S = 1.0
GAME_TURNS = 10              # the seed's game limit is 10 turn limits
START_S = 10.0
COMMAND_OF = {name: i for i, name in enumerate(COMMAND_NAMES) if i}
TOWER_COMMANDS = ("blast",)
TILE_MIDDLE = 0.5
FLAG = "F"                   # a flag tile's letter in the map rows


class TowersProtocol(JsonReady, Protocol):
    terminator = LINE
    nonce = True
    limits = Limits(turn_s=TURN_S, start_s=START_S, game_s=TURN_S * GAME_TURNS)
    on_game_limit = FORFEIT

    def _size(self):
        return self.game.config.map_size

    def _view(self, x, y):
        """A position as this player sees it."""
        n = self._size()
        return [n - x, n - y] if self.seat == 1 else [x, y]

    def _view_tile(self, x, y):
        n = self._size()
        return (n - 1 - x, n - 1 - y) if self.seat == 1 else (x, y)

    def hello(self, e):
        s = self.game.snapshot(e)
        rows = [row.split() for row in s["map"]]
        if self.seat == 1:
            rows = [row[::-1] for row in rows[::-1]]
        return json.dumps({"player_id": self.seat, "map_size": self._size(),
                           "map": [" ".join(row) for row in rows],
                           "turns": self.game.config.max_turns}) + "\n"

    def _units(self, e):
        """(bots, towers) living, as dicts of the snapshot."""
        s = self.game.snapshot(e)
        return ([b for b in s["bots"] if not b["dead"]],
                [t for t in s["towers"] if not t["dead"]], s)

    def _commandable(self, bots):
        """Ids of the own bots that take their tile's command (the oldest on each tile)."""
        first = {}
        for b in bots:
            if b["owner"] == self.seat:
                tile = (int(b["x"]), int(b["y"]))
                if tile not in first or b["id"] < first[tile]:
                    first[tile] = b["id"]
        return set(first.values())

    def message(self, e):
        bots, towers, s = self._units(e)
        ready = self._commandable(bots)
        me, enemy = self.seat, NUM_PLAYERS - 1 - self.seat

        def bot(b):
            d = {"id": b["id"], "position": self._view(b["x"], b["y"]), "hp": b["hp"],
                 "state": b["command"]}
            if b["owner"] == me:
                d["commandable"] = b["id"] in ready
            return d

        def tower(t):
            x, y = self._view_tile(t["x"], t["y"])
            return {"id": t["id"], "position": [x + TILE_MIDDLE, y + TILE_MIDDLE],
                    "hp": t["hp"], "age": t["age"]}

        state = {"turn": s["turn"], "scores": [int(s["scores"][me]), int(s["scores"][enemy])],
                 "bots": [bot(b) for b in bots if b["owner"] == me],
                 "towers": [tower(t) for t in towers if t["owner"] == me],
                 "enemy_bots": [bot(b) for b in bots if b["owner"] == enemy],
                 "enemy_towers": [tower(t) for t in towers if t["owner"] == enemy]}
        return json.dumps(state, separators=(",", ":")) + "\n"

    def parse(self, text, e):
        reply = self.reply_object(text)
        if reply.get("turn") != int(self.game.state.turn[e]):
            raise Stale(f"turn {reply.get('turn')!r} is not this turn's")
        commands = reply.get("commands", [])
        if not isinstance(commands, list):
            raise Garbled("commands must be a list")
        bots, towers, _ = self._units(e)
        ready = self._commandable(bots)
        tiles = {b["id"]: self._view_tile(int(b["x"]), int(b["y"]))
                 for b in bots if b["id"] in ready}
        tiles.update({t["id"]: self._view_tile(t["x"], t["y"])
                      for t in towers if t["owner"] == self.seat})
        grid, n, taken = self.noop(), self._size(), set()
        for item in commands:
            if not isinstance(item, dict):
                raise Garbled(f"a command must be an object, got {item!r}"[:80])
            unit, name = item.get("id"), item.get("command")
            if name not in COMMAND_OF:
                raise Garbled(f"unknown command {name!r}"[:80])
            tile = tiles.get(unit)
            if tile is None or tile in taken:
                continue
            is_tower = any(t["id"] == unit for t in towers)
            if is_tower and name not in TOWER_COMMANDS:
                continue
            taken.add(tile)
            grid[tile[0] * n + tile[1]] = COMMAND_OF[name]
        return grid


class TowersClient(Client):
    def __init__(self, env_id, config=None):
        super().__init__(env_id, config)
        self.seat = None
        self.map = None                 # the rows in the game's frame
        self.flags = set()              # its flag tiles (x, y)
        self.ids = {}                   # the own units' tiles as this player sees them -> id

    def _size(self):
        return self.game.config.map_size

    def _absolute(self, x, y):
        """A position of the message in the game's frame (its own inverse)."""
        n = self._size()
        return (n - x, n - y) if self.seat == 1 else (x, y)

    def _seen_tile(self, x, y):
        """The tile of the game's frame position (x, y) as this player sees it (the
        action grid's and the commands' frame)."""
        n, tile = self._size(), (int(np.floor(x)), int(np.floor(y)))
        return (n - 1 - tile[0], n - 1 - tile[1]) if self.seat == 1 else tile

    def start(self, lines):
        hello = json.loads(next(lines))
        self.seat = int(hello["player_id"])
        rows = [row.split() for row in hello["map"]]
        if self.seat == 1:
            rows = [row[::-1] for row in rows[::-1]]
        self.map = [" ".join(row) for row in rows]
        self.flags = {(x, y) for x, row in enumerate(rows) for y, letter in enumerate(row)
                      if letter == FLAG}
        self.game = self.make_game(board=self.map, map_size=int(hello["map_size"]),
                                   max_turns=int(hello["turns"]))
        return json.dumps({"ready": True}) + "\n"

    def read(self, lines):
        line = next(lines, None)
        return None if line is None else json.loads(line)

    def position(self, state):
        me, enemy = self.seat, NUM_PLAYERS - 1 - self.seat
        turn = state["turn"]
        scores = [0, 0]
        scores[me], scores[enemy] = state["scores"]
        self.ids = {}
        bots, towers = [], []
        for owner, key in ((me, "bots"), (enemy, "enemy_bots")):
            for b in state[key]:
                x, y = self._absolute(*b["position"])
                bots.append({"owner": owner, "id": b["id"], "x": x, "y": y, "hp": b["hp"],
                             "command": b["state"], "target_x": x, "target_y": y,
                             "dead": False})
                if b.get("commandable"):
                    self.ids[self._seen_tile(x, y)] = b["id"]
        for owner, key in ((me, "towers"), (enemy, "enemy_towers")):
            for t in state[key]:
                x, y = self._absolute(*t["position"])
                tile = (int(np.floor(x)), int(np.floor(y)))
                towers.append({"owner": owner, "id": t["id"], "x": tile[0], "y": tile[1],
                               "hp": t["hp"], "age": t["age"], "dead": False})
                if owner == me:
                    self.ids[self._seen_tile(*tile)] = t["id"]
        units = bots + towers
        self.game.restore({"map": self.map, "turn": turn, "scores": scores,
                           "turn_scores": self._turn_scores(bots, towers) if turn else [0, 0],
                           "bots": bots, "towers": towers,
                           "next_id": max((u["id"] for u in units), default=-1) + 1}, 0)
        return self.seat

    def _turn_scores(self, bots, towers):
        """Each player's last turn score: its living units on flag tiles, weighted."""
        config, scores = self.game.config, [0, 0]
        for units, points in ((bots, config.bot_score_multiplier),
                              (towers, config.tower_score_multiplier)):
            for u in units:
                if (int(u["x"]), int(u["y"])) in self.flags:
                    scores[u["owner"]] += points
        return scores

    def reply(self, action, state):
        n = self._size()
        commands = []
        for tile, unit in self.ids.items():
            command = int(action[tile[0] * n + tile[1]])
            if command:
                commands.append({"id": unit, "command": COMMAND_NAMES[command]})
        return json.dumps({"turn": state["turn"], "commands": commands}) + "\n"


PROTOCOL = TowersProtocol
CLIENT = TowersClient
