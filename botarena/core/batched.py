"""The batched-game contract: E envs of one game, advanced by its jitted kernels.

A game supplies a subclass of ``BatchedGame`` that builds its state, its kernel
parameters and its spaces, and names its kernels.  Every front-end (the PettingZoo
env, the vector envs, the renderers, the arena) drives the game only through this
class, so the rules live in one place.

Kernel contract (each game's ``kernel.py``; ``s`` the state tuple, ``p`` the params):
the serial and threaded drivers ``reset, reset_parallel`` and ``step, step_parallel``
(they take ``(s, p, chunks, args)``, ``args`` the tuple of the loop's other arguments),
which ``core.loop.game_loop`` builds from the game's per-env functions:

``reset(s, p, chunks, (env_mask, obs, masks, obs_units, source_units, *obs_journal, sync))``
    start a new game in every env ``e`` with ``env_mask[e]`` (drawing from the env's own
    RNG) and write its observations and action masks.
``step(s, p, chunks, (actions, autoreset, rewards, terminated, truncated, obs, masks,
final_obs, final_scores, final_rank_keys, obs_units, source_units, *obs_journal, sync))``
    play one turn in every env that is not over: ``actions[e, a]``, then rewards and end
    flags, observations and masks.  With ``autoreset``, an env that ends writes its last
    observations, scores and rank keys (what decides the winner: higher is better) to
    ``final_obs[e]``, ``final_scores[e]`` and ``final_rank_keys[e]`` and starts a new game
    at once.

Both record what they write of the observations in ``obs_journal`` and, with ``sync``,
first bring ``obs`` up to date by replaying it (``core.journal``; the rows recorded
whole copied from ``source_units``; ``obs_units`` and ``source_units``: the two buffers
flat, as ``core.journal.units``; ``point_obs`` below).

Actions: the buffer ``actions`` (``[E, A]``, or ``[E, A, cells]`` for a command per cell)
is int8, the narrowest integer that holds every action value (``action_dtype``): the
step checks every entry before it plays, and at int64 that check of ants_v0's 800
commands an env took ~30-50% of its step, reading memory.  ``step(actions)`` takes any
integer array, and checks it as it copies it into the buffer; ``write_actions`` checks
a part before writing it.

Observations: ``obs_dtype="uint8"`` stores a true/full plane as 255, so that SB3 reads
the planes as an image and scales them to [0, 1] itself; ``"float32"`` stores 1.0
(``OBS_ONE``).

The threaded drivers are used from ``PARALLEL_MIN_ENVS`` envs on when numba has more
than one thread; they split the batch into one range per thread (``chunks``, read at
every call: ``numba.set_num_threads`` may change it).  Every state has
``rng`` (``uint64[E, NUM_STREAMS]``), ``scores`` (``int32[E, A]``), ``over``
(``bool[E]``) and ``steps`` (``int32[E]``).
"""
import operator
from abc import ABC, abstractmethod

import numba
import numpy as np

from . import rng as rng_module
from .jit import bind, first_outside, narrow_into, narrow_into_parallel
from .journal import WHOLE, new_journal, units

PARALLEL_MIN_ENVS = 256
OBS_DTYPES = {"uint8": np.uint8, "float32": np.float32}
OBS_ONE = {"uint8": 255, "float32": 1.0}  # value of a true (or full) plane cell


def action_dtype(action_values):
    """The action buffer's dtype: the narrowest signed integer that holds every action
    value and ``action_values`` itself, the check's bound (int8 for every game so far).
    The step's check reads the whole buffer, and a command per cell makes it hundreds of
    entries an agent: at int64 the check took ~30% of ants_v0's step, memory-bound
    (``docs/results.md``, session 18).  Signed: a negative value written stays negative,
    and the check catches it."""
    return np.min_scalar_type(-int(action_values) - 1)


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def env_seeds(seed, count):
    """Per-env seeds: ``seed + i`` for env ``i`` (fresh entropy when ``seed`` is None), or
    one seed per env from a sequence; anything else raises ``TypeError``."""
    if seed is None:
        seed = rng_module.fresh_seed()
    if _is_int(seed):
        return [int(seed) + i for i in range(count)]
    if isinstance(seed, (str, bytes)) or not hasattr(seed, "__len__") \
            or not all(_is_int(x) for x in seed):
        raise TypeError(f"seed must be an int, None or a sequence of ints, got {seed!r}")
    if len(seed) != count:
        raise ValueError(f"got {len(seed)} seeds for {count} envs")
    return [int(x) for x in seed]


def env_indices(env_ids, count):
    """``env_ids`` (None: all) as an int64 array of distinct envs in ``[0, count)``."""
    if env_ids is None:
        return np.arange(count)
    ids = np.asarray(env_ids)
    if ids.ndim != 1 or (ids.size and ids.dtype.kind not in "iu"):
        raise TypeError(f"env_ids must be a sequence of ints, got {env_ids!r}")
    ids = ids.astype(np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= count):
        raise ValueError(f"env_ids must lie in [0, {count}), got {env_ids!r}")
    if len(np.unique(ids)) != len(ids):
        raise ValueError(f"env_ids must be distinct, got {env_ids!r}")
    return ids


class BatchedGame(ABC):
    """E envs of one game.  Subclasses set ``agent_prefix``, ``kernels``,
    ``action_meanings`` and ``cell_pixels`` and implement ``make_state``, ``make_params``,
    ``observation_shape``, ``num_actions``, ``snapshot``, ``write_snapshot``,
    ``observe_env``, ``render_ansi``, ``render_rgb`` and ``global_state``."""

    agent_prefix = "player"
    kernels = None  # module with reset, reset_parallel, step, step_parallel
    # the IntEnum naming each action value (for a command per cell: each command), 0 the
    # no-op; ``botarena.play`` builds its keys from the names
    action_meanings = None
    # the side of a board cell in ``render_rgb``'s picture, in pixels; for a command per
    # cell, the board's cells in reading order are the action's entries
    cell_pixels = None
    # True where a played env's observations are drawn whole, reading nothing of the last
    # ones: ``self.obs`` may then be pointed at another buffer between steps (the vector
    # envs' slots let the kernel draw into the buffer they hand out, no copy); False where
    # a step updates them in place
    redraws_observations = False

    def __init__(self, config, num_envs=1, threads=None):
        if not _is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        self.config = config
        self.num_envs = int(num_envs)
        self.num_agents = self.agent_count()
        self.possible_agents = tuple(f"{self.agent_prefix}_{i}" for i in range(self.num_agents))
        self.state = self.make_state(self.num_envs)
        self.params = self.make_params()
        E, A = self.num_envs, self.num_agents
        obs_dtype = OBS_DTYPES[config.obs_dtype]
        self.obs = np.zeros((E, A) + self.observation_shape(), dtype=obs_dtype)
        # the buffer the next reset or step brings ``obs`` up to date from, where that is
        # another one (``point_obs``), and what was written since (``core.journal``)
        self.obs_source = self.obs
        self.obs_journal = new_journal(E, obs_dtype)
        self.final_obs = np.zeros_like(self.obs)
        self.final_scores = np.zeros((E, A), dtype=np.int32)
        self.final_rank_keys = np.zeros((E, A), dtype=np.float64)
        self._action_values = self.action_values()
        # int8, PettingZoo's convention: ``action_space.sample(mask)`` takes it as is
        self.masks = np.zeros((E, A, self.num_actions()), dtype=np.int8)
        self.actions = np.zeros((E, A) + self.action_shape(),
                                dtype=action_dtype(self._action_values))
        self.rewards = np.zeros((E, A), dtype=np.float32)
        self.terminated = np.zeros((E, A), dtype=np.bool_)
        self.truncated = np.zeros((E, A), dtype=np.bool_)
        self._env_mask = np.zeros(E, dtype=np.bool_)
        self._seeded = False
        self._started = np.zeros(E, dtype=np.bool_)    # reset (or restored) at least once
        self._all_started = False
        self.threaded = self.num_envs >= PARALLEL_MIN_ENVS and numba.get_num_threads() > 1
        if threads is not None:
            self.threaded = bool(threads)
        self._bind_kernels()

    def _bind_kernels(self):
        """Compile (or load from numba's cache) the kernels for these buffers' exact types."""
        self._take_sync_args()
        k = self.kernels
        self._reset = bind(k.reset_parallel if self.threaded else k.reset, self.state,
                           self.params, 1, self._reset_buffers())
        self._step = bind(k.step_parallel if self.threaded else k.step, self.state, self.params,
                          1, (self.actions, False) + self._step_buffers())
        # the check's bound in the buffer's dtype: compared at its width, the check of
        # ants_v0's int8 commands ran 4x faster than against an int64 bound
        self._action_limit = self.actions.dtype.type(self._action_values)
        self._first_outside = bind(first_outside, self.actions, self._action_limit)
        self._narrow_int64 = None    # bound at the first int64 actions (``narrow``)

    def __getstate__(self):
        """Picklable (SuperSuit's and SB3's subprocess vector envs, Ray copy envs): the
        compiled entry points are dropped and bound again on unpickling, and the state
        is laid out again as ``make_state`` lays it out (pickle copies each field on its
        own: the kernels would run on another layout, compiled once more for it)."""
        state = self.__dict__.copy()
        del state["_reset"], state["_step"], state["_first_outside"], state["_narrow_int64"]
        del state["_sync_args"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.state = self.copy_state()
        self._bind_kernels()

    def copy_state(self, env_ids=None):
        """A copy of the state of ``env_ids`` (all envs by default), laid out as
        ``make_state`` lays it out: the compiled kernels and bots take it as they take
        ``self.state`` (a copy of each field on its own, e.g. ``field.copy()``, has
        another layout, for which numba would compile them once more)."""
        ids = np.arange(self.num_envs) if env_ids is None else np.asarray(env_ids)
        fresh = self.make_state(len(ids))
        for field, source in zip(fresh, self.state):
            field[...] = source[ids]
        return fresh

    # -- driving -------------------------------------------------------------------
    def reset(self, seed=None, env_ids=None):
        """Start new games in ``env_ids`` (all by default).

        With a seed, env ``env_ids[i]`` is seeded ``seed + i`` (or ``seed[i]`` for a
        sequence).  Without one, each env's RNG carries on from where it is (Gymnasium's
        convention), or starts from fresh entropy if it was never seeded."""
        ids = env_indices(env_ids, self.num_envs)
        if seed is not None or not self._seeded:
            rng_module.seed_rows(self.state.rng, ids, env_seeds(seed, len(ids)))
            self._seeded = self._seeded or env_ids is None
        self._env_mask[:] = False
        self._env_mask[ids] = True
        self._reset(self.state, self.params, self.chunks(), self._reset_buffers())
        self.rewards[ids] = 0.0
        self.terminated[ids] = False
        self.truncated[ids] = False
        self._mark_started(ids)

    def _mark_started(self, ids):
        self._started[ids] = True
        self._all_started = bool(self._started.all())

    def step(self, actions=None, autoreset=False):
        """One turn in every env with ``actions`` (or ``self.actions``, as written there).

        Envs whose game is over are skipped (reset them, or step with ``autoreset``);
        ``RuntimeError`` before every env was reset once.  Raises ``TypeError`` or
        ``ValueError`` for actions that are not integers of the batch's shape, or outside
        ``[0, action_values)``, before any env changes.  An array laid out as
        ``self.actions`` (``action_dtype``: int8, C order, writeable) is read where it is;
        others (e.g. int64) are checked as they are copied into ``self.actions``, in one
        pass.  Whoever writes ``self.actions`` directly writes values that fit it (numpy
        wraps an int64 of 300 around to 44 in an int8 array): ``write_actions`` checks
        them first.
        """
        if not self._all_started:
            raise RuntimeError(f"step() before reset(): envs {np.flatnonzero(~self._started)[:8].tolist()} "
                               f"were never reset")
        if actions is None:
            actions = self.actions
        else:
            actions = np.asarray(actions)
            if actions.dtype.kind not in "iu":
                raise TypeError(f"actions must be integers, got dtype {actions.dtype}")
            if actions.shape != self.actions.shape:     # no silent broadcasting
                raise ValueError(f"actions must have shape {self.actions.shape} (envs, agents"
                                 f"{', command per cell' if self.action_shape() else ''}), "
                                 f"got {actions.shape}")
        if self._same_layout(actions):
            self._raise_outside(actions, self._first_outside(actions, self._action_limit))
        else:
            actions = np.ascontiguousarray(actions)
            self._raise_outside(actions, self.narrow(actions))
            actions = self.actions
        self._advance(actions, autoreset)

    def narrow(self, source):
        """Copy ``source`` (C-contiguous integers of ``self.actions``' size) into
        ``self.actions``, checked in the same pass; the flat index of the first value
        outside ``[0, action_values)``, or -1 (``core.jit.narrow_into``, over both arrays
        flat: one compiled copy for every game).  int64, the usual source (numpy's,
        SB3's, the ParallelEnv's), goes through an entry point bound at its first use;
        with the threaded kernels, the copy is split over their threads too."""
        flat, out = source.reshape(-1), self.actions.reshape(-1)
        if self.threaded:
            return narrow_into_parallel(flat, out, self._action_values,
                                        np.zeros(self.chunks(), dtype=np.bool_))
        if flat.dtype != np.int64:
            return narrow_into(flat, out, self._action_values)
        if self._narrow_int64 is None:
            self._narrow_int64 = bind(narrow_into, flat, out, self._action_values)
        return self._narrow_int64(flat, out, self._action_values)

    def narrowing(self, source):
        """A call without arguments doing ``narrow(source)`` for one fixed ``source`` (e.g.
        a front-end's staging buffer), its flat views and compiled entry point taken once:
        ``narrow`` takes them at every call (~0.5 us, a tenth of a small game's step)."""
        if self.threaded:
            return lambda: self.narrow(source)
        flat = (source.reshape(-1), self.actions.reshape(-1), self._action_values)
        entry = bind(narrow_into, *flat)
        return lambda: entry(*flat)

    def write_actions(self, index, values):
        """``self.actions[index] = values``, the values checked first (``check_actions``),
        before they are narrowed to the buffer's dtype."""
        values = np.asarray(values)
        if values.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got dtype {values.dtype}")
        self.check_actions(values)
        self.actions[index] = values

    def _advance(self, actions, autoreset=False):
        """The step kernel on ``actions`` (laid out as ``self.actions``), unchecked: only
        for the front-ends that checked every action themselves (the ParallelEnv)."""
        self._step(self.state, self.params, self.chunks(),
                   (actions, bool(autoreset)) + self._step_buffers())

    def _reset_buffers(self):
        """The reset kernel's arguments."""
        return (self._env_mask, self.obs, self.masks) + self._obs_sync()

    def _step_buffers(self):
        """The step kernel's arguments after the actions and the autoreset flag."""
        return (self.rewards, self.terminated, self.truncated, self.obs, self.masks,
                self.final_obs, self.final_scores, self.final_rank_keys) + self._obs_sync()

    def _obs_sync(self):
        """The kernels' last arguments: ``obs`` and its source as units, the
        journal's arrays, and whether ``obs`` is to be brought up to date from the source
        (see ``point_obs``)."""
        return self._sync_args

    def _take_sync_args(self):
        """``_obs_sync``'s arguments for the buffers now set (views taken once)."""
        self._sync_args = ((units(self.obs), units(self.obs_source)) + self.obs_journal
                           + (self.obs_source is not self.obs,))

    def point_obs(self, target):
        """Make ``target`` (an array laid out as ``self.obs``) the buffer the next reset
        or step writes the observations into, and return the one it was: the vector envs
        hand out a step's buffer while the next step writes the other.

        A game that ``redraws_observations`` draws every env it plays whole; the rows of
        the envs that are over are copied here.  Any other brings ``target`` up to date
        in its kernels by replaying what was written since ``target`` last was
        (``obs_journal``, see ``core.journal``; rows written whole are copied from the
        buffer it was, ``obs_source``), so two buffers used in turn copy nothing else.
        Pointing back at the buffer just replaced (a step refused before its kernel ran)
        restores the state before.  A buffer new to the game must come from
        ``new_obs_buffer``."""
        drawn = self.obs
        if self.redraws_observations:
            skipped = np.flatnonzero(self.state.over)
            target[skipped] = drawn[skipped]
        else:
            self.obs_source = drawn
        self.obs = target
        self._take_sync_args()
        return drawn

    def env_journal(self, e):
        """Env e's journal (views of its rows of ``obs_journal``), for a kernel function
        called from Python on one env that records what it writes."""
        at, length, value, count = self.obs_journal
        return at[e], length[e], value[e], count[e:e + 1]

    def new_obs_buffer(self):
        """An array laid out as ``self.obs`` for ``point_obs``: every env's row recorded
        as written whole, so that the first step writing into it copies the rows."""
        self.obs_journal[-1][...] = WHOLE
        return np.empty_like(self.obs)

    def chunks(self):
        """How many env ranges the kernels split the batch into: one per numba thread
        (at most one per env) with the threaded drivers, else one."""
        if not self.threaded:
            return 1
        return min(numba.get_num_threads(), self.num_envs)

    def _same_layout(self, actions):
        """Whether ``actions`` has the numba type and shape of ``self.actions`` (the
        compiled step takes it as it is)."""
        flags = actions.flags
        return (type(actions) is np.ndarray and actions.dtype == self.actions.dtype
                and actions.shape == self.actions.shape and flags.c_contiguous
                and flags.writeable and flags.aligned)

    def check_actions(self, actions):
        """Raise ``ValueError`` unless every action is in ``[0, action_values)``."""
        if self._same_layout(actions):
            i = self._first_outside(actions, self._action_limit)
        else:      # flat: one compiled copy for any shape
            actions = np.ascontiguousarray(actions).reshape(-1)
            i = first_outside(actions, self._action_values)
        self._raise_outside(actions, i)

    def _raise_outside(self, actions, i):
        """``ValueError`` naming action ``i`` (flat index) of ``actions``, if ``i >= 0``."""
        if i >= 0:
            bad = actions.reshape(-1)[i]
            raise ValueError(f"action {bad} is outside [0, {self._action_values})")

    @property
    def over(self):
        """``bool[E]``: the env's game has ended (or been truncated)."""
        return self.state.over

    @property
    def scores(self):
        return self.state.scores

    def restore(self, snapshot, env=0):
        """Put env ``env`` into the state ``snapshot`` describes (a dict as ``snapshot()``
        returns it, the game's documented keys), and redraw its observations and masks.

        ``restore(snapshot())`` gives the same ``snapshot()`` and the same trajectory
        afterwards.  The env's RNG is restored when the dict has ``rng``, else it carries
        on.  The whole dict is checked before anything is written: a missing key or a
        value of the wrong shape, out of range or inconsistent with the rest raises
        ``ValueError`` naming the key, and the env is left as it was."""
        e = operator.index(env)
        if not 0 <= e < self.num_envs:
            raise ValueError(f"env {env} is outside [0, {self.num_envs})")
        scratch = self.copy_state([e])
        try:
            self.write_snapshot(snapshot, scratch)
        except OverflowError as error:      # a value checked by no bound that its field cannot hold
            raise ValueError(f"a snapshot value does not fit the state: {error}") from None
        for field, source in zip(self.state, scratch):
            field[e] = source[0]
        self.observe_env(e)
        self.rewards[e] = 0.0
        self.terminated[e] = False
        self.truncated[e] = False
        self._mark_started([e])

    def live_agents(self, e=0):
        """Indices of the agents still playing in env ``e`` (none once it is over)."""
        if self.state.over[e]:
            return []
        if hasattr(self.state, "alive"):
            return [a for a in range(self.num_agents) if self.state.alive[e, a]]
        return list(range(self.num_agents))

    def copy_env(self, src, dst):
        """Copy env ``src``'s whole state onto env ``dst`` (same game and config), with its
        observations and masks (the games whose step updates them in place from the state
        they show need them to match)."""
        for field in self.state:
            field[dst] = field[src]
        self.obs[dst] = self.obs[src]
        self.obs_journal[-1][dst] = WHOLE
        self.masks[dst] = self.masks[src]

    # -- what each game supplies ----------------------------------------------------
    @abstractmethod
    def agent_count(self):
        """Number of agents per env."""

    @abstractmethod
    def make_state(self, num_envs):
        """The state tuple of ``num_envs`` envs (the game's ``state.alloc``)."""

    @abstractmethod
    def make_params(self):
        """The kernel parameters: a named tuple of scalars and read-only arrays."""

    @abstractmethod
    def observation_shape(self):
        """Shape of one agent's observation."""

    @abstractmethod
    def num_actions(self):
        """Length of an agent's action mask (``Discrete(n)``: n; ``MultiDiscrete``: the sum
        of its sizes, as MaskablePPO wants)."""

    def action_shape(self):
        """Shape of one agent's action: ``()`` for ``Discrete``, e.g. ``(H * W,)`` for a
        command per cell (``MultiDiscrete``)."""
        return ()

    def action_values(self):
        """Each action entry lies in ``[0, action_values)``."""
        return self.num_actions()

    def seat_view(self, seat):
        """How ``seat``'s actions map onto the picture ``render_rgb`` draws:
        ``(cells, commands)``, int arrays: the seat's cell ``i`` is the picture's cell
        ``cells[i]`` (None for one action per player) and its action value ``c`` means the
        picture's ``commands[c]`` (a move up is a move up the picture).  The identity
        unless a game shows a seat its board turned or mirrored."""
        shape = self.action_shape()
        return (np.arange(shape[0]) if shape else None), np.arange(self.action_values())

    @abstractmethod
    def snapshot(self, e=0):
        """A dict of copies of env ``e``'s raw state (documented keys)."""

    @abstractmethod
    def write_snapshot(self, snapshot, state):
        """Check ``snapshot`` whole (``core.snapshot``'s helpers name the bad key), then
        write it into env 0 of ``state``, a one-env state holding the env's current state
        (what the dict leaves out, e.g. ``rng``, stays as it is)."""

    @abstractmethod
    def observe_env(self, e):
        """Write env ``e``'s observations and action masks whole from its state."""

    @abstractmethod
    def render_ansi(self, e=0):
        """Env ``e`` as text."""

    @abstractmethod
    def render_rgb(self, e=0):
        """Env ``e`` as an ``uint8[H, W, 3]`` picture: the board (``cell_pixels`` a cell,
        at the top) above the status bar of ``core.frame.status_frame``; every position
        of a game has the same shape."""

    @abstractmethod
    def global_state(self, e=0):
        """Env ``e``'s whole state as one tensor, in absolute (not per-agent) terms."""

    @property
    @abstractmethod
    def global_state_space(self):
        """The Box of ``global_state``."""
