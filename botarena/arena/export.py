"""From a trained policy to a contest bot: ``export_bot`` and ``check_bot``.

``export_bot(model, env_id, out, config=None)`` writes a folder: ``weights.npz`` (the
policy's action path as numpy arrays, ``numpy_policy.extract``), ``bot.json`` (the env id,
the game's config as the policy reads it, the network's settings) and the program:

- ``main.py`` for the games with a contest protocol (paint_v0, ants_v0, coderunner_v0,
  towers_v0): it speaks the protocol on stdin / stdout (``protocols``' ``Client``), puts
  a one-env game of botarena into the position of each message (``restore``), and plays
  the network's masked argmax on that game's observation and mask, with numpy only (no
  torch, no SB3);
- ``agent.py`` for dungeon_v0, whose contest ran Python agents: ``Agent(player_num,
  env)`` with ``next_move(game_state, player_state)`` as the seed describes.  It restores
  the position that botarena's runners hand over (``game_state.snapshot``: the arena's
  ``python:`` host, ``botarena-dungeon``, ``vector_env``); the seed's own runner does not
  show bomb fuses or the opponents' HP, which the observation holds, so there it raises.

The config: the one the model was trained with (``results.json`` beside it, as
``training.ppo`` writes it), the model's own ``obs_dtype``, then ``config`` over them
(e.g. ants_v0's ``max_turns``, which no ants message carries).  An observation of
another shape than the model's fails at export, naming both.

The bot computes on one thread (``main.py`` sets the BLAS libraries' thread counts
before numpy loads, the arena's ``python:`` host is started so): a contest gives a bot one
core, and OpenBLAS left to itself starts a thread per core that spin against each other
(a 13,500 x 128 layer took 13 ms instead of 0.14 ms on two busy cores).

``check_bot(folder, env_id, opponent)`` plays the bot against ``opponent`` (``cmd:`` for
``main.py``, ``python:`` for ``agent.py``) under the contest's limits, seats swapped
every game, and gives the per-move latency percentiles.
"""
import dataclasses
import json
import os
import sys

import numpy as np

from ..registry import env_module
from .numpy_policy import NumpyPolicy, extract
from .players import latency_percentiles

DUNGEON = "dungeon_v0"
WEIGHTS, META, MAIN, AGENT = "weights.npz", "bot.json", "main.py", "agent.py"
# the fields of a dungeon match's config the policy reads as it was trained
OBSERVATION_FIELDS = ("obs_dtype", "view", "shield")
MAIN_TEXT = '''"""A contest bot exported by botarena (botarena export-bot): run it as
``python main.py``; it needs numpy and botarena (for the game's observations), not torch."""
import os
import sys

for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(name, "1")    # one thread, set before numpy loads (see export.py)

from botarena.arena.export import run_exported  # noqa: E402

sys.exit(run_exported(os.path.dirname(os.path.abspath(__file__))))
'''
AGENT_TEXT = '''"""A dungeon agent exported by botarena (botarena export-bot): the seed's
``Agent(player_num, env)`` with ``next_move(game_state, player_state)``, playing a trained
policy with numpy; it needs botarena's runners (the position's snapshot), not torch."""
import os

from botarena.arena.export import ExportedAgent

FOLDER = os.path.dirname(os.path.abspath(__file__))


class Agent(ExportedAgent):
    def __init__(self, player_num, env=None):
        super().__init__(FOLDER, player_num, env)
'''


def program(env_id):
    """The file an exported bot of ``env_id`` runs."""
    return AGENT if env_id == DUNGEON else MAIN


def export_bot(model_path, env_id, out, config=None):
    """Write the bot folder ``out`` for the SB3 model at ``model_path``; returns ``out``."""
    from ..training.evaluate import load_model, trained_config
    module = env_module(env_id)
    model = load_model(model_path)
    arrays, policy = extract(model)
    space = model.observation_space
    _, trained = trained_config(model_path)
    settings = dict(trained, obs_dtype="float32" if space.dtype == np.float32 else "uint8")
    settings.update(config or {})
    game = module.Game(module.Config(**settings), 1)
    if game.observation_space.shape != space.shape:
        raise ValueError(f"the model reads observations of shape {space.shape}, {env_id} "
                         f"with the config {settings} gives {game.observation_space.shape}: "
                         "pass the config it was trained with (e.g. view=\"ego\")")
    os.makedirs(out, exist_ok=True)
    np.savez(os.path.join(out, WEIGHTS), **arrays)
    with open(os.path.join(out, META), "w") as f:
        json.dump({"env": env_id, "config": settings, "policy": policy}, f, indent=2)
    with open(os.path.join(out, program(env_id)), "w") as f:
        f.write(AGENT_TEXT if env_id == DUNGEON else MAIN_TEXT)
    return out


def load_exported(folder):
    """``(bot.json's dict, NumpyPolicy)`` of an exported bot folder."""
    with open(os.path.join(folder, META)) as f:
        meta = json.load(f)
    with np.load(os.path.join(folder, WEIGHTS)) as weights:
        arrays = dict(weights)
    return meta, NumpyPolicy(arrays, meta["policy"])


def run_exported(folder, stdin=None, stdout=None):
    """The exported bot's main loop over its game's protocol: returns the exit status."""
    from .protocols import client_class
    meta, policy = load_exported(folder)
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    client = client_class(meta["env"])(meta["env"], meta["config"])
    lines = iter(stdin.readline, "")

    def send(text):
        if text is not None:
            stdout.write(text)
            stdout.flush()

    send(client.start(lines))
    while True:
        message = client.read(lines)
        if message is None:
            return 0
        seat = client.position(message)
        game = client.game
        send(client.reply(policy.act(game.obs[0, seat], game.masks[0, seat]), message))


class ExportedAgent:
    """A dungeon agent playing an exported policy (``agent.py`` subclasses it)."""

    def __init__(self, folder, player_num, env=None):
        meta, self.policy = load_exported(folder)
        module = env_module(DUNGEON)
        trained = meta["config"]
        match = getattr(env, "config", None)
        if match is None:
            config = module.Config(**trained)
        else:
            config = dataclasses.replace(match, **{k: trained[k] for k in OBSERVATION_FIELDS
                                                   if k in trained})
        self.player_num = int(player_num)
        self.game = module.Game(config, 1)
        self.game.reset(seed=0)                       # compiles before the first tick

    def next_move(self, game_state, player_state):
        from ..envs.dungeon.agents import ACTIONS
        snapshot = getattr(game_state, "snapshot", None)
        if snapshot is None:
            raise RuntimeError("this exported agent needs botarena's dungeon runners: the "
                               "game_state lacks the snapshot its observation is built from")
        self.game.restore(snapshot, 0)
        seat = self.player_num
        return ACTIONS[self.policy.act(self.game.obs[0, seat], self.game.masks[0, seat])]


def check_bot(folder, env_id, opponent="bot:random", games=2, seed=0, config=None):
    """Play the bot in ``folder`` against ``opponent`` under the contest's limits, seats
    swapped each game; returns ``games`` (results) and ``latency_ms`` (percentiles)."""
    from .match import play
    path = os.path.join(folder, program(env_id))
    if not os.path.isfile(path):
        raise ValueError(f"{folder!r} holds no {program(env_id)}: not an exported "
                         f"{env_id} bot")
    bot = f"python:{path}" if env_id == DUNGEON else f'cmd:"{sys.executable}" "{path}"'
    results, latencies = [], []
    for g in range(games):
        seats = [bot, opponent] if g % 2 == 0 else [opponent, bot]
        result = play(env_id, seats, seed=seed + g, config=config)
        latencies += result["seats"][g % 2]["latency_s"]
        results.append(result)
    return {"env": env_id, "bot": folder, "games": results,
            "latency_ms": latency_percentiles(latencies)}


def format_check(check):
    lines = []
    for g, result in enumerate(check["games"]):
        mine = g % 2
        seat = result["seats"][mine]
        outcome = ("draw" if result["winner"] < 0 else
                   "won" if result["winner"] == mine else "lost")
        lines.append(f"game {g} (bot in seat {mine}): {outcome}, scores {result['scores']}, "
                     f"{seat['timeouts']} timeouts, {seat['garbled']} garbled, "
                     f"status {seat['status']}")
    ms = check["latency_ms"]
    lines.append("latency per move: " + ", ".join(f"{k} {v:.2f} ms" for k, v in ms.items()))
    return "\n".join(lines)
