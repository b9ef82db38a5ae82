"""dungeon_v0 against the original engine: the 12 games recorded from Coder One's 2020
engine (``shared/fidelity/dungeon``, its README gives the format), replayed tick by tick.

For every recorded tick: restore the recorded state before it, pin the engine's action
order (``set_action_order``), step the recorded actions and compare the next recorded
state field by field.  The random spawns (the trace's ``spawned``; ours: ammo at full
life, treasure on a new cell) are taken out of both sides and compared by count and kind;
the treasure timer is not compared after a treasure spawn (a fresh random draw on both
sides).  The engine's own settings: 1802 ticks for its 1800 (``max_turns``).
"""
import gzip
import json
from collections import Counter

import numpy as np
import pytest

from botarena.envs.dungeon.constants import AMMO, FLOOR, METAL, ORE, TREASURE, WOOD
from botarena.envs.dungeon_v0 import Config, DungeonGame

from shared_data import needs_shared, shared_path

pytestmark = needs_shared("fidelity", "dungeon")

TRACES = shared_path("fidelity", "dungeon")
GAMES = 12
TICKS = 9090
ACTION_INDEX = {"": 0, "u": 1, "d": 2, "l": 3, "r": 4, "p": 5}
BLOCK_TILES = {"ib": METAL, "sb": WOOD, "ob": ORE}
TILE_TAGS = {METAL: "ib", WOOD: "sb", ORE: "ob"}
ENGINE_ARMS = {"up": "u", "down": "d", "left": "l", "right": "r"}
# fields compared per tick: tick, over, players, blocks, bombs, fires, ammo, treasure,
# pending ammo timers, spawn counts by kind, treasure timer (unless a treasure spawned)
FIELDS = ("tick", "over", "players", "blocks", "bombs", "fires", "ammo", "treasure",
          "pending_ammo", "spawns", "treasure_timer")


def load_traces():
    paths = sorted(TRACES.glob("dungeon_*.json.gz"), key=lambda p: int(p.name.split("_")[1]))
    return [json.load(gzip.open(p)) for p in paths]


def engine_config(trace):
    return Config(board="\n".join(trace["initial_map"]),
                  max_turns=trace["max_iterations"] + 2,     # the engine plays 1802
                  ammo_lifetime=trace["constants"]["AMMO_PERISH_TTL"],
                  ammo_respawn=trace["constants"]["AMMO_RESPAWN_TTL"],
                  bomb_fuse=trace["constants"]["BOMB_TTL"])


def to_snapshot(state, explosions, height, width):
    """Our snapshot dict of a recorded pre-tick ``state``; ``explosions``: the previous
    tick's (they are the fire of ``state``, with their reach)."""
    tiles = np.zeros((height, width), dtype=np.uint8)
    ore_hp = {}
    for tag, x, y, hits in state["blocks"]:
        tiles[y, x] = BLOCK_TILES[tag]
        if tag == "ob":
            ore_hp[(x, y)] = hits
    for item in state["ammo"]:
        tiles[item["y"], item["x"]] = AMMO
    for item in state["treasure"]:
        tiles[item["y"], item["x"]] = TREASURE
    assert all(p["alive"] for p in state["players"])      # recorded games end at a death
    treasure = [p["ttl"] for p in state["pending"] if p["effect"] == "treasure"]
    assert len(treasure) == 1
    return {
        "tick": state["tick"], "steps": state["tick"], "over": False, "tiles": tiles,
        "ore_hp": ore_hp,
        "players": [{"x": p["x"], "y": p["y"], "hp": p["hp"], "ammo": p["ammo"],
                     "power": p["power"], "score": p["score"], "alive": True,
                     "death_tick": None} for p in state["players"]],
        "bombs": [{"x": b["x"], "y": b["y"], "owner": b["owner"], "fuse": b["ttl"],
                   "power": b["power"]} for b in state["bombs"]],
        "fires": [dict({"x": f["x"], "y": f["y"], "owner": f["owner"]},
                       **{arm: f["reach"][short] for arm, short in ENGINE_ARMS.items()})
                  for f in explosions],
        "ammo_items": [{"x": a["x"], "y": a["y"], "life": a["ttl"]} for a in state["ammo"]],
        "pending_ammo": sorted(p["ttl"] for p in state["pending"] if p["effect"] == "ammo"),
        "treasure_timer": treasure[0],
    }


def engine_view(state, spawned, over):
    """The compared fields of a recorded next state, its spawns taken out."""
    new_ammo = sum(s["kind"] == "ammo" and s["ok"] for s in spawned)
    new_treasure = sum(s["kind"] == "treasure" and s["ok"] for s in spawned)
    ammo = state["ammo"][:len(state["ammo"]) - new_ammo]
    treasure = state["treasure"][:len(state["treasure"]) - new_treasure]
    pending = state["pending"]
    return {
        "tick": state["tick"],
        "over": over,
        "players": [(p["x"], p["y"], p["hp"], p["ammo"], p["score"], p["power"], p["alive"])
                    for p in state["players"]],
        "blocks": sorted((tag, x, y, hits) for tag, x, y, hits in state["blocks"]),
        "bombs": [(b["owner"], b["x"], b["y"], b["ttl"], b["power"]) for b in state["bombs"]],
        "fires": sorted(tuple(f) for f in state["fires"]),
        "ammo": sorted((a["x"], a["y"], a["ttl"]) for a in ammo),
        "treasure": sorted((t["x"], t["y"]) for t in treasure),
        "pending_ammo": sorted(p["ttl"] for p in pending if p["effect"] == "ammo"),
        "spawns": sorted(Counter(s["kind"] for s in spawned if s["ok"]).items()),
        "treasure_timer": None if new_treasure else
        [p["ttl"] for p in pending if p["effect"] == "treasure"][0],
    }


def our_view(before, after, lifetime):
    """The same fields of our snapshot ``after`` a tick from ``before``, our spawns (ammo
    at full life, treasure on a cell that had none) taken out."""
    tiles = after["tiles"]
    had_treasure = before["tiles"] == TREASURE
    new_treasure = (tiles == TREASURE) & ~had_treasure
    spawns = Counter()
    spawns["ammo"] = sum(a["life"] == lifetime for a in after["ammo_items"])
    spawns["treasure"] = int(new_treasure.sum())
    blocks = []
    for y, x in zip(*np.nonzero((tiles != FLOOR) & (tiles <= ORE))):
        tile = int(tiles[y, x])
        x, y = int(x), int(y)
        hits = None if tile == METAL else after["ore_hp"][(x, y)] if tile == ORE else 1
        blocks.append((TILE_TAGS[tile], x, y, hits))
    fires = []
    for f in after["fires"]:
        fires.append((f["owner"], f["x"], f["y"]))
        for arm, (dx, dy) in (("up", (0, 1)), ("down", (0, -1)), ("left", (-1, 0)),
                              ("right", (1, 0))):
            fires += [(f["owner"], f["x"] + k * dx, f["y"] + k * dy)
                      for k in range(1, f[arm] + 1)]
    return {
        "tick": after["tick"],
        "over": after["over"],
        "players": [(p["x"], p["y"], p["hp"], p["ammo"], p["score"], p["power"], p["alive"])
                    for p in after["players"]],
        "blocks": sorted(blocks),
        "bombs": [(b["owner"], b["x"], b["y"], b["fuse"], b["power"]) for b in after["bombs"]],
        "fires": sorted(fires),
        "ammo": sorted((a["x"], a["y"], a["life"]) for a in after["ammo_items"]
                       if a["life"] != lifetime),
        "treasure": sorted((int(x), int(y)) for y, x in zip(*np.nonzero(tiles == TREASURE))
                           if had_treasure[y, x]),
        "pending_ammo": after["pending_ammo"],
        "spawns": sorted((kind, n) for kind, n in spawns.items() if n),
        "treasure_timer": None if spawns["treasure"] else after["treasure_timer"],
    }


def side_by_side(trace, k, ours, engine):
    lines = [f"seed {trace['seed']}, tick {k}: first divergence"]
    for field in FIELDS:
        mark = "  " if ours[field] == engine[field] else "!!"
        lines.append(f"{mark} {field}:\n     ours   {ours[field]}\n     engine {engine[field]}")
    return "\n".join(lines)


def replay(trace):
    """(ticks compared, fields compared, ticks with the order pinned); asserts every tick."""
    game = DungeonGame(engine_config(trace), num_envs=1)
    game.reset(seed=trace["seed"])
    ticks = trace["ticks"]
    lifetime = game.config.ammo_lifetime
    fields = pinned = 0
    for k, record in enumerate(ticks):
        explosions = ticks[k - 1]["explosions"] if k else []
        before = to_snapshot(record["state"], explosions, game.height, game.width)
        game.restore(before)
        applied = [pid for pid, _, _ in record["applied"]]
        if len(applied) > 1:
            others = [a for a in game.live_agents() if a not in applied]
            game.set_action_order(applied + others)
            pinned += 1
        game.step(np.array([[ACTION_INDEX[a] for a in record["actions"]]]))
        nxt = trace["final"] if k + 1 == len(ticks) else ticks[k + 1]["state"]
        engine = engine_view(nxt, record["spawned"], nxt.get("is_over", False))
        ours = our_view(before, game.snapshot(), lifetime)
        assert ours == engine, side_by_side(trace, k, ours, engine)
        fields += len(FIELDS)
    return len(ticks), fields, pinned


def test_every_recorded_tick_matches_the_engine():
    traces = load_traces()
    assert len(traces) == GAMES
    ticks = fields = pinned = order_matters = 0
    for trace in traces:
        t, f, p = replay(trace)
        ticks, fields, pinned = ticks + t, fields + f, pinned + p
        order_matters += sum(r["order_matters"] for r in trace["ticks"])
    assert ticks == TICKS
    assert fields == TICKS * len(FIELDS)
    assert order_matters == 114                 # all compared, the engine's order pinned
    assert pinned == 7571                       # ticks with both players acting
