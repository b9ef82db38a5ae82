"""dungeon_v0: a Bomberman-like arena (a contest game; this page and ``rules.py`` give its
rules, checked tick by tick against games recorded from the original engine).

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
    during tick t+35 after the moves; chains advance one tick per bomb; the ammo it
    schedules appears at the end of tick t+69.  A token perishes after 175 ticks and
    comes back 70 ticks later.  What goes during a tick (blocks, items, bombs) stays in
    the way of that tick's spawns, and a destroyed block stops that tick's new fire.  The
    game ends when at most one player lives (all dying together: a draw) or after
    ``max_turns`` (1800) ticks.  Timings as measured on the original engine (2020 Coder
    One), which these rules match tick by tick with ``max_turns=1802`` (its length).

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

Snapshot and restore (a stable format, every key in ``snapshot``'s module doc)
    ``env.unwrapped.snapshot()`` gives one env's whole state as a dict; ``restore`` takes
    it back (``env.unwrapped.restore(snap)`` returns ``(observations, infos)``;
    ``game.restore(snap, env=e)`` for a batch).  Read keys: ``tick``, ``steps``, ``over``,
    ``tiles`` ([H, W] tile codes), ``ore_hp`` ({(x, y): hits left}), ``players`` (dicts
    ``x``, ``y``, ``hp``, ``ammo``, ``power``, ``score``, ``alive``, ``death_tick``),
    ``bombs`` (dicts ``x``, ``y``, ``owner``, ``fuse``, ``power``, in placing order),
    ``fires`` (the fire hitting during the next tick: dicts ``x``, ``y``, ``owner``,
    ``up``, ``down``, ``left``, ``right``), ``ammo_items`` (dicts ``x``, ``y``, ``life``),
    ``pending_ammo`` (ticks until each scheduled ammo), ``treasure_timer`` and, optional,
    ``rng``.  Derived keys, checked when given: ``board`` (ASCII), ``positions``,
    ``hp``, ``ammo``, ``alive``, ``scores``, ``fire`` (cells); not read: ``turns_left``,
    ``winner``.  A bad or inconsistent value raises ``ValueError`` naming its key and
    leaves the env as it was.  ``game.set_action_order(order, e)`` pins the next tick's
    action order (to replay games recorded elsewhere).

Other views
    ``env.state()``: float32 planes in absolute terms.  Render modes ``ansi``,
    ``rgb_array``, ``human``.

Training
    ``PATH_PLANES`` (the own player's plane, the planes a walk cannot cross: blocks, bombs,
    foreseen fire, bodies and opponents, the constant planes, the moves' ``(dy, dx)``) for
    ``botarena.training.paths`` (``--arch paths``, on the board view).

Scripted bots (``bots.py``): ``random``, ``safe_bomber`` (alias ``greedy``), ``aggressive``,
``trapper`` (the most points per step: ore's last hits, ammo, no bombs on doomed blocks;
bombs opponents that its blast leaves no escape).

Version history
    v0: first release (unreleased additions: ``view="ego"``, ``hurt_penalty``, ``shield``).
    v0, 2026-11-24 (unreleased; golden hashes regenerated): the timings measured on the
    original engine (rules/dungeon.md), checked on its 12 recorded games (9,090 ticks,
    all identical, ``tests/test_fidelity_dungeon.py``): a bomb's ammo appears one tick
    earlier (end of t+69, was t+70); a perished token comes back 70 ticks later
    (``ammo_respawn``; was at once), also one taken on its last tick; ammo without room
    retries 70 ticks later (was every tick); a destroyed block still stops the fire made
    in the same tick; no spawn lands on a cell whose block, item or bomb went this tick;
    a dead player's fire still pays it; all players dying on one tick draw (was: the
    higher score); the generator keeps the escape cell in line (x +- 2 or y +- 2, was
    diagonal) and puts no ammo next to a start.  New: ``restore`` and
    ``set_action_order``; ``double_pay`` (the engine's double pay for a block, off).
"""
from ...core import cache

cache.configure("dungeon")  # before this game's kernels are defined

from ...core.parallel_env import BatchedParallelEnv, aec_env
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
    """The PettingZoo AEC env of ``parallel_env`` (actions checked as they are given)."""
    return aec_env(parallel_env(render_mode, **config))


__all__ = ["Action", "Config", "DungeonGame", "Game", "PATH_PLANES", "Plane", "env", "parallel_env", "raw_env"]
