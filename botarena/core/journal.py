"""The observation journal: what a step wrote into an env's observations.

A game that updates its observations in place (every game whose ``redraws_observations``
is False) records, as it writes, each run of equal values it wrote in env e's
observation row (``obs[e]`` flat): ``record(journal, start, length, value)``, its place,
length and value (as stored: in the obs dtype).  A row drawn whole (a new game, a
restore) is recorded as such (``record_whole``, done by the loop), and so is a step that
wrote more than ``JOURNAL_ENTRIES`` runs.  ``BatchedGame.obs_journal`` holds the batch's
journal as four arrays (``at``, ``length``, ``value``: ``[E, JOURNAL_ENTRIES]``; ``count``:
``[E]``, the runs recorded or ``WHOLE``); ``journal_of(journals, e)`` is env e's.

The journal lets observations be double-buffered without copying them (the vector envs
hand out each step's buffer and keep it valid through the next step).  When a step
writes into the other buffer, which holds the observations of two steps ago, the loop
first replays on each env's row what the last step recorded (``replay``: the rows
recorded whole are copied from the last buffer), empties the journal, and then plays the
env, which records what it writes.  The replay reads nothing of the last buffer but the
rows copied whole: the few dozen lines an env's step writes are far apart in memory, and
copying them from the last buffer waited on one memory read each (as long as copying
every row, measured).
"""
import numpy as np

from .jit import copy_into, hot, phase
from .prefetch import prefetch

JOURNAL_ENTRIES = 96     # runs recorded per env and step; more: the row is copied whole
WHOLE = -1               # ``count`` of a row written whole (or of more runs)
WORD_BYTES = 8


def new_journal(num_envs, dtype):
    """An empty journal for ``num_envs`` envs of observations of ``dtype``: (at, length,
    value, count)."""
    return (np.zeros((num_envs, JOURNAL_ENTRIES), dtype=np.int32),
            np.zeros((num_envs, JOURNAL_ENTRIES), dtype=np.int32),
            np.zeros((num_envs, JOURNAL_ENTRIES), dtype=dtype),
            np.zeros(num_envs, dtype=np.int32))


def units(obs):
    """``obs`` flat as the units a whole row is copied in: 8-byte words where every env's
    row is a whole number of them (every game's default maps), else its own entries."""
    flat = obs.reshape(-1)
    return flat.view(np.uint64) if obs[0].nbytes % WORD_BYTES == 0 else flat


@phase
def journal_of(journals, e):
    """Env e's journal (views of its rows of the batch's)."""
    at, length, value, count = journals
    return at[e], length[e], value[e], count[e:e + 1]


@phase
def record(journal, start, length, value):
    """``length`` entries of the env's flat observation row from ``start`` written, each
    ``value`` (as stored)."""
    at, lengths, values, count = journal
    i = count[0]
    if i == WHOLE:
        return
    if i == at.shape[0]:
        count[0] = WHOLE
        return
    at[i] = start
    lengths[i] = length
    values[i] = value
    count[0] = i + 1


@phase
def put(rows, journal, a, k, value):
    """``rows[a, k] = value`` in an env's observation rows of one player each (as
    ``core.loop.player_rows`` gives them), recorded in ``journal``."""
    rows[a, k] = value
    record(journal, a * rows.shape[1] + k, 1, rows[a, k])


@hot
def record_runs(journal, start, values):
    """``values`` (a flat run of the env's observation row from ``start``, e.g. a plane)
    written whole: recorded as its runs of equal entries (not scanned where the row is
    recorded whole already: outside the vector envs, always)."""
    if journal[3][0] == WHOLE:
        return
    n = values.shape[0]
    first = 0
    for i in range(1, n + 1):
        if i == n or values[i] != values[first]:
            record(journal, start + first, i - first, values[first])
            first = i


@phase
def record_whole(journal):
    """The env's whole observation row written."""
    journal[3][0] = WHOLE


@phase
def prefetch_journal(journal):
    """Prefetch an env's journal rows (its step reads and writes them)."""
    at, lengths, values, count = journal
    prefetch(count, 0)
    prefetch(at, 0)
    prefetch(lengths, 0)
    prefetch(values, 0)


@hot
def replay(obs_flat, obs_units, source_units, journal, e, per_row, per_unit):
    """Env e's observation row in ``obs_flat`` (``obs`` flat; ``obs_units``: as
    ``units``, ``per_row`` of them a row, ``per_unit`` entries a unit) brought up to date
    by what its journal recorded (copied from ``source_units`` if recorded whole), and
    the journal emptied.  Called, not inlined: the four drivers share one compiled copy
    (inlined, it added ~2 CPU-s to a game's cold start).

    Each run (and a whole row) is written through a view of it, indexed from 0: numba
    checks every index for a negative one to wrap around, and LLVM drops that check (and
    then fills or copies many entries at a time) only where it sees that the index cannot
    be negative.  Indexed from the run's start, ants_v0's 400-entry runs (its turn plane,
    redrawn at most turns) took 4x as long, ~0.6 ms of its 4,096-env step.  A run of one
    entry (most runs: a mark) is stored directly, without a view (coderunner_v0's
    double-buffered step ran ~5% slower through views)."""
    at, lengths, values, count = journal
    n = count[0]
    count[0] = 0
    if n == WHOLE:
        first = e * per_row
        copy_into(obs_units[first:first + per_row], source_units[first:first + per_row])
        return
    base = e * per_row * per_unit
    end = base + per_row * per_unit     # a bad entry never writes outside the env's row
    for j in range(n):
        start = base + max(at[j], 0)
        value = values[j]
        if lengths[j] == 1 and start < end:
            obs_flat[start] = value
            continue
        run = obs_flat[start:min(start + lengths[j], end)]
        for i in range(run.shape[0]):
            run[i] = value
