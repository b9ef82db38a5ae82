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
played through a ParallelEnv; ``BatchRecorder`` the first game of envs of a batch.

``render(path, writers)`` verifies a replay while writers make files of it, in one pass:
``GifWriter`` (an animated GIF; Pillow) and ``Mp4Writer`` (an H.264 video; imageio and
imageio-ffmpeg), both of the game's ``render_rgb`` pictures (the ``render`` extra), and
``botarena.viewer.HtmlWriter`` (the web viewer).  ``botarena replay FILE [--gif OUT.gif]
[--mp4 OUT.mp4] [--html OUT.html]`` (also ``python -m botarena.replay``) runs it: exit
status 1, naming the line, for a replay that does not verify.
"""
import argparse
import contextlib
import dataclasses
import hashlib
import json
import os
import sys

import numpy as np

from . import __version__
from .core import rng as rng_module
from .registry import env_module

FORMAT = "botarena-replay"
VERSION = 1
DEFAULT_EVERY = 50
GIF_FPS = 10
VIDEO_FPS = 10
VIDEO_BLOCK = 2        # H.264 in yuv420p takes even sides only


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
    """Replay a file; returns ``(game, header, recorded result)`` (see ``run``)."""
    header, lines = load(path)
    return run(header, lines, verify, on_turn)


def run(header, lines, verify=True, on_turn=None):
    """Replay a loaded file (``load``); returns ``(game, header, recorded result)``.

    ``on_turn(game)`` is called after the reset and after every line but the ``end``;
    after a turn, ``game.actions[0]`` holds the turn's actions.  With ``verify`` every
    hash of the chain is recomputed; a mismatch raises ``ReplayError`` naming the line
    and the turn."""
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
    for number, line in enumerate(lines, start=2):
        kind = line.get("type") if isinstance(line, dict) else None
        if kind == "turn":
            if game.over[0]:
                raise ReplayError(f"line {number}: a turn after the game's end")
            try:
                game.step(np.asarray(line["actions"], dtype=np.int64)[None])
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


class BatchRecorder:
    """Records the first game of chosen envs of a batch played elsewhere (an evaluation's
    ``vector_env``, whose autoreset leaves no last position to hash): a batch of its own,
    built and seeded alike (env ``e`` gets ``seed + e``), is stepped with the same actions
    and without autoreset.  ``paths[e]`` is env ``e``'s replay (None: not recorded) and
    ``agents[e]`` the names of its seats."""

    def __init__(self, env_id, config, seed, paths, agents, every=DEFAULT_EVERY):
        module = env_module(env_id)
        self.game = module.Game(module.Config(**config), len(paths))
        self.game.reset(seed=seed)
        self.recorders = {e: Recorder(path, env_id, self.game.config, seed + e, agents[e],
                                      self.game.snapshot(e), every)
                          for e, path in enumerate(paths) if path is not None}

    def step(self, actions, stopped=()):
        """One turn of every env with ``actions`` (the batch's, laid out as
        ``game.actions``); a recorded game ends at its game's end, or here when its env is
        in ``stopped`` (the player moved on to a new game: its replay ends as it stands)."""
        game = self.game
        game.step(actions)
        for e in list(self.recorders):
            recorder = self.recorders[e]
            recorder.turn(int(game.state.steps[e]), actions[e], game.snapshot(e))
            if game.over[e] or e in stopped:
                recorder.end({"scores": game.scores[e], "over": bool(game.over[e])})
                del self.recorders[e]


class Writer:
    """A file made from a replay while ``render`` verifies it: ``start(header)``, then
    ``add(game)`` for every position (after the reset and every line), ``finish(result)``
    (writes the file; returns a line to print); ``discard()`` when the replay fails, so
    that no file is left of a replay that does not verify."""

    def __init__(self, out):
        self.out = str(out)
        self.count = 0          # positions added

    def start(self, header):
        self.header = header

    def add(self, game):
        self.count += 1

    def finish(self, result):
        return f"wrote {self.out} ({self.count} frames)"

    def discard(self):
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.out)


class GifWriter(Writer):
    """An animated GIF of the game's ``render_rgb`` pictures, ``fps`` a second (Pillow, in
    the ``render`` extra).  Frames are kept with a palette of their own colours (a third of
    their RGB size) until the end."""

    def __init__(self, out, fps=GIF_FPS):
        try:
            from PIL import Image
        except ImportError:
            raise ImportError("GIFs need Pillow: pip install 'botarena[render]'") from None
        super().__init__(out)
        self.image, self.fps, self.frames = Image, fps, []

    def add(self, game):
        super().add(game)
        picture = self.image.fromarray(np.asarray(game.render_rgb(0)))
        self.frames.append(picture.convert("P", palette=self.image.Palette.ADAPTIVE))

    def finish(self, result):
        self.frames[0].save(self.out, save_all=True, append_images=self.frames[1:],
                            duration=int(1000 / self.fps), loop=0)
        return super().finish(result)


class Mp4Writer(Writer):
    """An H.264 MP4 video of the game's ``render_rgb`` pictures, ``fps`` a second
    (``imageio`` with ``imageio-ffmpeg``, whose wheels carry ffmpeg; in the ``render``
    extra).  Frames go to ffmpeg as they come."""

    def __init__(self, out, fps=VIDEO_FPS):
        try:
            import imageio.v2 as imageio
            import imageio_ffmpeg  # noqa: F401 - imageio's ffmpeg plugin needs it
        except ImportError:
            raise ImportError("MP4 videos need imageio and imageio-ffmpeg: "
                              "pip install 'botarena[render]'") from None
        super().__init__(out)
        self.imageio, self.fps, self.video = imageio, fps, None

    def start(self, header):
        super().start(header)
        # sides are made even (add), so ffmpeg is not asked to rescale any frame
        self.video = self.imageio.get_writer(self.out, format="FFMPEG", fps=self.fps,
                                             codec="libx264", macro_block_size=1)

    def add(self, game):
        super().add(game)
        frame = np.asarray(game.render_rgb(0))
        odd = [(0, side % VIDEO_BLOCK) for side in frame.shape[:2]]
        self.video.append_data(np.pad(frame, odd + [(0, 0)], mode="edge"))

    def finish(self, result):
        self.video.close()
        return super().finish(result)

    def discard(self):
        if self.video is not None:
            self.video.close()
        super().discard()


def render(path, writers):
    """Verify the replay ``path`` while every writer makes its file of it (``Writer``);
    returns ``(game, header, the writers' lines)``.  Raises ``ReplayError`` (and leaves
    none of the files) where the replay does not verify."""
    header, lines = load(path)

    def add(game):
        for writer in writers:
            writer.add(game)

    try:
        for writer in writers:
            writer.start(header)
        game, header, result = run(header, lines, verify=True, on_turn=add)
        notes = [writer.finish(result) for writer in writers]
    except BaseException:
        for writer in writers:
            writer.discard()
        raise
    return game, header, notes


def write_gif(path, out, fps=GIF_FPS):
    """Verify the replay ``path`` and write its pictures as an animated GIF ``out``; the
    number of frames."""
    writer = GifWriter(out, fps)
    render(path, [writer])
    return writer.count


def write_mp4(path, out, fps=VIDEO_FPS):
    """Verify the replay ``path`` and write its pictures as an MP4 video ``out``; the
    number of frames."""
    writer = Mp4Writer(out, fps)
    render(path, [writer])
    return writer.count


def add_arguments(parser):
    """The replay command's arguments (``python -m botarena.replay``, ``botarena replay``)."""
    parser.add_argument("replay", help="a replay file (JSON lines)")
    parser.add_argument("--gif", metavar="OUT.gif", help="also write an animated GIF")
    parser.add_argument("--mp4", metavar="OUT.mp4", help="also write an MP4 video")
    parser.add_argument("--html", metavar="OUT.html",
                        help="also write the web viewer: one HTML file, no network needed")


def command(args):
    """Verify ``args.replay`` and write the files asked for; the exit status: 0, or 1
    (with the reason on stderr) for a replay that does not verify or a missing package."""
    try:
        writers = [GifWriter(args.gif)] if args.gif else []
        if args.mp4:
            writers.append(Mp4Writer(args.mp4))
        if args.html:
            from .viewer import HtmlWriter
            writers.append(HtmlWriter(args.html))
    except ImportError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    try:
        game, header, notes = render(args.replay, writers)
    except ReplayError as err:
        print(f"replay does not verify: {err}", file=sys.stderr)
        return 1
    for note in notes:
        print(note)
    print(f"{header['env']}: {int(game.state.steps[0])} turns, scores "
          f"{game.scores[0].tolist()}; replay verified")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m botarena.replay",
                                     description="Verify a botarena replay (and render it).")
    add_arguments(parser)
    return command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
