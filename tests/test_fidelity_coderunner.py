"""coderunner_v0 against games recorded from the original engine (the ICPC 2013 CodeRunner
jar): 30 games of 400 turns on the nine contest maps and one small map of the recorder's,
``$BOTARENA_SHARED/fidelity/coderunner`` (format in its README).

The engine is deterministic, so each game is replayed whole from its map: the engine's
first enemy move at turn 1 (``enemy_first_move_turn=1``), ``max_turns`` the game's length,
both runners' recorded moves, and every turn's state compared with the recorded one: the
board (bricks removed, gold taken), both runners (cell, score, dig delay) and every enemy
(cell, master).  The engine lists the map file's k enemies, then their mirrors in reverse
order; botarena lists each enemy followed by its mirror (``ENGINE_ORDER`` maps one to the
other).  Turn 0: the engine writes the state before it credits the start cells' first
visit, botarena credits them at the reset (both scores are 1 higher from turn 1 on in
both), so turn 0's recorded scores are compared plus ``visit_points``.
"""
import gzip
import json

import numpy as np
import pytest

from botarena.envs.coderunner.constants import ACTION_NAMES
from botarena.envs.coderunner_v0 import CodeRunnerGame, Config
from shared_data import needs_shared, shared_path

FIDELITY = shared_path("fidelity", "coderunner")
pytestmark = needs_shared("fidelity", "coderunner")
GAMES = 30
TURNS = 400
FIELDS = ("board", "runners", "enemies")


def load_trace(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def map_path(trace):
    name = trace["map"]
    local = FIDELITY / name
    return local if local.exists() else shared_path("maps", "coderunner", name)


def engine_order(k):
    """botarena's enemy index of the engine's enemy j (j = 0 .. 2k - 1)."""
    return [2 * j if j < k else 2 * (2 * k - 1 - j) + 1 for j in range(2 * k)]


def our_turn(game, visit_points, t):
    """Env 0 as a trace turn record lists it (the engine's enemy order)."""
    snap = game.snapshot(0)
    runners = [[r, c, int(score), delay] for (r, c), score, delay
               in zip(snap["runners"], snap["scores"], snap["dig_delay"])]
    if t == 0:      # the engine writes turn 0 before crediting the start cells
        for runner in runners:
            runner[2] -= visit_points
    enemies = [[r, c, master] for (r, c), master in zip(snap["enemies"], snap["enemy_master"])]
    order = engine_order(len(enemies) // 2)
    return {"board": snap["board"], "runners": runners,
            "enemies": [enemies[i] for i in order]}


def side_by_side(ours, theirs):
    lines = [f"{'botarena':25}   {'engine':25}"]
    lines += [f"{a}   {b}{'' if a == b else '   <--'}" for a, b in zip(ours["board"], theirs["board"])]
    for key in ("runners", "enemies"):
        lines.append(f"{key}: ours   {ours[key]}")
        lines.append(f"{key}: engine {theirs[key]}")
    return "\n".join(lines)


def replay(trace):
    """(turns compared, turns identical before the first divergence, the divergence text)."""
    config = Config(board=str(map_path(trace)), enemy_first_move_turn=1,
                    max_turns=trace["duration"])
    game = CodeRunnerGame(config, num_envs=1)
    game.reset(seed=0)
    codes = {name: i for i, name in enumerate(ACTION_NAMES)}
    moves = np.array([[codes[r], codes[b]] for r, b in zip(trace["red_moves"], trace["blue_moves"])])
    for t, record in enumerate(trace["turns"]):
        ours = our_turn(game, config.visit_points, t)
        theirs = {key: record[key] for key in FIELDS}
        if ours != theirs:
            diff = [key for key in FIELDS if ours[key] != theirs[key]]
            return t, f"turn {t}, fields {diff}:\n{side_by_side(ours, theirs)}"
        game.step(moves[t][None])
    final = [int(x) for x in trace["stdout"].split("Score:")[1].split("[")[0].split("vs")]
    if list(game.scores[0]) != final:
        return len(trace["turns"]), f"final scores {list(game.scores[0])} vs engine {final}"
    return len(trace["turns"]), None


TRACES = sorted(FIDELITY.glob("*.json.gz")) if FIDELITY.exists() else []


def test_every_recorded_game_is_there():
    assert len(TRACES) == GAMES
    assert all(load_trace(path)["duration"] == TURNS for path in TRACES)


@pytest.mark.parametrize("path", TRACES, ids=[p.name.split(".")[0] for p in TRACES])
def test_recorded_game_identical_every_turn(path):
    trace = load_trace(path)
    turns, divergence = replay(trace)
    assert divergence is None, divergence
    assert turns == len(trace["turns"]) == TURNS
