"""Dungeon replays: JSON lines that reproduce a game exactly through the deterministic core.

Lines (each a JSON object with ``type``):

``header``  ``format`` ("botarena-dungeon-replay"), ``version``, ``env``, ``config`` (every
            ``Config`` field), ``seed`` (the reset seed), ``agents`` (names), ``hash``
``tick``    ``tick`` (the game's tick after it), ``actions`` (one of '' u d l r p per player),
            ``hash``
``restart`` ``seed`` (a new map: interactive R), ``hash``
``end``     ``result`` (see ``runner.result_of``)

The hashes form a chain: each is the SHA-256 of the previous hash, the line's own content
and a canonical JSON of ``DungeonGame.snapshot()`` after it (the header's starts from the
config, the seed and the first snapshot).  ``verify`` / ``play`` replays the actions and
recomputes the chain, so a changed action, snapshot hash, seed or config is detected at the
first line that differs.
"""
import dataclasses
import hashlib
import json

import numpy as np

from .agents import ACTION_INDEX
from .config import Config
from .game import DungeonGame

FORMAT = "botarena-dungeon-replay"
VERSION = 1


class ReplayError(Exception):
    """A replay that doesn't parse or doesn't reproduce (tampered, or another core)."""


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, dict):
        return {(",".join(str(int(x)) for x in k) if isinstance(k, tuple) else str(k)): _plain(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def canonical_snapshot(snapshot):
    """The snapshot as canonical JSON text (sorted keys, plain lists)."""
    return json.dumps(_plain(snapshot), sort_keys=True, separators=(",", ":"))


def snapshot_hash(snapshot):
    return hashlib.sha256(canonical_snapshot(snapshot).encode()).hexdigest()


def chain(prev, content, snapshot):
    """The next hash of the chain: previous hash, the line's content, the snapshot."""
    h = hashlib.sha256()
    h.update(prev.encode())
    h.update(json.dumps(content, sort_keys=True, separators=(",", ":")).encode())
    h.update(snapshot_hash(snapshot).encode())
    return h.hexdigest()


def config_dict(config):
    return _plain(dataclasses.asdict(config))


def config_from(d):
    d = dict(d)
    if isinstance(d.get("board"), list):
        d["board"] = [str(r) for r in d["board"]]
    return Config(**d)


class Recorder:
    """Writes a replay while a runner plays (``runner.Runner(record=path)``)."""

    def __init__(self, path, config, seed, agents, snapshot):
        self.file = open(path, "w", encoding="utf-8")
        header = {"type": "header", "format": FORMAT, "version": VERSION, "env": "dungeon_v0",
                  "config": config_dict(config), "seed": int(seed), "agents": list(agents)}
        self.hash = chain("", _content(header), snapshot)
        header["hash"] = self.hash
        self._write(header)

    def _write(self, line):
        self.file.write(json.dumps(line, separators=(",", ":")) + "\n")

    def tick(self, tick, actions, snapshot):
        line = {"type": "tick", "tick": int(tick), "actions": list(actions)}
        self.hash = chain(self.hash, _content(line), snapshot)
        line["hash"] = self.hash
        self._write(line)

    def restart(self, seed, snapshot):
        line = {"type": "restart", "seed": int(seed)}
        self.hash = chain(self.hash, _content(line), snapshot)
        line["hash"] = self.hash
        self._write(line)

    def end(self, result):
        self._write({"type": "end", "result": _plain(result)})
        self.close()

    def close(self):
        if not self.file.closed:
            self.file.close()


def _content(line):
    return {k: v for k, v in line.items() if k != "hash"}


def load(path):
    """(header, lines after it) of a replay file; ``ReplayError`` if it doesn't parse."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [json.loads(t) for t in f if t.strip()]
    except (OSError, ValueError) as err:
        raise ReplayError(f"can't read replay {path!r}: {err}") from None
    if not lines or not isinstance(lines[0], dict) or lines[0].get("type") != "header" \
            or lines[0].get("format") != FORMAT:
        raise ReplayError(f"{path!r} is not a dungeon replay (no header line)")
    if lines[0].get("version") != VERSION:
        raise ReplayError(f"replay version {lines[0].get('version')} is not {VERSION}")
    return lines[0], lines[1:]


def play(path, verify=True, on_tick=None):
    """Replay a file; returns ``(game, header, recorded_result)``.

    ``on_tick(game)`` is called after the reset and after every line.  With ``verify``
    every hash of the chain is recomputed; a mismatch raises ``ReplayError`` naming the line.
    """
    header, lines = load(path)
    try:
        config = config_from(header["config"])
        seed = int(header["seed"])
    except (KeyError, TypeError, ValueError) as err:
        raise ReplayError(f"bad replay header: {err}") from None
    game = DungeonGame(config, 1)
    game.reset(seed=seed)
    h = chain("", _content(header), game.snapshot()) if verify else None
    if verify and h != header.get("hash"):
        raise ReplayError("header: hash mismatch (config, seed or first map differ)")
    if on_tick is not None:
        on_tick(game)
    result = None
    actions = np.zeros((1, game.num_agents), dtype=np.int64)
    for number, line in enumerate(lines, start=2):
        kind = line.get("type") if isinstance(line, dict) else None
        if kind == "tick":
            moves = line.get("actions")
            if not isinstance(moves, list) or len(moves) != game.num_agents \
                    or any(m not in ACTION_INDEX for m in moves):
                raise ReplayError(f"line {number}: bad actions {moves!r}")
            if game.over[0]:
                raise ReplayError(f"line {number}: a tick after the game's end")
            actions[0] = [ACTION_INDEX[m] for m in moves]
            game.step(actions)
            if int(game.state.tick[0]) != line.get("tick"):
                raise ReplayError(f"line {number}: tick {line.get('tick')} but the game is at "
                                  f"tick {int(game.state.tick[0])}")
        elif kind == "restart":
            game.reset(seed=int(line["seed"]))
        elif kind == "end":
            result = line.get("result")
            continue
        else:
            raise ReplayError(f"line {number}: unknown line type {kind!r}")
        if verify:
            h = chain(h, _content(line), game.snapshot())
            if h != line.get("hash"):
                raise ReplayError(f"line {number} ({kind} {line.get('tick', '')}): hash "
                                  "mismatch, the replay does not reproduce")
        if on_tick is not None:
            on_tick(game)
    return game, header, result
