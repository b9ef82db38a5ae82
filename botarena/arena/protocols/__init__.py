"""The contest protocols, one module per game; ``protocol_class(env_id)`` finds one.

A protocol turns env ``e`` of a batched game into the messages one seat's program reads,
and that program's replies into the game's action for the seat.  It only reads the game.

``Protocol(game, seat, names)``:

- ``terminator``: how a reply ends (``process.LINE`` or ``process.DOT``);
- ``limits``: the contest's default ``Limits``; ``nonce``: replies carry the turn they
  answer (a late reply is recognised and skipped), else buffered replies are dropped
  before each message;
- ``hello(e)`` the first message (or None); ``hello_reply``: whether the program answers
  it, and ``check_hello(text)`` whether that answer is the expected one;
- ``message(e)``: the turn's message; ``parse(text, e)``: the action, or raises
  ``Garbled`` (the turn's no-op) or ``Stale`` (a reply to an earlier turn: read on);
- ``goodbye(e)``: a last message once the game ends (or None);
- ``on_failure``: what a timeout or a crash does: ``NOOP`` (the turn's no-op; a crashed
  bot plays no-ops to the end) or ``ELIMINATE`` (the contest takes the bot out:
  ``eliminate(game, e)`` applies it);
- ``on_game_limit``: what spending the game's time budget does: ``NOOP`` (the bot is
  stopped and plays no-ops to the end) or ``FORFEIT`` (the match ends, the bot loses).

``Client(env_id, config)`` is the program's side of the same wire format, what an
exported bot (``export``) runs: ``start(lines)`` reads the first message from an iterator
of input lines and returns the answer's text (or None), ``read(lines)`` the next turn's
message (None once the game is over), ``position(message)`` puts the client's own one-env
``game`` into the position the message describes (``restore``) and returns the seat, so
that botarena's own encoder gives the seat's observation and mask; ``reply(action,
message)`` is the answer's text.  What a message leaves out and the observation shows
(countdowns, who has visited a cell) the client keeps from the earlier messages.
``config`` holds the Config fields of the game as the policy was trained (``view``,
``obs_dtype``, ``mirror``) and the contest's settings no message carries; each message's
own (board, number of turns) override them.
"""
import json
from importlib import import_module

from ...registry import env_module
from ..process import LINE, Limits

NOOP, ELIMINATE, FORFEIT = "noop", "eliminate", "forfeit"
MODULES = {"paint_v0": "paint", "ants_v0": "ants", "coderunner_v0": "coderunner",
           "towers_v0": "towers"}


class Garbled(ValueError):
    """A reply that is not a valid answer: the turn's no-op, with a warning."""


class Stale(ValueError):
    """A reply to an earlier turn: skipped, the next one is read."""


class Protocol:
    terminator = LINE
    nonce = False
    hello_reply = True
    limits = Limits()
    on_failure = NOOP
    on_game_limit = NOOP

    def __init__(self, game, seat, names):
        self.game, self.seat, self.names = game, seat, list(names)

    def noop(self):
        """The game's no-op for this seat (0 everywhere)."""
        return self.game.actions[0, self.seat] * 0

    def hello(self, e):
        return None

    def check_hello(self, text):
        return True

    def message(self, e):
        raise NotImplementedError

    def parse(self, text, e):
        raise NotImplementedError

    def goodbye(self, e):
        return None

    def eliminate(self, game, e):
        """Take this seat out of env ``e`` (protocols with ``ELIMINATE`` only)."""
        raise NotImplementedError


class JsonReady:
    """What the JSON-lines protocols share: the bot answers hello with ``{"ready": true}``
    (``check_hello``), and each reply is one JSON object (``reply_object``)."""

    @staticmethod
    def reply_object(text):
        """``text`` as a JSON object (a dict), else ``Garbled`` saying why."""
        try:
            reply = json.loads(text)
        except ValueError:
            raise Garbled("not JSON") from None
        if not isinstance(reply, dict):
            raise Garbled("not a JSON object")
        return reply

    def check_hello(self, text):
        try:
            return json.loads(text) == {"ready": True}
        except ValueError:
            return False


class Client:
    def __init__(self, env_id, config=None):
        self.module = env_module(env_id)
        self.config = dict(config or {})
        self.game = None

    def make_game(self, **fields):
        """A one-env game of the client's config with ``fields`` over it, reset (which
        compiles it before the first turn)."""
        game = self.module.Game(self.module.Config(**{**self.config, **fields}), 1)
        game.reset(seed=0)
        return game

    def start(self, lines):
        raise NotImplementedError

    def read(self, lines):
        """The next message: one line by default (None at the end of the input)."""
        return next(lines, None)

    def position(self, message):
        raise NotImplementedError

    def reply(self, action, message):
        raise NotImplementedError


def protocol_class(env_id):
    """The contest protocol of ``env_id``; ``ValueError`` for a game without one."""
    if env_id not in MODULES:
        raise ValueError(f"{env_id} has no contest text protocol: its programs are Python "
                         "agents (python:FILE), see docs/arena.md")
    return import_module(f"{__name__}.{MODULES[env_id]}").PROTOCOL


def client_class(env_id):
    """The program's side of ``env_id``'s protocol (see ``Client``)."""
    protocol_class(env_id)
    return import_module(f"{__name__}.{MODULES[env_id]}").CLIENT
