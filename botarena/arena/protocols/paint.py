"""paint_v0's contest protocol: one JSON object a line on stdin / stdout (the seed's).

1. ``{"player_id": "player_0"}`` -> the bot answers ``{"ready": true}`` within 5 s
   (start-up included).
2. Every turn, the state: ``width``, ``height``, ``player_positions`` (``{id: [row,
   col]}``), ``colors`` (rows of ids or ``null``), ``turns_left``, ``previous_actions``
   (one ``{id: action}`` per earlier turn; a player that stayed is ``null``) and, on boards
   with obstacles, ``obstacles`` (``[[row, col], ...]``, squares nobody enters or paints;
   ``null`` in ``colors``).  The bot answers within 0.5 s
   ``{"turns_left": n, "type": "walk" | "shoot", "direction": [d_row, d_col]}``, one of
   the 8 directions.  A reply whose ``turns_left`` is not the turn's is a late one: it is
   skipped.  A timeout, a crash or an invalid reply: the player stays that turn.
   Staying is not a move of the seed's; ours (the game's no-op) is a walk of
   ``[0, 0]``, taken without a warning.

The client (``PaintClient``) rebuilds the board from each state: ``colors`` and
``obstacles`` the colours, ``turns_left`` and the length of ``previous_actions`` the turn
and the game's length; ``player_id`` among the keys of ``player_positions`` is the seat.
"""
import json

import numpy as np

from ...core.grid import DIRECTIONS
from ...envs.paint.constants import FIRST_SHOOT, FIRST_WALK, NEUTRAL, OBSTACLE
from ..process import LINE, Limits
from . import Client, Garbled, JsonReady, Protocol, Stale

READY_S = 5.0
TURN_S = 0.5
DIRECTION_INDEX = {(int(dr), int(dc)): i for i, (dr, dc) in enumerate(DIRECTIONS)}
NUM_DIRECTIONS = len(DIRECTIONS)
STAY = {"type": "walk", "direction": [0, 0]}     # our no-op: a walk nowhere
STAY_ACTION = 0


def action_json(action):
    """The seed's ``{"type", "direction"}`` of a paint action (None for staying)."""
    action = int(action)
    if action < FIRST_WALK:
        return None
    kind = "walk" if action < FIRST_SHOOT else "shoot"
    d = (action - FIRST_WALK) % NUM_DIRECTIONS
    return {"type": kind, "direction": [int(x) for x in DIRECTIONS[d]]}


class PaintProtocol(JsonReady, Protocol):
    terminator = LINE
    nonce = True
    limits = Limits(turn_s=TURN_S, start_s=READY_S)

    def __init__(self, game, seat, names):
        super().__init__(game, seat, names)
        self.history = []

    def hello(self, e):
        return json.dumps({"player_id": self.names[self.seat]}) + "\n"

    def state(self, e):
        """The turn's state as a dict (the message, before JSON)."""
        s = self.game.snapshot(e)
        names = self.names
        if s["steps"] == 0:
            self.history = []
        elif len(self.history) < s["steps"]:
            actions = self.game.actions[e]
            self.history.append({names[a]: action_json(actions[a]) for a in range(len(names))})
        colour = s["colour"]
        colors = [[names[c - 1] if c > NEUTRAL else None for c in row] for row in colour.tolist()]
        state = {"width": int(colour.shape[1]), "height": int(colour.shape[0]),
                 "player_positions": {names[a]: [int(r), int(c)]
                                      for a, (r, c) in enumerate(s["positions"])},
                 "colors": colors, "turns_left": s["turns_left"],
                 "previous_actions": self.history}
        obstacles = [[int(r), int(c)] for r, c in zip(*(colour == OBSTACLE).nonzero())]
        if obstacles:
            state["obstacles"] = obstacles
        return state

    def message(self, e):
        return json.dumps(self.state(e), separators=(",", ":")) + "\n"

    def parse(self, text, e):
        reply = self.reply_object(text)
        if reply.get("turns_left") != int(self.game.state.turns_left[e]):
            raise Stale(f"turns_left {reply.get('turns_left')!r} is not this turn's")
        kind, direction = reply.get("type"), reply.get("direction")
        if {key: reply.get(key) for key in STAY} == STAY:
            return STAY_ACTION
        if kind not in ("walk", "shoot"):
            raise Garbled(f"type must be walk or shoot, got {kind!r}")
        if not (isinstance(direction, list) and len(direction) == 2
                and all(type(x) is int for x in direction)
                and tuple(direction) in DIRECTION_INDEX):
            raise Garbled(f"direction must be one of the 8 [d_row, d_col], got {direction!r}")
        first = FIRST_WALK if kind == "walk" else FIRST_SHOOT
        return first + DIRECTION_INDEX[tuple(direction)]




class PaintClient(Client):
    def __init__(self, env_id, config=None):
        super().__init__(env_id, config)
        self.player_id = None
        self.games = {}                       # one game a board: size, players and length

    def start(self, lines):
        self.player_id = json.loads(next(lines))["player_id"]
        self.make_game()                      # compiles before the first turn
        return json.dumps({"ready": True}) + "\n"

    def read(self, lines):
        line = next(lines, None)
        return None if line is None else json.loads(line)

    def position(self, state):
        names = list(state["player_positions"])
        colour = np.zeros((state["height"], state["width"]), dtype=np.int16)
        for r, row in enumerate(state["colors"]):
            for c, owner in enumerate(row):
                if owner is not None:
                    colour[r, c] = names.index(owner) + 1
        for r, c in state.get("obstacles", []):
            colour[r, c] = OBSTACLE
        played = len(state["previous_actions"])
        board = {"board": "random", "width": state["width"], "height": state["height"],
                 "num_players": len(names), "max_turns": state["turns_left"] + played}
        key = tuple(sorted(board.items()))
        if key not in self.games:
            self.games[key] = self.make_game(**board)
        self.game = self.games[key]
        positions = np.array([state["player_positions"][n] for n in names], dtype=np.int16)
        self.game.restore({"colour": colour, "positions": positions,
                           "turns_left": state["turns_left"], "steps": played, "over": False}, 0)
        return names.index(self.player_id)

    def reply(self, action, state):
        reply = {"turns_left": state["turns_left"]}
        reply.update(action_json(action) or STAY)
        return json.dumps(reply) + "\n"


PROTOCOL = PaintProtocol
CLIENT = PaintClient
