"""From a trained policy to a contest bot: ``export_bot`` and ``check_bot``.

``export_bot(model, env_id, out)`` writes a folder: ``weights.npz`` (the policy network's
layers as numpy arrays), ``bot.json`` (env id, observation settings, activation) and
``main.py``, a program that speaks the game's contest protocol on stdin / stdout and
plays the policy with numpy only (no torch, no SB3): each message becomes the game's
position (``restore``), botarena's own observation encoder gives the observation and the
action mask, the network's masked argmax the move.  Supported: ``paint_v0``, models with
an ``MlpPolicy`` (a flattened observation, dense layers with tanh or ReLU), as
``botarena.training.ppo`` trains by default.

``check_bot(folder, env_id, opponent)`` plays the bot as a ``cmd:`` player against a
scripted one under the contest's limits, in both seats, and gives the per-move latency
percentiles.
"""
import json
import os
import sys

import numpy as np

from ..registry import env_module
from .players import latency_percentiles

SUPPORTED = ("paint_v0",)
ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}
WEIGHTS, META, MAIN = "weights.npz", "bot.json", "main.py"
MAIN_TEXT = '''"""A contest bot exported by botarena (botarena export-bot): run it as
``python main.py``; it needs numpy and botarena (for the game's observations), not torch."""
import os
import sys

from botarena.arena.export import run_exported

sys.exit(run_exported(os.path.dirname(os.path.abspath(__file__))))
'''


def _layers(model):
    """``[(weight, bias, activation)]`` of the policy's path from observation to logits."""
    import torch.nn as nn
    policy = model.policy
    if type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ValueError("export-bot handles MlpPolicy models (a flattened observation); "
                         f"this one has a {type(policy.features_extractor).__name__}")
    layers, pending = [], None
    for module in list(policy.mlp_extractor.policy_net) + [policy.action_net]:
        if isinstance(module, nn.Linear):
            if pending is not None:
                layers.append(pending)
            pending = [module.weight.detach().numpy(), module.bias.detach().numpy(), "linear"]
        elif type(module).__name__ in ACTIVATIONS and pending is not None:
            pending[2] = ACTIVATIONS[type(module).__name__]
        else:
            raise ValueError(f"export-bot can't translate the layer {module}")
    layers.append(pending)
    return layers


def export_bot(model_path, env_id, out):
    """Write the bot folder ``out`` for the SB3 model at ``model_path``; returns ``out``."""
    if env_id not in SUPPORTED:
        raise ValueError(f"export-bot supports {', '.join(SUPPORTED)}; not {env_id}")
    from stable_baselines3.common.preprocessing import is_image_space
    from ..training.evaluate import load_model, trained_config
    model = load_model(model_path)
    layers = _layers(model)
    space = model.observation_space
    _, trained = trained_config(model_path)
    os.makedirs(out, exist_ok=True)
    arrays = {}
    for i, (weight, bias, _) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = weight, bias
    np.savez(os.path.join(out, WEIGHTS), **arrays)
    meta = {"env": env_id, "obs_shape": list(space.shape),
            "obs_dtype": "float32" if space.dtype == np.float32 else "uint8",
            "view": trained.get("view"),
            "scale": bool(model.policy.normalize_images and is_image_space(space)),
            "activations": [activation for _, _, activation in layers]}
    with open(os.path.join(out, META), "w") as f:
        json.dump(meta, f, indent=2)
    with open(os.path.join(out, MAIN), "w") as f:
        f.write(MAIN_TEXT)
    return out


class NumpyPolicy:
    """The exported network: ``act(obs, mask)`` is the masked argmax of its logits."""
    FUNCTIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0), "linear": lambda x: x}

    def __init__(self, folder):
        with open(os.path.join(folder, META)) as f:
            self.meta = json.load(f)
        weights = np.load(os.path.join(folder, WEIGHTS))
        self.layers = [(weights[f"w{i}"], weights[f"b{i}"], self.FUNCTIONS[a])
                       for i, a in enumerate(self.meta["activations"])]

    def act(self, obs, mask):
        x = np.asarray(obs, dtype=np.float32).reshape(-1)
        if self.meta["scale"]:
            x = x / np.float32(255.0)
        for weight, bias, function in self.layers:
            x = function(weight @ x + bias)
        logits = np.where(np.asarray(mask, dtype=bool), x, -np.inf)
        return int(np.argmax(logits))


def paint_position(state, player_id):
    """(snapshot, seat, board config) of a paint protocol state for ``restore``."""
    names = list(state["player_positions"])
    colour = np.zeros((state["height"], state["width"]), dtype=np.int16)
    for r, row in enumerate(state["colors"]):
        for c, owner in enumerate(row):
            if owner is not None:
                colour[r, c] = names.index(owner) + 1
    for r, c in state.get("obstacles", []):
        colour[r, c] = -1
    positions = np.array([state["player_positions"][n] for n in names], dtype=np.int16)
    snapshot = {"colour": colour, "positions": positions, "turns_left": state["turns_left"],
                "steps": len(state["previous_actions"]), "over": False}
    board = {"board": "random", "width": state["width"], "height": state["height"],
             "num_players": len(names),
             "max_turns": state["turns_left"] + len(state["previous_actions"])}
    return snapshot, names.index(player_id), board


def run_exported(folder):
    """The exported bot's main loop (paint's protocol): returns the exit status."""
    policy = NumpyPolicy(folder)
    module = env_module(policy.meta["env"])
    options = {"obs_dtype": policy.meta["obs_dtype"]}
    if policy.meta["view"]:
        options["view"] = policy.meta["view"]
    from .protocols.paint import action_json
    hello = json.loads(sys.stdin.readline())
    warm = module.Game(module.Config(**options), 1)   # compiles before the first turn
    warm.reset(seed=0)
    warm.restore(warm.snapshot(0), 0)
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    games = {}                                        # one game a board size
    for line in sys.stdin:
        state = json.loads(line)
        snapshot, seat, board = paint_position(state, hello["player_id"])
        key = tuple(sorted(board.items()))
        if key not in games:
            games[key] = module.Game(module.Config(**board, **options), 1)
            games[key].reset(seed=0)
        game = games[key]
        game.restore(snapshot, 0)
        action = policy.act(game.obs[0, seat], game.masks[0, seat])
        reply = {"turns_left": state["turns_left"]}
        reply.update(action_json(action) or {"type": "walk", "direction": [0, 0]})
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


def check_bot(folder, env_id, opponent="bot:random", games=2, seed=0, config=None):
    """Play the bot in ``folder`` against ``opponent`` under the contest's limits, seats
    swapped each game; returns ``games`` (results) and ``latency_ms`` (percentiles)."""
    from .match import play
    main = os.path.join(folder, MAIN)
    if not os.path.isfile(main):
        raise ValueError(f"{folder!r} holds no {MAIN}: not an exported bot")
    bot = f'cmd:"{sys.executable}" "{main}"'
    results, latencies = [], []
    for g in range(games):
        seats = [bot, opponent] if g % 2 == 0 else [opponent, bot]
        result = play(env_id, seats, seed=seed + g, config=config)
        mine = g % 2
        latencies += result["seats"][mine]["latency_s"]
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
