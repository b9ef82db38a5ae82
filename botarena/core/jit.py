"""Numba helpers: a game's serial and threaded batch drivers, and fast re-calls.

``batch_drivers(run_range, name)`` builds a game's two batch drivers from its loop body
over a range of envs, ``run_range(s, p, lo, hi, args)`` (envs ``lo .. hi - 1``).  Both
drivers take ``(s, p, chunks, args)``, ``args`` the tuple of the body's other arguments:
the serial one runs the range of every env (it ignores ``chunks``), the threaded one
splits the envs into ``chunks`` contiguous ranges run on numba's threads.  The number of
envs is ``s.over.shape[0]`` (every state has ``over``, see ``core.batched``).

- numba inlines the body into the serial driver, so the step is compiled once.  Called,
  the body would be compiled and optimised on its own, and then again, linked into the
  driver: numba optimises each function's module with the code of everything it calls
  in it, so each compiled level re-optimises all the levels below it.  Inlining the body
  took a fifth of dungeon's cold start off and stepped as fast (A/B at batch 64 and 4096).
- The threaded driver calls the body, compiled on its own, once per range (passing the
  state and params tuples then costs nothing that counts): numba's parallel pass never
  sees a game's body (it miscompiled bodies inlined into a ``prange`` loop).

``bind(dispatcher, *args)`` returns the compiled entry point for the argument types of
``args``.  Calling it skips numba's per-call type dispatch, which for a state tuple of a
dozen arrays costs several microseconds: the single-env PettingZoo front-end steps far
faster this way.  The arguments passed later must have exactly those types.  The types
are taken as at every batch size (``batch_type``): a record field of a one-env state
would otherwise make numba compile every kernel a second time (2 minutes for dungeon).
``BatchTyped(dispatcher)`` calls through ``bind``, reusing the last entry point (the bots).

Decorators hold numba's flags, so that the games' code names what a function is:

- ``@hot``: a hot-path function that allocates nothing (rule phases, observe, rewards),
  compiled and cached without numba's runtime (``_nrt=False``): taking a view such as
  ``s.colour[e]`` or passing an array to a helper then costs no atomic reference count
  (those were ~40% of a paint step).  Such a function cannot create arrays, nor assign one
  array slice from another (``a[e] = b`` allocates a temporary): use ``copy_into``.
  Functions that allocate (e.g. the bots' scratch) use plain ``njit(cache=True)``.
  A ``hot`` function is called from compiled code only: numba builds it no Python entry
  point (nor a C one).  Those wrappers, each unboxing a state tuple of dozens of arrays,
  were a third of coderunner's cold start.  Called from Python, such a function raises
  ``TypeError``; ``@hot(python=True)`` and ``@phase(python=True)`` keep the entry point
  for the few that Python calls too (``first_outside``, ``observe_one``, the snapshot
  and render helpers, the whole redraws that tests compare with the step's).
- ``@phase``: a ``hot`` function inlined into its callers: a call passes the state tuple
  (dozens of arrays) as separate arguments, which costs more than a small phase's own
  work.  LLVM inlines it (``forceinline``): numba's own IR inliner (``inline="always"``)
  deep-copies and retypes the callee at every call site (a third of dungeon's cold
  start), where LLVM inlines a phase compiled once, for the same step speed.  A large
  phase that runs rarely is better ``hot`` (called only when needed): inlined, its code
  slowed dungeon's whole step by ~15%.
- ``@phase`` functions are compiled for their arguments' plain types (``Unliteral``):
  numba would compile one version for each constant a caller passes (dungeon compiled
  ten ``draw_constant``, one per plane index, and every redraw twice, for ``whole``
  True and False), where LLVM, inlining the one version, folds the constant just as well.
- ``hot`` and ``phase`` functions are compiled at LLVM's level ``INNER_OPT`` (1), and so
  are the reset drivers (run once per game); only the step drivers, and the few
  functions Python calls on every step (``hot(..., outermost=True)``: ``first_outside``),
  at numba's ``NUMBA_OPT`` (3).  The step driver re-optimises everything below it at the
  full level (above), so optimising a callee at level 3 first only gave it more code to
  optimise again: dungeon's cold start fell by a fifth, and the steps ran as fast
  (dungeon's ~10% faster; A/B at batch 64).  Not a mix: with the functions that have a
  Python entry point (inlined into the step too) left at level 3, coderunner's step ran
  ~9% slower.  Level 0 is no option: its code keeps addresses that numba cannot cache.
- ``@view``: a one-line phase that returns a view of its arguments' arrays (a game's
  observation views, its rank keys).  A compiled call may return only an array passed
  to it as such, not a field of a tuple nor a reshape, so these are inlined by numba's
  IR inliner (cheap for one line).
- ``@glue``: a phase whose few lines only hand its arguments on to other phases (each
  game's ``play_env`` but paint's), inlined by numba's IR inliner: compiled on its own,
  it would be one more level that optimises the whole step again (above).
"""
import functools
import types

import numpy as np
from numba import config as numba_config
from numba import njit, prange
from numba.core import types as numba_types
from numba.core.registry import CPUDispatcher


FULL_OPT = numba_config.OPT     # numba's level (``NUMBA_OPT``): the step drivers (above)
INNER_OPT = numba_config._OptLevel(min(1, FULL_OPT))   # everything else


class Levelled:
    """A dispatcher mixin: compiled at LLVM's level ``opt_level`` (the callees it compiles
    on the way at theirs)."""

    opt_level = INNER_OPT

    def compile(self, sig):
        saved = numba_config.OPT
        numba_config.OPT = self.opt_level
        try:
            return super().compile(sig)
        finally:
            numba_config.OPT = saved


class PythonEntry(Levelled, CPUDispatcher):
    """A dispatcher with a Python entry point."""


class NumbaOnly(Levelled, CPUDispatcher):
    """A dispatcher compiled without a Python entry point (see ``hot``): numba would call
    a null pointer, so a call from Python raises instead."""

    def __call__(self, *args, **kwargs):
        raise self.no_entry_point()

    def no_entry_point(self):
        return TypeError(f"{self.py_func.__qualname__} is compiled for numba callers only "
                         "(@hot or @phase without python=True)")


class Unliteral:
    """A dispatcher mixin: compiled code calling it gets the version for its arguments'
    plain types, not one per constant passed (see ``phase``)."""

    def get_call_template(self, args, kws):
        return super().get_call_template(
            [numba_types.unliteral(a) for a in args],
            {k: numba_types.unliteral(v) for k, v in kws.items()})


class UnliteralOnly(Unliteral, NumbaOnly):
    pass


class UnliteralPython(Unliteral, PythonEntry):
    pass


DISPATCHERS = {     # (one version for all constants, a Python entry point) -> class
    (False, False): NumbaOnly, (True, False): UnliteralOnly,
    (False, True): PythonEntry, (True, True): UnliteralPython}


def _compiled(function, python, unliteral=False, opt_level=None, **flags):
    """``function`` compiled and cached without numba's runtime, with numba's ``flags``;
    a dispatcher without Python and C wrappers unless ``python``; one version for every
    constant argument if ``unliteral``; at LLVM's level ``opt_level`` (default
    ``INNER_OPT``)."""
    if numba_config.DISABLE_JIT:
        return function
    wrappers = {} if python else {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
    dispatcher = DISPATCHERS[unliteral, python](function, locals={}, targetoptions=dict(
        nopython=True, _nrt=False, **wrappers, **flags))
    if opt_level is not None:
        dispatcher.opt_level = opt_level
    dispatcher.enable_caching()
    return dispatcher


def hot(function=None, *, python=False, outermost=False):
    """A hot-path function: compiled and cached without numba's runtime, and without a
    Python entry point unless ``python`` (see above); at numba's LLVM level if
    ``outermost`` (a function Python calls on every step), else at ``INNER_OPT``."""
    if function is None:
        return functools.partial(hot, python=python, outermost=outermost)
    return _compiled(function, python, opt_level=FULL_OPT if outermost else None)


def phase(function=None, *, python=False):
    """A ``hot`` function that LLVM inlines into its callers (see above)."""
    if function is None:
        return functools.partial(phase, python=python)
    return _compiled(function, python, unliteral=True, forceinline=True)


def _ir_inlined(function):
    return njit(cache=True, _nrt=False, inline="always")(function)


def view(function):
    """A one-line phase returning a view of its arguments' arrays, inlined by numba (see
    above)."""
    return _ir_inlined(function)


def glue(function):
    """A phase whose few lines only hand its arguments on to other phases, inlined by
    numba (see above)."""
    return _ir_inlined(function)


def _serial_driver(s, p, chunks, args):
    run_range(s, p, 0, s.over.shape[0], args)  # noqa: F821 (bound by batch_drivers)


def _threaded_driver(s, p, chunks, args):
    num_envs = s.over.shape[0]
    for c in prange(chunks):
        run_range(s, p, c * num_envs // chunks, (c + 1) * num_envs // chunks,  # noqa: F821
                  args)


def batch_drivers(run_range, name, rare=False):
    """(serial, threaded) batch drivers ``name`` and ``name + "_parallel"`` over the loop
    body ``run_range`` (see above: numba inlines it into the serial one), compiled at
    ``INNER_OPT`` if ``rare`` (the reset: once per game, where a step runs hundreds of
    times), else at numba's level (the step).  They are module-level functions of the
    body's module with the body as a global, not closures: numba's cache key of a closure
    includes its pickled cells, which differ in every process, so a closure is compiled
    again in every process."""
    inlined = _ir_inlined(getattr(run_range, "py_func", run_range))  # no py_func: no JIT
    drivers = []
    for template, suffix, flags, callee in (
            (_serial_driver, "", {}, inlined),
            (_threaded_driver, "_parallel", {"parallel": True}, run_range)):
        fn = types.FunctionType(template.__code__,
                                dict(template.__globals__, run_range=callee), name + suffix)
        fn.__qualname__ = name + suffix
        fn.__module__ = run_range.__module__
        drivers.append(_compiled(fn, True, opt_level=INNER_OPT if rare else FULL_OPT,
                                 **flags))
    return tuple(drivers)


@hot
def copy_into(dst, src):
    """``dst[...] = src`` for C-contiguous arrays of the same size, without the temporary
    numba's slice assignment allocates when the two might overlap."""
    flat_dst, flat_src = dst.reshape(dst.size), src.reshape(src.size)
    for i in range(flat_dst.shape[0]):
        flat_dst[i] = flat_src[i]


@hot(python=True, outermost=True)
def first_outside(values, high):
    """Flat index of the first entry of ``values`` (C-contiguous) outside ``[0, high)``, or
    -1 (numpy's min and max would take two passes and a few microseconds of calls).  The
    check is one pass without an early exit (it vectorizes: 4x faster over ants' command
    grids, 1.4 -> 0.34 us per env); only a bad array is searched for the index.  A ``high``
    of ``values``' own dtype keeps the comparisons at its width (against an int64 bound
    every int8 entry is widened first: 4x slower again over ants' grids)."""
    flat = values.reshape(values.size)
    bad = False
    for i in range(flat.shape[0]):
        bad |= (flat[i] < 0) | (flat[i] >= high)
    if not bad:
        return -1
    for i in range(flat.shape[0]):
        if flat[i] < 0 or flat[i] >= high:
            return i
    return -1


@hot
def narrow_range(values, out, high):
    """``out[:] = values``; whether one of those values is outside ``[0, high)``: as an
    unsigned 64-bit integer (a negative value wraps to a huge one), a value is outside
    when it is at least ``high``, one comparison instead of two (narrowing ants_v0's
    26 MB of int64 commands on two threads: ~560-680 -> ~485 us, where only reading them
    takes ~455)."""
    limit = np.uint64(high)
    bad = False
    for i in range(values.shape[0]):
        bad |= np.uint64(values[i]) >= limit
        out[i] = values[i]
    return bad


@hot(python=True, outermost=True)
def narrow_into(values, out, high):
    """``out[:] = values`` (1-D arrays of the same length; ``out`` of a narrower integer
    type) with ``first_outside(values, high)`` checked in the same pass: the values are
    checked before they are narrowed (where a value that does not fit would wrap
    around).  Returns that index; ``out`` is written whole either way."""
    bad = narrow_range(values, out, high)
    return first_outside(values, high) if bad else -1


def _narrow_threaded(values, out, high, bad):
    n, chunks = values.shape[0], bad.shape[0]
    for c in prange(chunks):
        lo, hi = c * n // chunks, (c + 1) * n // chunks
        bad[c] = narrow_range(values[lo:hi], out[lo:hi], high)  # from 0, as below
    for c in range(chunks):
        if bad[c]:
            return first_outside(values, high)
    return -1


# ``narrow_into`` split into ``len(bad)`` ranges on numba's threads, ``bad[c]`` set where
# range c holds a value outside (a parallel reduction would need numba's runtime): for
# the threaded drivers' batches, where int64 commands per cell are tens of MB a step
narrow_into_parallel = _compiled(_narrow_threaded, True, opt_level=FULL_OPT, parallel=True)


def _copy_threaded(dst, src, chunks):
    n = src.shape[0]
    for c in prange(chunks):
        lo, hi = c * n // chunks, (c + 1) * n // chunks
        copy_into(dst[lo:hi], src[lo:hi])     # from 0: a loop from lo does not vectorize
                                              # (narrowing ants' 26 MB: 2.2 ms, 0.8 from 0)


# ``dst[:] = src`` (1-D arrays of one dtype and length) split into ``chunks`` ranges on
# numba's threads: one core's copy of a 4096-env batch's observations (tens of MB) is
# bound by what one core moves; two cores moved coderunner's 36 MB in half the time
copy_parallel = _compiled(_copy_threaded, True, opt_level=FULL_OPT, parallel=True)


def batch_type(value, typ):
    """``typ``, numba's type of ``value``, as it is at every batch size: an array whose
    env axis (the first) strides past other data, as the fields of an env's record do
    (``core.layout``), is typed with layout ``A`` even with one env, where numpy flags it
    contiguous (numba would compile a second copy of every kernel for batches of one);
    an array without elements (a scratch a config leaves unused) keeps layout ``C``
    whatever its strides (else its configs would compile apart); tuples (a state, params)
    member by member."""
    if isinstance(typ, numba_types.Array) and typ.layout == "C" and value.ndim:
        env_bytes = value.itemsize * int(np.prod(value.shape[1:]))
        contiguous = value.strides[0] == env_bytes or env_bytes == 0
        return typ if contiguous else typ.copy(layout="A")
    if isinstance(value, tuple) and isinstance(typ, numba_types.BaseTuple):
        members = [batch_type(v, t) for v, t in zip(value, typ)]
        return numba_types.BaseTuple.from_types(members, type(value))
    return typ


def bind(dispatcher, *args):
    """The compiled entry point of ``dispatcher`` for the types of ``args`` as they are at
    every batch size (``batch_type``; compiled if needed)."""
    if numba_config.DISABLE_JIT or not hasattr(dispatcher, "overloads"):
        return dispatcher
    if isinstance(dispatcher, NumbaOnly):
        raise dispatcher.no_entry_point()
    signature = tuple(batch_type(a, dispatcher.typeof_pyval(a)) for a in args)
    if signature not in dispatcher.overloads:
        dispatcher.compile(signature)
    return dispatcher.overloads[signature].entry_point


class BatchTyped:
    """A jitted function called through ``bind``: one compiled copy for batches of any
    size (the games' bots and other kernels called on a state from Python).  Typing a
    state in Python costs ~1 ms, so the entry points of the last ``ENTRIES`` argument
    sets are kept and reused while the tuple arguments (state, params) are the same
    objects and the other arguments have the same types (many one-game envs taking turns
    at one bot each find theirs)."""

    ENTRIES = 64

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        self._entries = {}  # key -> (the tuple arguments kept alive, entry point), oldest first
        functools.update_wrapper(self, dispatcher)

    def __call__(self, *args):
        if not hasattr(self.dispatcher, "overloads"):      # NUMBA_DISABLE_JIT
            return self.dispatcher(*args)
        typeof = self.dispatcher.typeof_pyval
        key = tuple(id(a) if isinstance(a, tuple) else batch_type(a, typeof(a)) for a in args)
        entry = self._entries.get(key)
        if entry is None:
            if len(self._entries) >= self.ENTRIES:
                del self._entries[next(iter(self._entries))]
            kept = [a for a in args if isinstance(a, tuple)]
            entry = self._entries[key] = (kept, bind(self.dispatcher, *args))
        return entry[1](*args)


class Bot(BatchTyped):
    """A game's scripted bot, ``bot(state, params, env_ids, agent_ids, out)``: writes into
    ``out[i]`` the action of agent ``agent_ids[i]`` in env ``env_ids[i]``.  The indices and
    ``out`` are checked before the compiled bot sees them (an index outside the batch would
    read and write outside its arrays): ``ValueError`` naming the bad argument.
    ``action_shape(state)``: the shape of one action (``()`` by default; a command per cell
    gives ``(cells,)``)."""

    def __init__(self, dispatcher, action_shape=None):
        super().__init__(dispatcher)
        self.action_shape = action_shape or (lambda state: ())

    def __call__(self, state, params, env_ids, agent_ids, out):
        num_envs, num_agents = state.scores.shape
        for name, ids, high in (("env_ids", env_ids, num_envs), ("agent_ids", agent_ids, num_agents)):
            if not isinstance(ids, np.ndarray) or ids.ndim != 1 or ids.dtype.kind not in "iu":
                raise ValueError(f"{name} must be a 1-d integer array, got {ids!r}")
            if ids.size and (ids.min() < 0 or ids.max() >= high):
                raise ValueError(f"{name} must lie in [0, {high}), got {ids!r}")
        if len(agent_ids) != len(env_ids):
            raise ValueError(f"env_ids and agent_ids differ in length: {len(env_ids)}, {len(agent_ids)}")
        shape = (len(env_ids),) + tuple(self.action_shape(state))
        if not isinstance(out, np.ndarray) or out.dtype != np.int64 or out.shape != shape \
                or not out.flags.writeable:
            raise ValueError(f"out must be a writeable int64 array of shape {shape} (one action "
                             f"per agent asked), got {out!r}")
        return super().__call__(state, params, env_ids, agent_ids, out)


def batch_typed(table, action_shape=None):
    """``{name: Bot(function, action_shape)}`` of a ``{name: jitted bot}`` table (a game's
    ``BOTS``)."""
    return {name: Bot(function, action_shape) for name, function in table.items()}


@phase
def fill_plane(plane, value, whole):
    """``plane[:] = value`` (a constant observation plane), cast once to the plane's dtype
    outside the loop; left alone unless ``whole`` when it already holds that value (its
    first cell tells: a step redraws only what changed).  True where it wrote the plane
    (to record, see ``core.journal``)."""
    old = plane[0]
    plane[0] = value
    cell = plane[0]
    if cell == old and not whole:
        return False
    for i in range(plane.shape[0]):
        plane[i] = cell
    return True
