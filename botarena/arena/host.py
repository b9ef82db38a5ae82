"""The host process of ``python:FILE[:CLASS]`` players: ``python -m botarena.arena.host``.

It loads the agent class from its file, builds its own one-env game of the match's env
id and config, and then, every turn, puts that game into the match's position
(``restore(snapshot)``) and asks the agent.  The match never runs the agent's code, and
never unpickles anything the host sends (the host answers in JSON).

The agent APIs:

- dungeon_v0 keeps the seed's: ``Agent(player_num, env)`` with ``next_move(game_state,
  player_state)`` returning one of ``'' u d l r p`` (``botarena.envs.dungeon.agents``).
- every other game: ``Agent(seat, env)`` with ``act(observation, action_mask, snapshot)``
  returning the seat's action as the game takes it (an int, or a command per cell as a
  list or array); ``observation`` and ``action_mask`` are the game's own for the seat,
  ``snapshot`` the game's ``snapshot()`` dict.  ``env`` has ``env_id``, ``config``,
  ``seat``, ``agents`` and ``seed``.

Wire format (match -> host): frames ``<length>\\n<pickle>``; the first holds the set-up
(``HELLO_KEYS``) and the first position, the next ones ``{"turn", "snapshot"}``.  The host
answers ``{"ready": true}`` once the agent is built and the game compiled (so the first
turn pays no compilation), then ``{"turn": t, "action": a}`` or ``{"turn": t, "error":
"..."}`` per turn, one JSON line each.  When several positions are waiting it answers
only the newest (a slow agent falls behind, it does not queue).  Whatever the agent
prints goes to stderr (the player's log), not to the match.
"""
import importlib.util
import json
import os
import pickle
import select
import sys
import traceback
from types import SimpleNamespace

import numpy as np

from ..registry import env_module

DUNGEON = "dungeon_v0"
HELLO_KEYS = ("env_id", "config", "seat", "agents", "seed", "file", "cls", "snapshot")
READ_CHUNK = 65536


class AgentLoadError(Exception):
    """An agent file that does not load or lacks its class or method."""


def load_class(path, name):
    """Class ``name`` of the Python file ``path`` (its folder importable while it loads)."""
    spec = importlib.util.spec_from_file_location("_botarena_agent", path)
    module = importlib.util.module_from_spec(spec)
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except Exception as err:
        raise AgentLoadError(f"agent file {path!r} failed to load: {type(err).__name__}: "
                             f"{err}") from None
    finally:
        sys.path.remove(folder)
    cls = getattr(module, name, None)
    if not callable(cls):
        raise AgentLoadError(f"agent file {path!r} defines no class {name}")
    return cls


class HostedAgent:
    """An agent class of ``file`` playing ``seat``: ``act(snapshot) -> action`` (what the
    host process runs; ``--in-process`` runs it in the match)."""

    def __init__(self, env_id, config, seat, agents, seed, file, cls, snapshot):
        module = env_module(env_id)
        self.env_id, self.seat = env_id, int(seat)
        if not isinstance(config, module.Config):
            config = module.Config(**config)
        self.game = module.Game(config, 1)
        self.game.reset(seed=seed)
        self.game.restore(snapshot, 0)
        agent_cls = load_class(file, cls)
        method = "next_move" if env_id == DUNGEON else "act"
        if not callable(getattr(agent_cls, method, None)):
            raise AgentLoadError(f"class {cls} of {file!r} has no {method} method")
        env = SimpleNamespace(env_id=env_id, config=self.game.config, seat=self.seat,
                              agents=list(agents), seed=seed, player_num=self.seat,
                              num_players=len(agents))
        self.agent = agent_cls(self.seat, env)
        self.act(snapshot)                     # compiles what the first turn needs

    def act(self, snapshot):
        """The agent's answer to the position ``snapshot`` (JSON-ready: an int or a list)."""
        game = self.game
        game.restore(snapshot, 0)
        if self.env_id == DUNGEON:
            from ..envs.dungeon.agents import action_index, make_states
            game_state, players = make_states(game)
            move = self.agent.next_move(game_state, players[self.seat])
            index = action_index(move)
            if index is None:
                raise ValueError(f"next_move returned {move!r}, not one of '' u d l r p")
            return index
        action = self.agent.act(game.obs[0, self.seat].copy(), game.masks[0, self.seat].copy(),
                                snapshot)
        return np.asarray(action).tolist()


class FrameReader:
    """Length-prefixed pickle frames from a file descriptor."""

    def __init__(self, fd):
        self.fd, self.buf, self.eof = fd, b"", False

    def _fill(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            chunk = os.read(self.fd, READ_CHUNK)
            self.eof = not chunk
            self.buf += chunk

    def _frame(self):
        head, newline, rest = self.buf.partition(b"\n")
        if not newline or len(rest) < int(head):
            return None
        size = int(head)
        self.buf = rest[size:]
        return pickle.loads(rest[:size])

    def next(self, newest=True):
        """The next frame (with ``newest``, the last of those already waiting); None at
        the end of the input."""
        frame = self._frame()
        while frame is None:
            if self.eof:
                return None
            self._fill(None)
            frame = self._frame()
        while newest:
            if not self.eof:
                self._fill(0.0)
            later = self._frame()
            if later is None:
                return frame
            frame = later
        return frame


def frame(obj):
    """``obj`` as one frame of the wire format."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return str(len(data)).encode() + b"\n" + data


def main():
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())     # the agent's prints go to the log

    def answer(reply):
        out.write(json.dumps(reply) + "\n")
        out.flush()

    reader = FrameReader(sys.stdin.fileno())
    hello = reader.next(newest=False)
    if hello is None:
        return 1
    try:
        agent = HostedAgent(**{key: hello[key] for key in HELLO_KEYS})
    except AgentLoadError as err:
        print(f"error: {err}", file=sys.stderr, flush=True)
        return 1
    except Exception:                         # noqa: BLE001 - the agent's set-up failed
        traceback.print_exc()
        return 1
    answer({"ready": True})
    while True:
        message = reader.next()
        if message is None:
            return 0
        try:
            answer({"turn": message["turn"], "action": agent.act(message["snapshot"])})
        except Exception as err:             # noqa: BLE001 - the agent's bug, reported
            answer({"turn": message["turn"], "error": f"{type(err).__name__}: {err}"})


if __name__ == "__main__":
    sys.exit(main())
