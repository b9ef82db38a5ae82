"""The loop over a batch of envs, written once for every game.

A game's ``kernel.py`` supplies what one env does, as jitted functions over the whole
batch's arrays and an env index ``e`` (``s`` the state tuple, ``p`` the params):

``reset_env(s, p, e)``
    start a new game in env e (drawing from the env's own RNG).
``observe_env(s, p, e, views, masks, journals)``
    write env e's observations (into ``views``, see below) and action masks whole, from
    its state (the loop then records the row as written whole in env e's journal:
    helpers it shares with ``play_env`` may record as they write).
``play_env(s, p, e, actions, rewards, terminated, truncated, views, masks, journals)``
    play one turn of env e (``actions[e]``), write its rewards and end flags, and bring
    its observations and masks up to date (a game may redraw only what changed); True
    when the episode is done.  A game that updates its observations in place records
    in env e's journal (``core.journal.journal_of(journals, e)``) every entry of its
    observation row it writes; one that ``redraws_observations`` whole records nothing.

and, where the defaults below do not fit:

``obs_views(s, p, obs)``
    the game's view of the batch's observation buffer, taken once per driver call and
    passed to ``observe_env`` and ``play_env`` (default: ``obs`` itself; e.g. one flat
    row per player, or several views of one buffer as a tuple).
``prefetch_env(s, p, e, hi, actions, masks, rewards, terminated, truncated, views,
journals)``
    called before env e is played, to prefetch what envs after it will touch (default:
    nothing).
``rank_keys(s)``
    the ``[E, A]`` array that decides the winner (higher is better; default
    ``s.rank_key``).

``game_loop(...)`` builds from them the game's drivers: ``reset`` / ``reset_parallel``
and ``step`` / ``step_parallel`` (the contract in ``core.batched``), and
``observe_one(s, p, e, obs, masks, journals)`` (env e's observations drawn whole, e.g.
after a restore).  The loop owns the order within a step: with ``sync``, bring the env's
observation row up to date by replaying its journal (``core.journal``: when the
observations are double-buffered), skip the envs that are over, play, and with
``autoreset`` copy the final observations, scores and rank keys of an env that ended,
start it again and observe it whole.  Every row drawn whole is recorded whole.

The drivers are copies of this module's templates whose globals are the game's
functions (as ``core.jit.batch_drivers`` does), not closures, so that numba caches them
in the game's cache folder (a closure's cache key includes its pickled cells, which
differ in every process).
"""
import types
from collections import namedtuple

from .jit import batch_drivers, copy_into, hot, phase, view
from .journal import journal_of, prefetch_journal, record_whole, replay

JOURNAL_AHEAD = 4   # envs ahead whose journal is prefetched


@phase
def whole_obs(s, p, obs):
    """The default ``obs_views``: the observation buffer itself."""
    return obs


@view
def player_rows(s, p, obs):
    """An ``obs_views`` for ``[E, A, planes, ...]`` buffers: one flat row per player (plane
    k at ``[k * cells, (k + 1) * cells)``), reshaped once per driver call (a reshape in
    compiled code costs tens of ns)."""
    return obs.reshape(obs.shape[0], obs.shape[1], obs.size // (obs.shape[0] * obs.shape[1]))


@phase
def no_prefetch(s, p, e, hi, actions, masks, rewards, terminated, truncated, views,
                journals):
    """The default ``prefetch_env``: nothing."""


@view
def rank_key_field(s):
    """The default ``rank_keys``: the state's ``rank_key`` field."""
    return s.rank_key


@phase
def row_units(obs, obs_units):
    """``(per_row, per_unit)``: the units (``core.journal.units``) of an env's observation
    row, and the entries of a unit."""
    return obs_units.shape[0] // obs.shape[0], obs_units.itemsize // obs.itemsize


@view
def flat_obs(obs):
    """``obs`` as one flat array."""
    return obs.reshape(obs.size)


def _reset_range(s, p, lo, hi, args):
    env_mask, obs, masks, obs_units, source_units, at, length, value, count, sync = args
    journals = (at, length, value, count)   # passed apart: parfors refuse nested tuples
    views = obs_views(s, p, obs)  # noqa: F821 (the game's, bound by game_loop)
    per_row, per_unit = row_units(obs, obs_units)
    obs_flat = flat_obs(obs)
    for e in range(lo, hi):
        journal = journal_of(journals, e)
        if sync:
            replay(obs_flat, obs_units, source_units, journal, e, per_row, per_unit)
        if env_mask[e]:
            reset_env(s, p, e)  # noqa: F821
            observe_env(s, p, e, views, masks, journals)  # noqa: F821
            record_whole(journal)


def _step_range(s, p, lo, hi, args):
    (actions, autoreset, rewards, terminated, truncated, obs, masks, final_obs, final_scores,
     final_rank_keys, obs_units, source_units, at, length, value, count, sync) = args
    journals = (at, length, value, count)
    views = obs_views(s, p, obs)  # noqa: F821
    per_row, per_unit = row_units(obs, obs_units)
    obs_flat = flat_obs(obs)
    keys = rank_keys(s)  # noqa: F821
    for e in range(lo, hi):
        prefetch_env(s, p, e, hi, actions, masks, rewards, terminated, truncated,  # noqa: F821
                     views, journals)
        if e + JOURNAL_AHEAD < hi:
            prefetch_journal(journal_of(journals, e + JOURNAL_AHEAD))
        journal = journal_of(journals, e)
        if sync:
            replay(obs_flat, obs_units, source_units, journal, e, per_row, per_unit)
        if s.over[e]:
            continue
        done = play_env(s, p, e, actions, rewards, terminated, truncated,  # noqa: F821
                        views, masks, journals)
        if done and autoreset:
            copy_into(final_obs[e], obs[e])
            for a in range(final_scores.shape[1]):   # record fields are strided: no copy_into
                final_scores[e, a] = s.scores[e, a]
                final_rank_keys[e, a] = keys[e, a]
            reset_env(s, p, e)  # noqa: F821
            observe_env(s, p, e, views, masks, journals)  # noqa: F821
            record_whole(journal)


def _observe_one(s, p, e, obs, masks, journals):
    observe_env(s, p, e, obs_views(s, p, obs), masks, journals)  # noqa: F821
    record_whole(journal_of(journals, e))


GameLoop = namedtuple("GameLoop", ["reset", "reset_parallel", "step", "step_parallel",
                                   "observe_one"])


def _bound(template, name, functions):
    """``template`` as a function of the game's module named ``name``, its globals
    completed by the game's ``functions``."""
    fn = types.FunctionType(template.__code__, dict(template.__globals__, **functions), name)
    fn.__qualname__ = name
    fn.__module__ = getattr(functions["reset_env"], "py_func", functions["reset_env"]).__module__
    return fn


def game_loop(reset_env, observe_env, play_env, obs_views=whole_obs, prefetch_env=no_prefetch,
              rank_keys=rank_key_field):
    """The game's drivers (see above) over its per-env functions."""
    functions = {"reset_env": reset_env, "observe_env": observe_env, "play_env": play_env,
                 "obs_views": obs_views, "prefetch_env": prefetch_env, "rank_keys": rank_keys}
    reset = hot(_bound(_reset_range, "reset_range", functions))
    step = hot(_bound(_step_range, "step_range", functions))
    observe_one = hot(python=True)(_bound(_observe_one, "observe_one", functions))
    return GameLoop(*batch_drivers(reset, "reset", rare=True), *batch_drivers(step, "step"),
                    observe_one)
