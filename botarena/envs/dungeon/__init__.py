"""dungeon_v0: a Bomberman-like arena (``../shared/seeds/dungeon.txt``, decisions in
``../shared/rules/dungeon.md``).

Agents
    ``player_0`` .. ``player_{n-1}`` (2 to 4), one avatar each.  A player whose HP reach 0
    terminates (PettingZoo drops it); its body stays on the board and the game goes on.

Actions
    ``Discrete(6)`` in the seed's order (``constants.Action``): 0 ``''`` nothing, 1 ``u``
    (y + 1), 2 ``d`` (y - 1), 3 ``l`` (x - 1), 4 ``r`` (x + 1), 5 ``p`` place a bomb.  The
    action mask marks moves off the board or into blocks, bombs, players and bodies, and
    bombs without ammo or where a bomb lies; they are still accepted and do nothing.
    ``shield=True`` (a training aid, ``bots.shield``) also masks the actions after which
    the player could not escape the fire it can foresee (the bombs on the board and their
    chains), unless no action escapes; the game itself is unchanged.

Observations
    ``Box(15, H, W)``, planes ``obs[plane, y, x]`` from the observing player's side
    (``constants.Plane``): metal, wood, ore (hits left), bombs (fuse left), danger (fire
    hitting next tick = full, then the ticks until a bomb's fire hits, chains included),
    ammo, treasure, bodies, time left, own player, opponents (by HP), and constant planes
    of own HP, ammo, blast power and score margin over the best opponent.
    ``obs_dtype="uint8"`` (default): binary planes 0/255, graded planes 0..255;
    ``"float32"``: all in [0, 1].  ``view="ego"``: ``Box(15, 2H-1, 2W-1)``, the same
    planes centred on the own player (board cell (x, y) at (x - own x + W - 1,
    y - own y + H - 1)), cells off the board read as metal, constant planes cover the
    whole window; a move or a bomb reads the same inputs wherever the player stands.

Rules (``rules.py``, one function per phase, in the order of rules/dungeon.md)
    Actions in a random order (first come, first served), fire damages players, then
    blocks and bombs, pick-ups, timers, expired bombs turn into fire, spawns, deaths and
    the end.  A bomb placed at tick t turns into fire at the end of tick t+34 and hits
    during tick t+35 after the moves; chains advance one tick per bomb.  The game ends
    when at most one player lives or after ``max_ticks`` (1800) ticks.

Rewards
    ``reward="score"`` (default): change of the own score; ``"zero_sum"``: change of the
    margin over the best opponent; ``"win_loss"``: +1 / 0 / -1 at the end, ranked by the
    tick of death (alive = best) and then the score.  ``infos[agent]["score"]`` is the score.
    Shaping: ``hurt_penalty`` is subtracted per hit point the player loses (its own fire
    included; default 0).

Maps (``maps.py``)
    ``board="random"`` (default): a new map at every reset from the env's RNG (``width``,
    ``height``, ``num_players``, block counts, ``symmetric``); or the bundled ``"classic"``,
    an ASCII map (``.`` floor, ``#`` metal, ``w`` wood, ``o`` ore, ``a`` ammo, ``t``
    treasure, ``0``-``3`` players; top text row = top of the board) or a file holding one.

Other views
    ``env.unwrapped.snapshot()`` (see ``DungeonGame.snapshot``): ``board``, ``tick``,
    ``players``, ``bombs``, ``positions``, ``scores``, ``turns_left``, ...  ``env.state()``:
    float32 planes in absolute terms.  Render modes ``ansi``, ``rgb_array``, ``human``.

Training
    ``PATH_PLANES`` (the own player's plane, the planes a walk cannot cross: blocks, bombs,
    foreseen fire, bodies and opponents, the constant planes, the moves' ``(dy, dx)``) for
    ``botarena.training.paths`` (``--arch paths``, on the board view).

Scripted bots (``bots.py``): ``random``, ``safe_bomber`` (alias ``greedy``), ``aggressive``,
``trapper`` (the most points per step: ore's last hits, ammo, no bombs on doomed blocks;
bombs opponents that its blast leaves no escape).

Version history
    v0: first release (unreleased additions: ``view="ego"``, ``hurt_penalty``, ``shield``).
"""
from ...core import cache

cache.configure("dungeon")  # before this game's kernels are defined

from pettingzoo.utils.conversions import parallel_to_aec

from ...core.parallel_env import BatchedParallelEnv
from .config import Config
from .constants import ACTION_DELTAS, Action, Plane
from .game import DungeonGame

ENV_NAME = "dungeon_v0"
Game = DungeonGame
PATH_PLANES = {
    "own": int(Plane.OWN),
    "blocking": tuple(int(p) for p in (Plane.METAL, Plane.WOOD, Plane.ORE, Plane.BOMB,
                                       Plane.DANGER, Plane.BODY, Plane.OPPONENT)),
    "scalars": tuple(int(p) for p in (Plane.TIME_LEFT, Plane.OWN_HP, Plane.OWN_AMMO,
                                      Plane.OWN_POWER, Plane.OWN_SCORE)),
    "moves": tuple((int(dy), int(dx)) for dx, dy in ACTION_DELTAS[Action.UP:Action.BOMB]),
}


def parallel_env(render_mode=None, **config):
    """The PettingZoo ParallelEnv; keyword arguments are ``Config`` fields."""
    return BatchedParallelEnv(DungeonGame, Config(**config), ENV_NAME, render_mode)


raw_env = parallel_env


def env(render_mode=None, **config):
    """The PettingZoo AEC env (PettingZoo's conversion of ``parallel_env``)."""
    return parallel_to_aec(parallel_env(render_mode, **config))


__all__ = ["Action", "Config", "DungeonGame", "Game", "PATH_PLANES", "Plane", "env", "parallel_env", "raw_env"]
