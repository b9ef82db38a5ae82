"""core.journal's replay: what a step recorded, written again into the other buffer."""
import numpy as np
from numba import njit

from botarena.core.journal import WHOLE, new_journal, replay

ENVS, ROW = 3, 48     # each env's row: 48 uint8 entries, 6 words


@njit
def replay_env(obs, source, at, length, value, count, e):
    """``replay`` of env e (a compiled caller: it has no Python entry point)."""
    obs_units, source_units = units_of(obs), units_of(source)
    per_row = obs_units.shape[0] // obs.shape[0]
    per_unit = obs_units.itemsize // obs.itemsize
    replay(obs.reshape(obs.size), obs_units, source_units,
           (at[e], length[e], value[e], count[e:e + 1]), e, per_row, per_unit)


@njit
def units_of(obs):
    return obs.reshape(obs.size).view(np.uint64)


def journal_with(runs):
    """A journal whose env 1 recorded ``runs`` ((at, length, value), ...)."""
    at, length, value, count = new_journal(ENVS, np.uint8)
    for j, (start, n, v) in enumerate(runs):
        at[1, j], length[1, j], value[1, j] = start, n, v
    count[1] = len(runs)
    return at, length, value, count


def test_replay_writes_every_run_and_only_the_envs_row():
    """Runs of one entry, of many (across word boundaries, as ants_v0's planes) and
    one reaching past the row's end (clipped there) land in env 1's row only, and the
    journal is emptied."""
    obs = np.zeros((ENVS, ROW), dtype=np.uint8)
    source = np.full_like(obs, 99)      # read only for rows recorded whole
    runs = [(0, 1, 7), (5, 1, 8), (3, 19, 9), (30, 1, 10), (40, 20, 11)]
    journal = journal_with(runs)
    replay_env(obs, source, *journal, 1)
    expected = np.zeros(ROW, dtype=np.uint8)
    for start, n, v in runs:
        expected[start:start + n] = v
    assert obs[1].tolist() == expected.tolist()
    assert not obs[0].any() and not obs[2].any()
    assert journal[3][1] == 0


def test_replay_copies_a_row_recorded_whole():
    obs = np.zeros((ENVS, ROW), dtype=np.uint8)
    source = np.arange(ENVS * ROW, dtype=np.uint8).reshape(ENVS, ROW)
    journal = journal_with([])
    journal[3][1] = WHOLE
    replay_env(obs, source, *journal, 1)
    assert obs[1].tolist() == source[1].tolist()
    assert not obs[0].any() and not obs[2].any()
    assert journal[3][1] == 0


def test_replay_of_entries_outside_the_row_writes_nothing():
    """A negative place counts from the row's start; a place at or past the row's end,
    of any length, writes nothing (another env's row is never touched)."""
    obs = np.zeros((ENVS, ROW), dtype=np.uint8)
    journal = journal_with([(ROW, 1, 5), (ROW + 3, 4, 6), (-2, 1, 7)])
    replay_env(obs, obs.copy(), *journal, 1)
    assert obs[1].tolist() == [7] + [0] * (ROW - 1)
    assert not obs[0].any() and not obs[2].any()
