"""Replays of every game: JSON lines that reproduce a game exactly through the core.

Lines (each a JSON object with ``type``):

``header``  ``format`` ("botarena-replay"), ``version``, ``env`` (env id), ``botarena``
            (the package version that wrote it), ``config`` (every ``Config`` field),
            ``seed`` (the reset seed), ``agents`` (names of who played each seat),
            ``every`` (a full snapshot every that many turns), ``snapshot``, ``hash``
``turn``    ``turn`` (turns played after it), ``actions`` (one per agent, as the game
            takes them: an int, or a list of a command per cell), ``hash``; every
            ``every`` turns also ``snapshot`` (``snapshot()`` as plain JSON: a viewer can
            jump there)
``reset``   ``seed`` (a new game), ``snapshot``, ``hash``
``end``     ``result`` (scores, and what the writer adds)

The hashes form a chain: each is the SHA-256 of the previous hash, the line's own content
(without ``hash`` and ``snapshot``) and the canonical JSON of the game's ``snapshot()``
after it.  ``play`` replays the actions and recomputes the chain, so a changed action,
seed, config or snapshot hash is found at the first line that differs.

``Recorder`` writes a replay line by line; ``RecordingEnv(env, path)`` records every game
played through a ParallelEnv.  ``python -m botarena.replay FILE [--gif OUT.gif]`` verifies a
replay and renders it (GIF frames from the game's ``rgb_array``; needs Pillow, in the
``render`` extra).
"""
import argparse
import dataclasses
import hashlib
import json
import sys

import numpy as np

from . import __version__
from .core import rng as rng_module
from .registry import env_module

FORMAT = "botarena-replay"
VERSION = 1
DEFAULT_EVERY = 50
GIF_SCALE = 8          # pixels per board cell in a GIF
GIF_FPS = 10


class ReplayError(Exception):
    """A replay that doesn't parse or doesn't reproduce (edited, or another core)."""


def plain(value):
    """``value`` (a snapshot, a config, a result) as plain JSON values: arrays as lists,
    numpy scalars as Python ones, tuple keys as "a,b" strings."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, dict):
        return {(",".join(str(int(x)) for x in k) if isinstance(k, tuple) else str(k)): plain(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def canonical(value):
    return json.dumps(plain(value), sort_keys=True, separators=(",", ":"))


def snapshot_hash(snapshot):
    return hashlib.sha256(canonical(snapshot).encode()).hexdigest()


def chain(prev, line, snapshot):
    """The next hash of the chain: previous hash, the line's content, the snapshot."""
    content = {k: v for k, v in line.items() if k not in ("hash", "snapshot")}
    h = hashlib.sha256()
    h.update(prev.encode())
    h.update(canonical(content).encode())
    h.update(snapshot_hash(snapshot).encode())
    return h.hexdigest()


def config_dict(config):
    """The config's fields as JSON values; ``ReplayError`` for a field JSON cannot hold (a
    map given as an object: record games built from a map name, path or text)."""
    fields = plain(dataclasses.asdict(config))
    try:
        json.dumps(fields)
    except TypeError as err:
        raise ReplayError(f"the config cannot be recorded: {err}") from None
    return fields


class Recorder:
    """Writes a replay: the header now, then ``turn``, ``reset`` and ``end`` lines."""

    def __init__(self, path, env_id, config, seed, agents, snapshot, every=DEFAULT_EVERY):
        self.every = int(every)
        self.file = open(path, "w", encoding="utf-8")
        header = {"type": "header", "format": FORMAT, "version": VERSION, "env": env_id,
                  "botarena": __version__, "config": config_dict(config), "seed": int(seed),
                  "agents": list(agents), "every": self.every}
        self._write(header, snapshot, True)

    def _write(self, line, snapshot, full):
        self.hash = chain(getattr(self, "hash", ""), line, snapshot)
        line["hash"] = self.hash
        if full:
            line["snapshot"] = plain(snapshot)
        self.file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.file.flush()

    def turn(self, turn, actions, snapshot):
        line = {"type": "turn", "turn": int(turn), "actions": plain(list(actions))}
        self._write(line, snapshot, self.every > 0 and turn % self.every == 0)

    def reset(self, seed, snapshot):
        self._write({"type": "reset", "seed": int(seed)}, snapshot, True)

    def end(self, result):
        self.file.write(json.dumps({"type": "end", "result": plain(result)},
                                   separators=(",", ":")) + "\n")
        self.close()

    def close(self):
        if not self.file.closed:
            self.file.close()


def load(path):
    """(header, lines after it) of a replay file; ``ReplayError`` if it doesn't parse."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [json.loads(text) for text in f if text.strip()]
    except (OSError, ValueError) as err:
        raise ReplayError(f"can't read replay {str(path)!r}: {err}") from None
    if not lines or not isinstance(lines[0], dict) or lines[0].get("type") != "header" \
            or lines[0].get("format") != FORMAT:
        raise ReplayError(f"{str(path)!r} is not a botarena replay (no header line)")
    if lines[0].get("version") != VERSION:
        raise ReplayError(f"replay version {lines[0].get('version')} is not {VERSION}")
    return lines[0], lines[1:]


def game_of(header):
    """A one-env game built as the header says (env id and config)."""
    try:
        module = env_module(header["env"])
        return module.Game(module.Config(**header["config"]), 1)
    except (KeyError, TypeError, ValueError) as err:
        raise ReplayError(f"bad replay header: {err}") from None


def play(path, verify=True, on_turn=None):
    """Replay a file; returns ``(game, header, recorded result)``.

    ``on_turn(game)`` is called after the reset and after every line.  With ``verify``
    every hash of the chain is recomputed; a mismatch raises ``ReplayError`` naming the
    line and the turn."""
    header, lines = load(path)
    game = game_of(header)
    try:
        game.reset(seed=int(header["seed"]))
    except (KeyError, TypeError, ValueError) as err:
        raise ReplayError(f"bad replay header: {err}") from None
    h = chain("", header, game.snapshot(0)) if verify else None
    if verify and h != header.get("hash"):
        raise ReplayError("header: hash mismatch (config, seed or first state differ)")
    if on_turn is not None:
        on_turn(game)
    result = None
    actions = np.zeros_like(game.actions)
    for number, line in enumerate(lines, start=2):
        kind = line.get("type") if isinstance(line, dict) else None
        if kind == "turn":
            if game.over[0]:
                raise ReplayError(f"line {number}: a turn after the game's end")
            try:
                actions[0] = np.asarray(line["actions"], dtype=np.int64)
                game.step(actions)
            except (KeyError, TypeError, ValueError) as err:
                raise ReplayError(f"line {number}: bad actions: {err}") from None
            if int(game.state.steps[0]) != line.get("turn"):
                raise ReplayError(f"line {number}: turn {line.get('turn')} but the game has "
                                  f"played {int(game.state.steps[0])}")
        elif kind == "reset":
            game.reset(seed=int(line["seed"]))
        elif kind == "end":
            result = line.get("result")
            continue
        else:
            raise ReplayError(f"line {number}: unknown line type {kind!r}")
        if verify:
            h = chain(h, line, game.snapshot(0))
            if h != line.get("hash"):
                raise ReplayError(f"line {number} ({kind} {line.get('turn', '')}): hash "
                                  "mismatch, the replay does not reproduce")
        if on_turn is not None:
            on_turn(game)
    return game, header, result


class RecordingEnv:
    """A ParallelEnv that records every game played through it to ``path`` (the same API:
    ``reset``, ``step``, spaces, ``agents``...; anything else is the wrapped env's).
    A reset without a seed draws one, so that the replay can reproduce it."""

    def __init__(self, env, path, agents=None, every=DEFAULT_EVERY):
        self.env, self.path, self.every = env, path, every
        self.names = list(agents) if agents is not None else list(env.possible_agents)
        self.recorder = None

    def __getattr__(self, name):
        return getattr(self.env, name)

    def reset(self, seed=None, options=None):
        seed = rng_module.fresh_seed() if seed is None else seed
        out = self.env.reset(seed=seed, options=options)
        game = self.env.game
        if self.recorder is None:
            self.recorder = Recorder(self.path, self.env.metadata["name"], game.config, seed,
                                     self.names, game.snapshot(0), self.every)
        else:
            self.recorder.reset(seed, game.snapshot(0))
        return out

    def step(self, actions):
        out = self.env.step(actions)
        game = self.env.game
        self.recorder.turn(int(game.state.steps[0]), game.actions[0], game.snapshot(0))
        return out

    def close(self):
        if self.recorder is not None:
            game = self.env.game
            self.recorder.end({"scores": game.scores[0], "over": bool(game.over[0])})
        self.env.close()


def write_gif(path, out, scale=GIF_SCALE, fps=GIF_FPS):
    """Verify the replay ``path`` and write its frames (``render_rgb`` after every line) as
    an animated GIF ``out``."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("GIFs need Pillow: pip install 'botarena[render]'") from None
    frames = []

    def grab(game):
        frame = np.asarray(game.render_rgb(0)).repeat(scale, 0).repeat(scale, 1)
        frames.append(Image.fromarray(frame))

    play(path, verify=True, on_turn=grab)
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=int(1000 / fps),
                   loop=0)
    return len(frames)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m botarena.replay",
                                     description="Verify a botarena replay (and render it).")
    parser.add_argument("replay", help="a replay file (JSON lines)")
    parser.add_argument("--gif", metavar="OUT", help="also write an animated GIF")
    args = parser.parse_args(argv)
    try:
        if args.gif:
            count = write_gif(args.replay, args.gif)
            print(f"wrote {args.gif} ({count} frames)")
        game, header, result = play(args.replay)
    except ReplayError as err:
        print(f"replay does not verify: {err}", file=sys.stderr)
        return 1
    print(f"{header['env']}: {int(game.state.steps[0])} turns, scores "
          f"{game.scores[0].tolist()}; replay verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
