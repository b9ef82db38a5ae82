"""The human render mode opens a pygame window (SDL's dummy video driver, no screen)."""
import os
import subprocess
import sys

SCRIPT = """
import sys
import numpy as np
import botarena
env = botarena.parallel_env("paint_v0", render_mode="human")
env.reset(seed=0)
env.step({a: 5 for a in env.agents})
window = env._window
assert window is not None and window.screen is not None
frame = np.asarray(window.pygame.surfarray.array3d(window.screen)).transpose(1, 0, 2)
assert frame.shape == env.game.render_rgb(0).shape
assert (frame == env.game.render_rgb(0)).all()
env.close()
assert env._window is None
print("ok")
"""


def test_human_render_shows_the_rgb_frame():
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")
