"""ants_v0 against games recorded from the original engine (the AntWars 2024 server): 34
games, 4,626 turns, ``$BOTARENA_SHARED/fidelity/ants`` (28 on the nine contest maps, 6 on
three small maps of the recorder's under ``edge/``; format in its README).

The engine draws food, each colony's spawn order and the hill dealing from generators we
cannot reproduce, so every turn is replayed on its own: the recorded state before the turn
is restored (``AntsGame.restore``), the turn is played with the recorded commands (as the
per-cell command grid) and the engine's random draws (``AntsGame.step_drawn``: the food it
spawned, the hills it spawned on), and the state after it (ants with owner, id and cell,
hills, food per cell, stored food, scores, alive) is compared with the next recorded one.

Each turn is played twice: by a game with the rules file's defaults, compared on every turn
the trace does not mark as an engine difference (``engine_vs_rules``: contested food
credited to a colony, one hill razed per turn, sequential elimination points), and by a
game with the Config switches that reproduce the engine, compared on every turn.  No turn
is skipped.
"""
import gzip
import json
from collections import Counter

import numpy as np
import pytest

from botarena.envs.ants import render
from botarena.envs.ants_v0 import AntsGame, Config
from shared_data import needs_shared, shared_path

FIDELITY = shared_path("fidelity", "ants")
pytestmark = needs_shared("fidelity", "ants")
GAMES = 34
TURNS = 4626
MARKED_TURNS = 118          # turns with an engine_vs_rules note (contested food, razing, eliminations)
FIELDS = ("ants", "hills", "food", "stored_food", "scores", "alive")
ENGINE = {"raze_one_hill_per_turn": True, "contested_food_credit": True,
          "sequential_elimination_points": True}


def trace_paths():
    return sorted(FIDELITY.glob("*.json.gz")) + sorted(FIDELITY.glob("edge/*.json.gz"))


def load_trace(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def new_game(trace, engine):
    """A one-env game on the trace's map (its rows pin the engine's dealt hills) as the
    engine plays it: no food at the reset, with the engine switches if ``engine``."""
    config = Config(board=trace["map"]["rows"], num_players=len(trace["players"]),
                    hills_per_player=trace["hills_per_player"], max_turns=trace["max_turns"],
                    max_food=trace["max_food"], spawn_food_at_reset=False,
                    **(ENGINE if engine else {}))
    game = AntsGame(config)
    game.reset(seed=0)
    return game


def food_cells(food):
    """(x, y, count) of ``food`` ((x, y) per food), in the order of first appearance."""
    return [(x, y, n) for (x, y), n in Counter(map(tuple, food)).items()]


def next_ant_ids(trace):
    """Per turn record, the id the engine gives its next ant (ids are never reused)."""
    highest = max(ant[1] for ant in trace["turns"][0]["ants"])
    out = []
    for record in trace["turns"]:
        out.append(highest + 1)
        highest = max([highest] + [ant[1] for ant in record["events"]["spawned_ants"]])
    return out


def elim_turns(trace):
    """Per colony, the first turn record where it is out (botarena's elim_turn), or None."""
    out = [None] * len(trace["players"])
    for record in trace["turns"] + [trace["final"]]:
        for a, alive in enumerate(record["alive"]):
            if not alive and out[a] is None:
                out[a] = record["turn"]
    return out


def snapshot_of(record, next_id, elim, max_turns):
    """The trace's state before turn ``record["turn"]`` as a ``snapshot()`` dict."""
    return {
        "turn": record["turn"],
        "ants": [{"owner": o, "id": i, "x": x, "y": y} for o, i, x, y in record["ants"]],
        "next_ant_id": next_id,
        "hills": [{"owner": o, "x": x, "y": y, "razed": r} for o, x, y, r in record["hills"]],
        "food": food_cells(record["food"]),
        "stored_food": record["stored_food"],
        "scores": record["scores"],
        "alive": record["alive"],
        "elim_turn": [max_turns + 1 if alive else elim[a]
                      for a, alive in enumerate(record["alive"])],
    }


def commands(game, record):
    """The recorded commands as the per-cell command grid ``int[A, H*W]``."""
    actions = np.zeros(game.actions.shape[1:], dtype=np.int64)
    for a, orders in enumerate(record["commands"]):
        for _, x, y, direction in orders or ():
            actions[a, y * game.width + x] = direction
    return actions


def compared(ants, hills, food, stored_food, scores, alive):
    """The compared fields in one form for both sides."""
    return {"ants": sorted(tuple(ant) for ant in ants),
            "hills": [tuple(hill) for hill in hills],
            "food": sorted((x, y, n) for x, y, n in food),
            "stored_food": [int(v) for v in stored_food], "scores": [int(v) for v in scores],
            "alive": [bool(v) for v in alive]}


def ours(game):
    snap = game.snapshot(0)
    return compared([(d["owner"], d["id"], d["x"], d["y"]) for d in snap["ants"]],
                    [(h["owner"], h["x"], h["y"], h["razed"]) for h in snap["hills"]],
                    snap["food"], snap["stored_food"], snap["scores"], snap["alive"])


def theirs(record):
    return compared(record["ants"], record["hills"], food_cells(record["food"]),
                    record["stored_food"], record["scores"], record["alive"])


def side_by_side(game, mine, engine, title):
    """Both states: boards side by side, then every field that differs."""
    water = game.map.water
    boards = [render.board_rows(water, [(o, x, y) for o, _, x, y in side["ants"]],
                                side["hills"], [(x, y) for x, y, _ in side["food"]])
              for side in (mine, engine)]
    lines = [title, f"{'botarena':<{game.width + 4}}engine"]
    lines += [f"{a}    {b}" for a, b in zip(*boards)]
    for key in FIELDS:
        if mine[key] != engine[key]:
            lines += [f"{key}:", f"  botarena {mine[key]}", f"  engine   {engine[key]}"]
    return "\n".join(lines)


def replay(trace, engine):
    """Replay every turn (all of them with the engine switches, the unmarked ones without);
    returns (turns compared, fields compared); fails at the first divergence."""
    game = new_game(trace, engine)
    records = trace["turns"] + [trace["final"]]
    ids, elim = next_ant_ids(trace), elim_turns(trace)
    turns = 0
    for t, record in enumerate(trace["turns"]):
        if record["engine_vs_rules"] and not engine:
            continue
        game.restore(snapshot_of(record, ids[t], elim, trace["max_turns"]))
        events = record["events"]
        spawned = sorted(events["spawned_ants"], key=lambda ant: ant[1])
        game.step_drawn(commands(game, record), food=events["spawned_food"],
                        spawn_hills=[(x, y) for _, _, x, y in spawned])
        mine, expected = ours(game), theirs(records[t + 1])
        assert mine == expected, side_by_side(
            game, mine, expected, f"{trace['map']['name']} seed {trace['seed']}: the state "
            f"after turn {t} differs ({'engine switches' if engine else 'rules file'}; "
            f"notes: {record['engine_vs_rules']})")
        turns += 1
    return turns, turns * len(FIELDS)


def test_the_traces_are_all_there():
    paths = trace_paths()
    traces = [load_trace(path) for path in paths]
    assert len(paths) == GAMES
    assert sum(len(trace["turns"]) for trace in traces) == TURNS
    assert sum(bool(r["engine_vs_rules"]) for trace in traces for r in trace["turns"]) \
        == MARKED_TURNS


@pytest.mark.parametrize("game", range(GAMES))
def test_every_turn_matches_the_engine(game):
    trace = load_trace(trace_paths()[game])
    marked = sum(bool(record["engine_vs_rules"]) for record in trace["turns"])
    played = len(trace["turns"])
    assert replay(trace, engine=False) == (played - marked, (played - marked) * len(FIELDS))
    assert replay(trace, engine=True) == (played, played * len(FIELDS))
