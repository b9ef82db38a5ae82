"""Policies exported as contest bots: numpy against torch for every architecture the
trainer builds, every protocol's client rebuilding the observation the game shows, and an
exported bot playing the same moves as the model in process, over whole short games of
every game.  The models are untrained (their initial random weights) and named so."""
import json
import os
import sys

import numpy as np
import pytest

import botarena
from botarena.arena.cli import main as cli_main
from botarena.arena.export import check_bot, export_bot
from botarena.arena.match import play
from botarena.arena.numpy_policy import NumpyPolicy, extract
from botarena.arena.players import ScriptedPlayer, env_game
from botarena.arena.protocols import client_class, protocol_class
from botarena.arena.spec import parse_spec

RANDOM_OBSERVATIONS = 4
LOGIT_TOLERANCE = 1e-5
SMALL = {"channels": (8, 8), "features_dim": 16}


def build_model(arch, env_id, config):
    """An untrained MaskablePPO model of ``arch`` as ``training.ppo`` builds it (small
    layers), on ``env_id`` with ``config`` (float32 observations, as it trains)."""
    from sb3_contrib import MaskablePPO
    from botarena.training.cells import CellsPolicy
    from botarena.training.paths import PathPlanes
    from botarena.training.policies import build_extractors
    venv = botarena.vector_env(env_id, 2, opponent="random", seed=0, obs_dtype="float32",
                               **config)
    module = botarena.env_module(env_id)
    policy, kwargs = "MlpPolicy", {"net_arch": [16, 16]}
    if arch == "cells":
        policy, kwargs = CellsPolicy, {"channels": (8, 8), "value_hidden": 16,
                                       "unit_moves": module.UNIT_MOVES,
                                       "units_plane": module.UNITS_PLANE}
    elif arch == "cells_bf16":
        policy, kwargs = CellsPolicy, {"channels": (8, 8), "value_hidden": 16, "bf16": True}
    elif arch == "cells_coords":
        policy, kwargs = CellsPolicy, {"channels": (8, 8), "value_hidden": 16, "coords": True}
    elif arch != "mlp":
        extractors = dict(build_extractors(), paths=PathPlanes)
        extractor_kwargs = {"cnn": SMALL,
                            "ego": {"features_dim": 16, "scalars": (5,), "drop": (0,),
                                    "radius": 3},
                            "paths": dict(getattr(module, "PATH_PLANES", {}), channels=(8,),
                                          values=4)}[arch]
        kwargs.update(features_extractor_class=extractors[arch],
                      features_extractor_kwargs=extractor_kwargs,
                      share_features_extractor=False)
    return MaskablePPO(policy, venv, seed=0, policy_kwargs=kwargs), venv


ARCHS = {                    # arch -> the game and config it is checked on
    "mlp": ("paint_v0", {}),
    "mlp_multidiscrete": ("towers_v0", {}),
    "cnn": ("paint_v0", {}),
    "ego": ("paint_v0", {"view": "ego"}),
    "paths": ("dungeon_v0", {"view": "board"}),
    "cells": ("ants_v0", {}),
    "cells_bf16": ("ants_v0", {}),
    "cells_coords": ("towers_v0", {}),
}


def log_softmax(logits):
    shifted = logits - logits.max(-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))


def float32_group(name, env_id):
    """Parameter ``name`` of a test whose model reads ``env_id``'s float32 observations: in
    the game's float32 xdist group (``tests/conftest.py``), whose worker compiles those
    kernels once for all of them."""
    return pytest.param(name, marks=pytest.mark.xdist_group(f"{env_id}:float32"))


@pytest.mark.parametrize("name", [float32_group(name, env_id)
                                  for name, (env_id, _) in ARCHS.items()])
def test_numpy_logits_and_actions_match_torch(name):
    import torch
    env_id, config = ARCHS[name]
    arch = name if name.startswith("cells_") else name.split("_")[0]
    model, venv = build_model(arch, env_id, config)
    arrays, meta = extract(model)
    policy = NumpyPolicy(arrays, meta)
    rng = np.random.default_rng(0)
    obs, masks = venv.reset(), venv.action_masks()
    shape = obs.shape[1:]
    observations = list(obs) + [rng.random(shape, dtype=np.float32)
                                for _ in range(RANDOM_OBSERVATIONS)]
    mask_list = list(masks) + [rng.random(masks.shape[1:]) < 0.7
                               for _ in range(RANDOM_OBSERVATIONS)]
    n = meta["action"]["n"]
    for o, m in zip(observations, mask_list):
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(o[None]))
        if meta["arch"] == "cells":
            expected = dist.raw_logits.numpy()
        elif meta["action"]["kind"] == "cells":
            expected = torch.cat([d.logits for d in dist.distributions], 1).numpy()
        else:
            expected = dist.distribution.logits.numpy()
        got = policy.logits(o)
        assert np.abs(log_softmax(expected.reshape(-1, n))
                      - log_softmax(got.reshape(-1, n))).max() < LOGIT_TOLERANCE
        if meta["arch"] == "cells" and env_id == "ants_v0":   # every cell a unit's: moves
            # that stay on the map
            m = m.reshape(-1, n) & (venv.slots.game.params.move_ok != 0) | (np.arange(n) == 0)
        torch_action = model.predict(o[None], action_masks=m.reshape(1, -1),
                                     deterministic=True)[0][0]
        assert np.array_equal(np.asarray(torch_action), np.asarray(policy.act(o, m)))
    venv.close()


def test_export_refuses_what_it_cannot_translate(tmp_path):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class Unknown(BaseFeaturesExtractor):
        def __init__(self, space):
            super().__init__(space, 4)
            self.linear = nn.Linear(int(np.prod(space.shape)), 4)

        def forward(self, obs):
            return self.linear(obs.flatten(1))

    venv = botarena.vector_env("paint_v0", 2, opponent="random", seed=0, obs_dtype="float32")
    model = MaskablePPO("MlpPolicy", venv, policy_kwargs={"features_extractor_class": Unknown})
    with pytest.raises(ValueError, match="this policy has a Unknown"):
        extract(model)
    path = str(tmp_path / "untrained_board_view.zip")
    MaskablePPO("MlpPolicy", venv, policy_kwargs={"net_arch": [8]}).save(path)
    with pytest.raises(ValueError, match="observations of shape"):
        export_bot(path, "paint_v0", str(tmp_path / "bot"), config={"view": "ego"})
    venv.close()


def random_legal(game, seat, rng):
    mask = game.masks[0, seat]
    if game.actions[0, seat].shape == ():
        return int(rng.choice(np.flatnonzero(mask)))
    rows = mask.reshape(-1, game.action_values())
    return np.array([rng.choice(np.flatnonzero(r)) for r in rows])


CLIENT_GAMES = {             # env id -> (config, seed) of a whole game the clients follow
    "paint_v0": ({"max_turns": 40, "view": "ego"}, 1),
    "ants_v0": ({"max_turns": 80}, 2),
    "coderunner_v0": ({"max_turns": 300}, 1),
    "towers_v0": ({"max_turns": 60}, 1),
}


@pytest.mark.parametrize("env_id", list(CLIENT_GAMES))
def test_client_rebuilds_the_observation_and_its_reply_is_the_action(env_id):
    """Every turn of a game between two bots: each seat's client, reading the protocol's
    messages, shows the game's own observation and mask, and its reply to a random legal
    action parses back to that action."""
    config, seed = CLIENT_GAMES[env_id]
    game = env_game(env_id, config)
    game.reset(seed=seed)
    names = list(game.possible_agents)
    bots = [ScriptedPlayer(parse_spec(name), a, print, game, a)
            for a, name in enumerate(("bot:greedy", "bot:random"))]
    protocols = [protocol_class(env_id)(game, a, names) for a in range(2)]
    clients = [client_class(env_id)(env_id, config) for _ in range(2)]
    for protocol, client in zip(protocols, clients):
        client.start(iter(protocol.hello(0).splitlines(True)))
    rng = np.random.default_rng(0)
    turns = 0
    while not game.over[0]:
        for seat, (protocol, client) in enumerate(zip(protocols, clients)):
            message = client.read(iter(protocol.message(0).splitlines(True)))
            assert client.position(message) == seat
            assert np.array_equal(client.game.obs[0, seat], game.obs[0, seat]), turns
            assert np.array_equal(client.game.masks[0, seat], game.masks[0, seat]), turns
            action = random_legal(game, seat, rng)
            reply = client.reply(action, message)
            if protocol.terminator != "\n":
                reply = reply.rsplit(".", 1)[0]       # the process strips the terminator
            assert np.array_equal(protocol.parse(reply, 0), action)
        game.step(np.stack([np.asarray(b.respond(game, 0)) for b in bots])[None])
        turns += 1
    assert turns > 20


EXPORTS = {                  # env id -> (arch, the model's config, the matches' config)
    "paint_v0": ("ego", {"view": "ego"}, {}),
    "ants_v0": ("cells", {}, {"max_turns": 30}),
    "coderunner_v0": ("mlp", {"mirror": True}, {"max_turns": 60}),
    "towers_v0": ("cnn", {}, {"max_turns": 12}),
    "dungeon_v0": ("paths", {"view": "board", "shield": True}, {"max_turns": 60}),
}
# the bot the exported one meets: dungeon's scripted bots take tens of seconds to compile
# for a new observation dtype, its random bot one
OPPONENT = {"dungeon_v0": "bot:random"}


# the moves are compared, not their times: a reply late on a busy machine (dungeon's tick
# is 0.1 s) would be a no-op there and another move here
ROOMY = {"turn_s": 5.0}


def actions_of(record, seat):
    return [json.loads(line)["actions"][seat] for line in record.read_text().splitlines()[1:-1]]


@pytest.mark.parametrize("env_id", [float32_group(env_id, env_id) for env_id in EXPORTS])
def test_exported_bot_plays_the_same_moves_as_in_process(env_id, tmp_path):
    arch, trained, match = EXPORTS[env_id]
    # the matches' games show the model's float32 observations: they run the kernels its
    # env compiled (the exported bot still puts its own game into each position)
    match = dict(match, obs_dtype="float32")
    model, venv = build_model(arch, env_id, trained)
    venv.close()
    path = str(tmp_path / f"untrained_{arch}_{env_id}.zip")
    model.save(path)
    with open(tmp_path / "results.json", "w") as f:          # as training.ppo writes it
        json.dump({"env": env_id, "config": trained}, f)
    bot = export_bot(path, env_id, str(tmp_path / "bot"), config=match)
    program = "agent.py" if env_id == "dungeon_v0" else "main.py"
    assert sorted(os.listdir(bot)) == sorted(["bot.json", program, "weights.npz"])
    exported = (f"python:{bot}/{program}" if env_id == "dungeon_v0"
                else f'cmd:"{sys.executable}" {bot}/{program}')
    compared = 0
    for seed, seat in ((3, 0), (4, 1)):
        runs = []
        for player in (f"policy:{path}", exported):
            seats = [OPPONENT.get(env_id, "bot:greedy")] * 2
            seats[seat] = player
            record = tmp_path / f"{seed}-{len(runs)}.jsonl"
            result = play(env_id, seats, seed=seed, config=match, record=str(record),
                          limits=ROOMY)
            mine = result["seats"][seat]
            assert mine["moves"] == result["turns"] > 0 and mine["warnings"] == 0, mine
            runs.append(actions_of(record, seat))
        assert runs[0] == runs[1] and any(np.any(np.asarray(a) != 0) for a in runs[0])
        compared += len(runs[0])
    assert compared > 20
    assert set(mine["latency_ms"]) == {"p50", "p90", "p99", "max"}


def test_check_bot_plays_both_seats_and_times_the_moves(tmp_path, capsys):
    model, venv = build_model("mlp", "paint_v0", {})
    venv.close()
    path = str(tmp_path / "untrained_mlp_paint_v0.zip")
    model.save(path)
    bot = str(tmp_path / "bot")
    assert cli_main(["export-bot", path, "--env", "paint_v0", "--out", bot]) == 0
    check = check_bot(bot, "paint_v0", opponent="bot:random", games=2,
                      config={"max_turns": 20})
    assert [g["seats"][i % 2]["moves"] for i, g in enumerate(check["games"])] == [20, 20]
    assert set(check["latency_ms"]) == {"p50", "p90", "p99", "max"}
    with pytest.raises(ValueError, match="holds no agent.py"):
        check_bot(bot, "dungeon_v0")
    capsys.readouterr()
    assert cli_main(["check-bot", bot, "--env", "paint_v0", "--games", "1",
                     "--config", "max_turns=5"]) == 0
    out = capsys.readouterr().out
    assert "game 0 (bot in seat 0)" in out and "latency per move: p50" in out
    assert cli_main(["export-bot", path, "--env", "paint_v0", "--out", bot,
                     "--config", 'view="ego"']) == 1
    assert "observations of shape" in capsys.readouterr().err
