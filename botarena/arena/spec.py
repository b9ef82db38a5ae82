"""Player specs: one string names who plays a seat, in every command and in
``botarena.vector_env(..., opponent=...)``.

- ``bot:NAME``: a scripted bot of the game (``game.bots``), run in the match process.
- ``policy:PATH``: a trained SB3 model (a ``.zip`` saved by ``botarena.training.ppo``),
  masked and deterministic, run in the match process.
- ``rllib:PATH``: an RLlib checkpoint folder (``python -m botarena.training.rllib`` saves
  ``OUT/checkpoint``), its learner module masked and deterministic, run in the match
  process (needs the ``rllib`` extra).
- ``python:FILE[:CLASS]``: a Python agent class (``CLASS`` defaults to ``Agent``), run in a
  host process of its own (``botarena.arena.host``).
- ``cmd:PROGRAM ARGS``: an external program speaking the game's contest protocol on its
  stdin / stdout (split as a shell would split it, e.g. ``cmd:"./mybot --fast"``).

A person at the keyboard (``botarena.play``) plays a seat as kind ``HUMAN``, which no spec
string names.

``parse_spec(text)`` returns a ``PlayerSpec`` or raises ``SpecError`` (a ``ValueError``)
saying what is wrong: an unknown kind, a missing file, an empty command.
"""
import os
import shlex
from dataclasses import dataclass

KINDS = ("bot", "policy", "rllib", "python", "cmd")
HUMAN = "human"
DEFAULT_CLASS = "Agent"


class SpecError(ValueError):
    """A player spec that does not name a player."""


@dataclass(frozen=True)
class PlayerSpec:
    """``kind`` (one of ``KINDS``, or ``HUMAN``), ``target`` (the bot name, the model or agent file, or
    the command's argv as a tuple), ``cls`` (python: the class name), ``text`` (as given)."""
    kind: str
    target: object
    text: str
    cls: str = DEFAULT_CLASS

    @property
    def name(self):
        """A short name for tables and logs."""
        if self.kind in ("bot", HUMAN):
            return self.text
        if self.kind == "cmd":
            return "cmd:" + os.path.basename(self.target[0])
        base = os.path.splitext(os.path.basename(self.target))[0]
        suffix = f":{self.cls}" if self.kind == "python" and self.cls != DEFAULT_CLASS else ""
        return f"{self.kind}:{base}{suffix}"

    @property
    def runs_in_process(self):
        """bot:, policy: and rllib: players (and a person) run inside the match; python:
        and cmd: never do."""
        return self.kind in ("bot", "policy", "rllib", HUMAN)


def _existing_file(path, what, text):
    if not path:
        raise SpecError(f"player {text!r}: give a {what} path after the colon")
    if not os.path.isfile(path):
        raise SpecError(f"player {text!r}: {what} {path!r} not found")
    return os.path.abspath(path)


def parse_spec(text):
    """The ``PlayerSpec`` that ``text`` names (see the module doc)."""
    if isinstance(text, PlayerSpec):
        return text
    if not isinstance(text, str):
        raise SpecError(f"a player spec is a string like 'bot:greedy', got {text!r}")
    kind, colon, rest = text.partition(":")
    if not colon or kind not in KINDS:
        raise SpecError(f"player {text!r}: a spec starts with one of "
                        f"{', '.join(k + ':' for k in KINDS)} (e.g. bot:greedy)")
    if kind == "bot":
        if not rest:
            raise SpecError(f"player {text!r}: give the bot's name, e.g. bot:greedy")
        return PlayerSpec("bot", rest, text)
    if kind == "policy":
        return PlayerSpec("policy", _existing_file(rest, "model file", text), text)
    if kind == "rllib":
        if not rest or not os.path.isdir(rest):
            raise SpecError(f"player {text!r}: give an RLlib checkpoint folder after the colon"
                            + (f" ({rest!r} is not a folder)" if rest else ""))
        return PlayerSpec("rllib", os.path.abspath(rest), text)
    if kind == "python":
        path, cls = rest, DEFAULT_CLASS
        head, sep, tail = rest.rpartition(":")
        if sep and head and tail.isidentifier():
            path, cls = head, tail
        return PlayerSpec("python", _existing_file(path, "agent file", text), text, cls)
    try:
        argv = tuple(shlex.split(rest))
    except ValueError as err:
        raise SpecError(f"player {text!r}: can't split the command: {err}") from None
    if not argv:
        raise SpecError(f"player {text!r}: give the program to run, e.g. cmd:\"./mybot\"")
    return PlayerSpec("cmd", argv, text)
