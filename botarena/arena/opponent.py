"""``python:`` and ``cmd:`` players as opponents of ``botarena.vector_env``.

``ArenaOpponent(spec, env_id)`` keeps one player (a host or program process) per (env,
seat) of the batched game, started when the seat first plays and again whenever its env
starts a new game; each ``act`` asks all of them at once, then reads every reply, under
the protocol's limits (a late or bad reply is the no-op).  ``close()`` ends every process
and reaps it; the vector env's ``close()`` calls it, and so does the interpreter's exit
for an env never closed.  Their stderr logs go to ``log_dir`` (a temporary folder by
default).
"""
import atexit
import os
import sys
import tempfile

from ..core import rng as rng_module
from .players import make_player
from .spec import parse_spec

MAX_PRINTED_WARNINGS = 20       # for all the opponent's seats together; the rest counted


class ArenaOpponent:
    def __init__(self, spec, env_id, seed=None, limits=None, log_dir=None):
        self.spec = parse_spec(spec)
        self.env_id = env_id
        self.seed = int(rng_module.fresh_seed() if seed is None else seed)
        self.limits = limits
        self.log_dir = log_dir or tempfile.mkdtemp(prefix="botarena-opponent-")
        self.players = {}               # (env, seat) -> (player, game number)
        self.games = 0
        self.warnings = 0
        atexit.register(self.close)

    def _warn(self, seat, text):
        self.warnings += 1
        if self.warnings <= MAX_PRINTED_WARNINGS:
            print(f"warning: opponent {self.spec.name}, seat {seat}: {text}", file=sys.stderr)

    def _player(self, game, e, a):
        entry = self.players.get((e, a))
        if entry is not None and not (game.state.steps[e] == 0 and entry[1] > 0):
            entry[1] += 1
            return entry[0]
        if entry is not None:
            entry[0].close()
        self.games += 1
        log = os.path.join(self.log_dir, f"env{e}.seat{a}.game{self.games}.log")
        player = make_player(self.spec, self.env_id, game, a, self.seed + self.games,
                             self._warn, log, self.limits)
        player.start(game, e)
        player.ready(game, e)
        self.players[(e, a)] = [player, 1]
        return player

    def act(self, game, env_ids, agent_ids, out):
        seats = [(int(e), int(a)) for e, a in zip(env_ids, agent_ids)]
        players = [self._player(game, e, a) for e, a in seats]
        for player, (e, _) in zip(players, seats):
            player.request(game, e)
        for i, (player, (e, _)) in enumerate(zip(players, seats)):
            out[i] = player.respond(game, e)
            if player.eliminated:
                player.eliminated = False
                player.protocol.eliminate(game, e)

    def close(self):
        for player, _ in self.players.values():
            player.close()
        self.players = {}
        atexit.unregister(self.close)

    def __repr__(self):
        return f"ArenaOpponent({self.spec.text!r})"
