"""Evaluate a policy against a scripted bot (or any opponent) in alternating seats.

``evaluate(policy, env_id, opponent, games=200, seed=..., **config)`` plays ``games``
episodes of ``policy`` (an SB3 model or policy, anything with ``predict(obs, ...)``, or a
function ``f(obs, masks) -> actions``) against ``opponent`` on
``botarena.vector_env(env_id, n, opponent=opponent)``: env ``e`` seats the learner as
agent ``e % A``, so the seats alternate, and each env plays a share of the games fixed in
advance (not the first ``games`` to finish, which would favour short games).  Outcomes
come from ``infos[i]["outcome"]`` of finished episodes (+1 win, 0 draw, -1 loss against
the best opponent).

``record=DIR`` (``--record DIR``) writes every game counted as a replay,
``DIR/game-<env>.jsonl`` (``botarena.replay``; watch one with ``botarena replay FILE
--html OUT.html``): each game is then played in an env of its own (``num_envs >= games``)
and mirrored by a ``replay.BatchRecorder``, which costs a second simulation and a snapshot
per game and turn.  The seats are named ``policy`` and the opponent's name.

CLI::

    python -m botarena.training.evaluate --model runs/paint_v0/model.zip --env paint_v0 \
        --opponent greedy --games 200 [--record DIR]
"""
import argparse
import inspect
import json
import os
import time

import numpy as np

import botarena
from botarena import replay

MAX_EVAL_ENVS = 256
DEFAULT_ENV = "paint_v0"
POLICY_NAME = "policy"      # the learner's seat in recorded games


def as_act_fn(policy, deterministic=True):
    """``f(obs, masks) -> actions`` from an SB3 model / policy or a plain function."""
    predict = getattr(policy, "predict", None)
    if predict is None:
        if not callable(policy):
            raise TypeError("policy needs predict(obs, ...) or to be callable f(obs, masks)")
        return lambda obs, masks: np.asarray(policy(obs, masks))
    if "action_masks" in inspect.signature(predict).parameters:
        return lambda obs, masks: np.asarray(
            predict(obs, action_masks=masks, deterministic=deterministic)[0])
    return lambda obs, masks: np.asarray(predict(obs, deterministic=deterministic)[0])


def _obs_dtype_of(policy, default):
    space = getattr(policy, "observation_space", None)
    if space is not None and getattr(space, "dtype", None) is not None:
        return "float32" if np.dtype(space.dtype) == np.float32 else "uint8"
    return default


def _recorder(record, env_id, opponent, seed, slots, quota, config):
    """The ``BatchRecorder`` of the evaluation's games, one replay per env that plays one."""
    os.makedirs(record, exist_ok=True)
    name = opponent if isinstance(opponent, str) else repr(opponent)
    num_agents = slots.game.num_agents
    paths = [os.path.join(record, f"game-{e:04d}.jsonl") if quota[e] else None
             for e in range(len(quota))]
    agents = [[POLICY_NAME if a == seat else name for a in range(num_agents)]
              for seat in slots.learner_agent]
    return replay.BatchRecorder(env_id, config, seed, paths, agents)


def evaluate(policy, env_id, opponent="random", games=200, seed=12345, deterministic=True,
             num_envs=None, record=None, **config):
    """Play ``games`` episodes of ``policy`` against ``opponent``; returns a dict with
    ``wins, draws, losses, games, win_rate, draw_rate, loss_rate, mean_score,
    mean_margin`` and ``by_seat`` (the same counts per learner seat).  ``record``: a
    folder for a replay of every game (see the module doc)."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    config.setdefault("obs_dtype", _obs_dtype_of(policy, "float32"))
    act = as_act_fn(policy, deterministic)
    if num_envs is None:
        num_envs = games if record is not None else min(games, MAX_EVAL_ENVS)
        num_envs += num_envs % 2  # an even count balances the two seats of 2-player games
    elif record is not None and num_envs < games:
        raise ValueError(f"recording plays each game in an env of its own: num_envs "
                         f"({num_envs}) must be at least games ({games})")
    venv = botarena.vector_env(env_id, num_envs, opponent=opponent, seed=seed, **config)
    slots = venv.slots
    num_agents = slots.game.num_agents
    # Each slot plays a fixed number of games, decided before any is played: counting the
    # first ``games`` to finish would favour short games (in dungeon_v0, a loss of the
    # random bot by its own bomb against a timeout).
    quota = np.full(venv.num_envs, games // venv.num_envs)
    quota[:games % venv.num_envs] += 1
    played = np.zeros(venv.num_envs, dtype=np.int64)
    recorder = None if record is None else _recorder(record, env_id, opponent, seed, slots,
                                                     quota, config)
    outcomes, scores, margins, seats = [], [], [], []
    t0 = time.perf_counter()
    obs = venv.reset()
    steps = 0
    while (played < quota).any():
        actions = act(obs, venv.action_masks())
        obs, _, dones, infos = venv.step(actions)
        if recorder is not None:
            recorder.step(slots.game.actions, stopped=np.flatnonzero(dones))
        steps += 1
        for i in np.flatnonzero(dones):
            if played[i] >= quota[i]:
                continue
            played[i] += 1
            final = slots.game.final_scores[slots.learner_env[i]]
            seat = int(slots.learner_agent[i])
            others = np.delete(final, seat)
            outcomes.append(int(infos[i]["outcome"]))
            scores.append(int(infos[i]["score"]))
            margins.append(int(final[seat]) - int(others.max()))
            seats.append(seat)
    outcomes, seats = np.array(outcomes), np.array(seats)

    def counts(mask):
        o = outcomes[mask]
        n = max(len(o), 1)
        w, d, l = int((o > 0).sum()), int((o == 0).sum()), int((o < 0).sum())
        return {"wins": w, "draws": d, "losses": l, "games": int(len(o)), "win_rate": w / n,
                "draw_rate": d / n, "loss_rate": l / n}

    result = counts(np.ones(len(outcomes), dtype=bool))
    result.update({
        "env_id": env_id,
        "opponent": opponent if isinstance(opponent, str) else repr(opponent),
        "deterministic": bool(deterministic),
        "mean_score": float(np.mean(scores)),
        "mean_margin": float(np.mean(margins)),
        "by_seat": {str(a): counts(seats == a) for a in range(num_agents)},
        "seconds": time.perf_counter() - t0,
        "steps": steps,
        "record": record,
    })
    venv.close()
    return result


def format_result(result):
    """``win/draw/loss vs greedy: 0.97/0.01/0.02 (200 games)``."""
    return (f"win/draw/loss vs {result['opponent']}: {result['win_rate']:.2f}/"
            f"{result['draw_rate']:.2f}/{result['loss_rate']:.2f} ({result['games']} games, "
            f"mean margin {result['mean_margin']:+.1f}"
            f"{'' if result['deterministic'] else ', sampled'})")


def load_model(path):
    """An SB3 model saved by ``botarena.training.ppo`` (MaskablePPO, else PPO)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO
    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception:  # noqa: BLE001 - fall back to a plain PPO zip
        return PPO.load(path, device="cpu")


def trained_config(model_path):
    """``(env_id, config)`` a model was trained with, from the ``results.json`` that
    ``training.ppo`` writes beside ``model.zip`` (the reward left out: it does not change
    the game); ``(None, {})`` where there is none."""
    path = os.path.join(os.path.dirname(os.path.abspath(model_path)), "results.json")
    if not os.path.exists(path):
        return None, {}
    with open(path) as f:
        saved = json.load(f)
    config = {k: v for k, v in saved.get("config", {}).items() if k != "reward"}
    return saved.get("env"), config


def parse_config(items):
    config = {}
    for item in items or []:
        key, _, value = item.partition("=")
        try:
            config[key] = json.loads(value)
        except json.JSONDecodeError:
            config[key] = value
    return config


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a model zip saved by training.ppo")
    parser.add_argument("--env", default=None,
                        help="env id (default: the one the model was trained on, from the "
                             "results.json beside it, else paint_v0)")
    parser.add_argument("--opponent", nargs="+", default=["random", "greedy"],
                        help="bot name(s) of the game (e.g. random greedy)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--sample", action="store_true",
                        help="sample actions instead of playing the most likely one")
    parser.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                        help="env config (JSON values), e.g. board='\"5x11\"', over the "
                             "config the model was trained with (results.json)")
    parser.add_argument("--json", action="store_true", help="print the full results as JSON")
    parser.add_argument("--record", metavar="DIR",
                        help="write every game as a replay, in DIR/<opponent>/ (each game in "
                             "an env of its own; slower)")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(max(1, min(torch.get_num_threads(), 2)))
    model = load_model(args.model)
    env_id, config = trained_config(args.model)
    env_id = args.env or env_id or DEFAULT_ENV
    config.update(parse_config(args.config))
    results = {}
    for opp in args.opponent:
        record = None if args.record is None else os.path.join(args.record, opp)
        r = evaluate(model, env_id, opp, games=args.games, seed=args.seed,
                     deterministic=not args.sample, record=record, **config)
        results[opp] = r
        print(format_result(r), flush=True)
    if args.json:
        print(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
