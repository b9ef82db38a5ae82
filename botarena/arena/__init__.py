"""The arena: scripted bots, trained policies, Python agents and contest programs meet in
every game, the programs over their contests' own protocols.

- ``spec``: one player spec string (``bot:NAME``, ``policy:PATH``, ``python:FILE[:CLASS]``,
  ``cmd:"PROGRAM ARGS"``), also taken by ``botarena.vector_env(..., opponent=...)``;
- ``protocols``: each game's contest protocol (paint's JSON lines, AntWars' blocks ending
  in ``.``, CodeRunner's ICPC 2013 turns, towers' JSON lines of ours); dungeon's agents
  keep the seed's Python API, run by ``host``;
- ``process``: a bot in its own process group, with per-turn, per-game, message-size and
  memory limits; ``players``: what plays a seat;
- ``match``: ``play(env_id, players, ...)``; ``tournament``: round robins and ratings;
  ``export``: a trained policy as a standalone contest bot, and its check;
- ``cli``: the ``botarena`` command (``python -m botarena.arena``).

The user's page is ``docs/arena.md``.
"""


def play(env_id, players, **kwargs):
    """One game between ``players`` (see ``match.play``)."""
    from .match import play as play_match
    return play_match(env_id, players, **kwargs)


def parse_spec(text):
    """The ``PlayerSpec`` of ``text`` (see ``spec.parse_spec``)."""
    from .spec import parse_spec as parse
    return parse(text)
