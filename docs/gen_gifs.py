"""Render one real match per game as an animated GIF: ``docs/img/<env_id>.gif``.

Each match is played by the arena (``botarena.arena.match.play``) between two of the game's
scripted bots and recorded as a replay; the replay is then verified through the core
(``botarena.replay.play``) and every position is drawn by the game's own ``render_rgb``.
So a GIF is a true game, reproducible from its seed, in the renderer's colours.

    python docs/gen_gifs.py                   # every game
    python docs/gen_gifs.py paint_v0 ants_v0  # some

Frames are thinned to at most ``MAX_FRAMES`` (evenly over the match; the last position is
always kept and held a second) and shrunk by a whole factor (every k-th pixel) to at most
``MAX_SIDE`` pixels a side, so a GIF stays under ~400 KB and the status bar's text, two
pixels a font dot, stays sharp.  Needs Pillow (the ``render`` extra).  Not run by the tests: the GIFs
are committed, and ``tests/test_docs.py`` checks that the README's images exist.
"""
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from botarena import replay  # noqa: E402
from botarena.arena import match  # noqa: E402

OUT = ROOT / "docs" / "img"
MAX_FRAMES = 100
MAX_SIDE = 560
FRAME_MS = 120
HOLD_MS = 1500

# env id: (players, seed, config overrides).  Games shortened by ``max_turns`` where the
# full game would be thinned to jumps of many turns a frame.
MATCHES = {
    "paint_v0": (["bot:greedy", "bot:random"], 1, {}),
    "coderunner_v0": (["bot:greedy", "bot:trapper"], 1, {"max_turns": 200}),
    "dungeon_v0": (["bot:safe_bomber", "bot:aggressive"], 1, {"max_turns": 300}),
    "ants_v0": (["bot:raider", "bot:greedy"], 1, {}),
    "towers_v0": (["bot:greedy", "bot:greedy"], 1, {"max_turns": 200}),
}


def frames_of(record):
    """Every position of the verified replay ``record``, drawn by ``render_rgb``."""
    frames = []
    game, _, _ = replay.play(record, verify=True,
                             on_turn=lambda g: frames.append(np.asarray(g.render_rgb(0))))
    return frames


def thin(frames, count=MAX_FRAMES):
    """At most ``count`` frames, evenly spaced, first and last kept."""
    if len(frames) <= count:
        return frames
    index = np.unique(np.linspace(0, len(frames) - 1, count).round().astype(int))
    return [frames[i] for i in index]


def write(frames, out):
    from PIL import Image
    images = []
    for frame in frames:
        factor = -(-max(frame.shape[:2]) // MAX_SIDE)           # rounded up
        image = Image.fromarray(np.ascontiguousarray(frame[::factor, ::factor]))
        images.append(image.quantize(colors=64, method=Image.Quantize.MEDIANCUT))
    durations = [FRAME_MS] * (len(images) - 1) + [HOLD_MS]
    images[0].save(out, save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=True, disposal=1)


def main(env_ids):
    OUT.mkdir(parents=True, exist_ok=True)
    for env_id in env_ids:
        players, seed, config = MATCHES[env_id]
        with tempfile.TemporaryDirectory() as tmp:
            record = os.path.join(tmp, "game.jsonl")
            result = match.play(env_id, players, seed=seed, config=config or None,
                                record=record)
            frames = frames_of(record)
        shown = thin(frames)
        out = OUT / f"{env_id}.gif"
        write(shown, out)
        print(f"{out.relative_to(ROOT)}: {' vs '.join(players)}, seed {seed}, "
              f"{result['turns']} turns, scores {result['scores']}, {len(shown)} frames, "
              f"{out.stat().st_size // 1024} KB", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or list(MATCHES))
