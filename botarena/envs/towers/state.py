"""Towers' state: the one table of arrays, each with a leading env axis E.

``P`` = 2 players, ``B`` = ``max_num_bots`` and ``T`` = ``max_num_towers`` (the pools:
no array grows with the number of units), ``N`` the map size, ``NN = N * N`` tiles, ``K``
= ``FIELD_SLOTS`` distance fields.  Positions are absolute (player 0's frame; player 1's
view is mirrored when observed).  A unit that died this turn stays in its pool, marked
dead, until the next turn starts (it still counts against the cap).

| field              | shape, dtype       | meaning                                            |
|--------------------|--------------------|----------------------------------------------------|
| terrain            | [E, N, N] uint8    | LAND / WATER / FLAG of this game's map             |
| bot_x, bot_y       | [E, P, B] float32  | bots' positions, entries ``[:num_bots[p]]``        |
| bot_hp             | [E, P, B] int32    | bots' HP                                           |
| bot_id             | [E, P, B] int32    | unit ids (from ``next_id``; never reused)          |
| bot_cmd            | [E, P, B] int8     | current command (``constants.BotCommand``)         |
| bot_tx, bot_ty     | [E, P, B] float32  | its target position                                |
| bot_dead           | [E, P, B] bool     | died this turn (leaves at the next turn's start)   |
| num_bots           | [E, P] int32       | bots in each pool                                  |
| tower_x, tower_y   | [E, P, T] int32    | towers' tiles, entries ``[:num_towers[p]]``        |
| tower_hp, tower_id | [E, P, T] int32    | HP, unit id                                        |
| tower_born         | [E, P, T] int32    | ``turn`` when its first turn began (age = turn - born) |
| tower_dead         | [E, P, T] bool     | died this turn                                     |
| tower_blast        | [E, P, T] bool     | scratch: commanded to blast this turn              |
| num_towers         | [E, P] int32       | towers in each pool                                |
| tower_at           | [E, NN] int32      | ``p * T + i`` of the living tower on a tile, or -1 |
| next_id            | [E] int32          | the id of the next unit                            |
| bot_damage         | [E, P, B] int32    | scratch: damage summed over a turn                 |
| tower_damage       | [E, P, T] int32    | scratch: damage summed over a turn                 |
| count              | [E, P, NN] int32   | scratch: living bots per tile (zero between uses)  |
| hp_sum             | [E, P, NN] int32   | scratch: their HP (zero between uses)              |
| stack_tile         | [E, P, NN] int32   | the tiles of the living bots, each once, as        |
|                    |                    | ``count_bots`` last listed them (see it)           |
| num_stacks         | [E, P] int32       | how many tiles ``stack_tile`` lists                |
| field              | [E, K, NN] int32   | distance fields: steps to a destination tile       |
| field_dest         | [E, K] int32       | each field's destination tile, -1: none            |
| field_next         | [E] int32          | the slot the next field replaces                   |
| queue              | [E, NN] int32      | scratch: the breadth-first search's queue (and     |
|                    |                    | ``apply_commands``' tiles served)                  |
| scores             | [E, P] int32       | game points                                        |
| prev_scores        | [E, P] int32       | game points before the last step (rewards)         |
| turn_scores        | [E, P] int32       | the last turn's scores                             |
| alive, prev_alive  | [E, P] bool        | always True (both players play to the end)         |
| rank_key           | [E, P] float64     | game points (who wins)                             |
| turn, steps        | [E] int32          | turns played; steps since the reset (= turn)       |
| over               | [E] bool           | the game has ended (or was truncated)              |
| rng                | [E, NUM_STREAMS] u64 | per-env random streams (see core.rng)            |
"""
from collections import namedtuple

import numpy as np

from ...core.rng import NUM_STREAMS
from .constants import FIELD_SLOTS, NUM_PLAYERS

# (name, shape of one env from (N, P, B, T), dtype)
FIELDS = (
    ("terrain", lambda N, P, B, T: (N, N), np.uint8),
    ("bot_x", lambda N, P, B, T: (P, B), np.float32),
    ("bot_y", lambda N, P, B, T: (P, B), np.float32),
    ("bot_hp", lambda N, P, B, T: (P, B), np.int32),
    ("bot_id", lambda N, P, B, T: (P, B), np.int32),
    ("bot_cmd", lambda N, P, B, T: (P, B), np.int8),
    ("bot_tx", lambda N, P, B, T: (P, B), np.float32),
    ("bot_ty", lambda N, P, B, T: (P, B), np.float32),
    ("bot_dead", lambda N, P, B, T: (P, B), np.bool_),
    ("num_bots", lambda N, P, B, T: (P,), np.int32),
    ("tower_x", lambda N, P, B, T: (P, T), np.int32),
    ("tower_y", lambda N, P, B, T: (P, T), np.int32),
    ("tower_hp", lambda N, P, B, T: (P, T), np.int32),
    ("tower_id", lambda N, P, B, T: (P, T), np.int32),
    ("tower_born", lambda N, P, B, T: (P, T), np.int32),
    ("tower_dead", lambda N, P, B, T: (P, T), np.bool_),
    ("tower_blast", lambda N, P, B, T: (P, T), np.bool_),
    ("num_towers", lambda N, P, B, T: (P,), np.int32),
    ("tower_at", lambda N, P, B, T: (N * N,), np.int32),
    ("next_id", lambda N, P, B, T: (), np.int32),
    ("bot_damage", lambda N, P, B, T: (P, B), np.int32),
    ("tower_damage", lambda N, P, B, T: (P, T), np.int32),
    ("count", lambda N, P, B, T: (P, N * N), np.int32),
    ("hp_sum", lambda N, P, B, T: (P, N * N), np.int32),
    ("stack_tile", lambda N, P, B, T: (P, N * N), np.int32),
    ("num_stacks", lambda N, P, B, T: (P,), np.int32),
    ("field", lambda N, P, B, T: (FIELD_SLOTS, N * N), np.int32),
    ("field_dest", lambda N, P, B, T: (FIELD_SLOTS,), np.int32),
    ("field_next", lambda N, P, B, T: (), np.int32),
    ("queue", lambda N, P, B, T: (N * N,), np.int32),
    ("scores", lambda N, P, B, T: (P,), np.int32),
    ("prev_scores", lambda N, P, B, T: (P,), np.int32),
    ("turn_scores", lambda N, P, B, T: (P,), np.int32),
    ("alive", lambda N, P, B, T: (P,), np.bool_),
    ("prev_alive", lambda N, P, B, T: (P,), np.bool_),
    ("rank_key", lambda N, P, B, T: (P,), np.float64),
    ("turn", lambda N, P, B, T: (), np.int32),
    ("steps", lambda N, P, B, T: (), np.int32),
    ("over", lambda N, P, B, T: (), np.bool_),
    ("rng", lambda N, P, B, T: (NUM_STREAMS,), np.uint64),
)

State = namedtuple("State", [name for name, _, _ in FIELDS])


def alloc(num_envs, size, max_bots, max_towers):
    """Zeroed state for ``num_envs`` envs of a ``size x size`` map."""
    return State(*[np.zeros((num_envs,) + shape(size, NUM_PLAYERS, max_bots, max_towers),
                            dtype=dtype) for _, shape, dtype in FIELDS])
