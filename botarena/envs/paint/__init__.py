"""paint_v0: walk and shoot paint on an N x M board (a contest game; this page is its rules).

Agents
    ``player_0`` .. ``player_{n-1}``, one avatar each, all acting every turn.

Actions
    ``Discrete(17)``: 0 stay, 1..8 walk, 9..16 shoot, each in the directions N, NE, E,
    SE, S, SW, W, NW, i.e. (d_row, d_col) = (-1,0), (-1,1), (0,1), (1,1), (1,0), (1,-1),
    (0,-1), (-1,-1) (``constants.Action``).  The action mask (``infos[agent]["action_mask"]``,
    ``env.action_mask(agent)``) marks walks off the board or onto obstacles; they are still
    accepted and do nothing.

Observations
    ``Box(C=6, H, W)``, from the observing player's side (``constants.Plane``): own
    colour, any opponent's colour, obstacles, own avatar, other avatars, and a constant
    plane of the time left (turns_left / max_turns).  ``obs_dtype="uint8"`` (default):
    0/255, time 0..255 (SB3 reads it as an image and scales it to [0, 1]); ``"float32"``:
    all in [0, 1].  ``view="ego"``: the same planes on a (2H-1, 2W-1) window centred on
    the observer's avatar (board square (r, c) at (r - row + H - 1, c - col + W - 1)), so
    a walk or a shot covers the same window squares wherever the avatar stands; squares off
    the board read as obstacles.  A flat MLP learns paint several times faster from it.

Rules (``rules.py``, one function per paragraph)
    Walks move first; while a square holds several avatars their walks are undone (so
    swaps succeed and walking onto a standing player fails).  Every avatar paints its
    square.  Shots fly max(1, k) squares, k the contiguous own-colour line behind the
    shooter, one square per round for all shots together, and stop on the edge, an
    obstacle, an avatar, another shot or a square a shot painted this turn.  The game
    ends after ``max_turns`` turns; players are ranked by squares, equal counts sharing
    a rank.

Rewards
    ``reward="score"`` (default): change of the own square count; ``"zero_sum"``: change of
    (own - best opponent); ``"win_loss"``: +1 / 0 / -1 at the end.  ``infos[agent]["score"]``
    is the square count.  All agents terminate together when the game ends; with
    ``max_steps`` set, episodes are truncated earlier.

Boards (``maps.py``)
    ``board=`` a bundled original ("10x10" 100 turns, "5x11" 110 turns with pre-painted
    squares, "7x13" and "7x13b" 130 turns), an ASCII board (``.`` neutral, ``#`` obstacle,
    ``a``-``z`` paint of player 0-25, ``A``-``Z`` their avatars), a file holding one, or
    "random": a new board at each reset from the env's RNG (``width``, ``height``,
    ``num_players``, ``obstacle_density``, ``symmetric``), its free squares connected.

Config
    See ``Config``.  ``max_turns`` defaults to the bundled board's turns, else 10 x width.

Other views
    ``env.unwrapped.snapshot()``: ``board`` (ASCII rows), ``colour``, ``positions``,
    ``scores``, ``ranks``, ``turns_left``, ``steps``, ``over``, ``rng``.  ``env.state()``: float32 planes
    of every colour and avatar (absolute).  Render modes ``ansi``, ``rgb_array``, ``human``
    (pygame, ``pip install botarena[render]``).

Scripted bots (``bots.py``): ``random``; ``greedy`` (best immediate gain, else towards
the nearest unowned square).

Version history
    v0: first release.
"""
from ...core import cache

cache.configure("paint")  # before this game's kernels are defined

from ...core.parallel_env import BatchedParallelEnv, aec_env
from .config import Config
from .constants import Action, Plane
from .game import PaintGame

ENV_NAME = "paint_v0"
Game = PaintGame


def parallel_env(render_mode=None, **config):
    """The PettingZoo ParallelEnv; keyword arguments are ``Config`` fields."""
    return BatchedParallelEnv(PaintGame, Config(**config), ENV_NAME, render_mode)


raw_env = parallel_env


def env(render_mode=None, **config):
    """The PettingZoo AEC env of ``parallel_env`` (actions checked as they are given)."""
    return aec_env(parallel_env(render_mode, **config))


__all__ = ["Action", "Config", "Game", "PaintGame", "Plane", "env", "parallel_env", "raw_env"]
