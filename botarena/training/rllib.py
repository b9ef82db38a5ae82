"""Train PPO with RLlib (Ray) on a botarena game, against scripted bots and a league of
frozen snapshots of the learner (``pip install botarena[rllib]``).

    python -m botarena.training.rllib --env paint_v0 --minutes 5 --out runs/rllib/paint_v0
    python -m botarena.training.rllib --env paint_v0 --address auto --num-env-runners 8

Multi-agent PPO on RLlib's new API stack (``botarena.rllib``): each episode of an env
runner's envs draws one of ``--opponent`` (comma-separated bot names of the game, ``bot:``
prefix optional, and ``self``; default ``training.ppo``'s) and a seat for the learner.  The
bots play inside the env; against ``self`` the other seats are agents that the policy
mapping gives, per episode, to one snapshot of the league: a frozen copy of the learner
taken at the start and every ``--league-every`` iterations, the oldest dropped past
``--league-size``.  Only the module ``learner`` is trained.  Each iteration prints the env
steps, their rate, the learner's mean return, its win rate against each opponent and the
losses; the algorithm is saved to ``<out>/checkpoint`` every ``--checkpoint-every``
iterations and at the end.  Training stops after ``--minutes`` of wall clock or
``--iterations``, whichever comes first.  Then the saved checkpoint is loaded back
(``botarena.rllib.load_policy``) and evaluated as the SB3 trainer's models are
(``training.evaluate``: win/draw/loss against ``random`` and ``greedy``, ``--eval-games``
games each, seats alternating), and everything goes to ``<out>/results.json``, with the
node of every env runner.

``--address``: a running Ray cluster (``auto``: the one this machine belongs to, started
with ``ray start``); without it a local Ray instance starts and ends with the run.  Game
config and PPO settings: ``training.recipes``' (the game's recipe's config,
``DEFAULT_PPO``), ``--config KEY=VALUE`` over them.
"""
import argparse
import json
import os
import time
import zlib

import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

import botarena
import botarena.rllib
from botarena.rllib import LEARNER, RLLIB_IDS, SELF, BatchedEnvRunner, module_spec
from botarena.rllib.module import DEFAULT_HIDDEN
from botarena.wrappers.opponents import BOT_PREFIX

from .evaluate import evaluate, format_result, parse_config
from .recipes import DEFAULT_OPPONENT, DEFAULT_PPO, env_config

DEFAULT_MINUTES = 5.0
DEFAULT_ENV_RUNNERS = 1
DEFAULT_ENVS_PER_RUNNER = 8         # games per env runner
BATCHED, COPIES = "batched", "copies"
ENV_RUNNERS = (BATCHED, COPIES)
DEFAULT_FRAGMENT = 128              # env steps per game per sample (training.ppo's n_steps)
DEFAULT_MINIBATCH = 1024            # training.ppo's batch_size
DEFAULT_LEAGUE_EVERY = 10           # iterations between snapshots
DEFAULT_LEAGUE_SIZE = 8             # snapshots kept
DEFAULT_CHECKPOINT_EVERY = 20       # iterations between checkpoints
DEFAULT_EVAL_GAMES = 200
EVAL_OPPONENTS = ("random", "greedy")   # every game's (training.ppo: the recipe's)
EVAL_SEED = 10_000
WIN_RATE_WINDOW = 100               # episodes over which the win rates are averaged
SNAPSHOT_PREFIX = "snapshot_"
CHECKPOINT_DIR = "checkpoint"
POSITIVE_ARGS = ("envs_per_runner", "fragment", "threads", "league_every", "league_size",
                 "checkpoint_every")
NON_NEGATIVE_ARGS = ("num_env_runners", "eval_games")


class LeagueMapping:
    """The policy mapping: the agent ``learner`` to the trained module, every other agent
    (the seats of a ``self`` episode) to the league snapshot that the episode's id picks."""

    def __init__(self, league):
        self.league = list(league)

    def __call__(self, agent_id, episode, **kwargs):
        if agent_id == LEARNER:
            return LEARNER
        if not self.league:
            raise RuntimeError("a self-play episode started before the league had a snapshot")
        return self.league[zlib.crc32(str(episode.id_).encode()) % len(self.league)]


class OutcomeCallback(RLlibCallback):
    """Logs, per opponent, the learner's wins (the mean over ``WIN_RATE_WINDOW`` episodes)
    as ``env_runners/win_rate/<opponent>``."""

    def on_episode_end(self, *, episode, metrics_logger, **kwargs):
        learner = episode.agent_episodes.get(LEARNER)
        if learner is None:
            return
        info = learner.get_infos(-1)
        if "outcome" in info:
            metrics_logger.log_value(("win_rate", info["opponent"]), float(info["outcome"] > 0),
                                     reduce="mean", window=WIN_RATE_WINDOW)


def opponent_names(env_id, text):
    """``--opponent`` as a list of bot names and ``self``; ``SystemExit`` for an unknown one."""
    bots = botarena.game(env_id).bots
    names = [part.strip().removeprefix(BOT_PREFIX) for part in text.split(",")]
    for name in names:
        if name != SELF and name not in bots:
            raise SystemExit(f"unknown opponent {name!r} for {env_id}: bots {', '.join(bots)} "
                             f"or {SELF}")
    return names


def build_config(args, config, opponents):
    """The ``PPOConfig``: the env with its opponents, the env runners, PPO's settings
    (``training.ppo``'s), the module ``learner`` (``botarena.rllib.module_spec``)."""
    ppo = DEFAULT_PPO
    batch = args.fragment * args.envs_per_runner * max(args.num_env_runners, 1)
    runner = {"env_runner_cls": BatchedEnvRunner} if args.env_runner == BATCHED else {}
    return (PPOConfig()
            .environment(RLLIB_IDS[args.env], env_config={**config, "opponent": opponents})
            .env_runners(num_env_runners=args.num_env_runners,
                         num_envs_per_env_runner=args.envs_per_runner,
                         rollout_fragment_length=args.fragment, **runner)
            .training(train_batch_size_per_learner=batch,
                      minibatch_size=min(DEFAULT_MINIBATCH, batch),
                      num_epochs=ppo["n_epochs"], lr=ppo["learning_rate"], gamma=ppo["gamma"],
                      lambda_=ppo["gae_lambda"], clip_param=ppo["clip_range"],
                      entropy_coeff=ppo["ent_coef"], vf_loss_coeff=ppo["vf_coef"],
                      grad_clip=ppo["max_grad_norm"])
            .multi_agent(policies={LEARNER}, policy_mapping_fn=LeagueMapping([]),
                         policies_to_train=[LEARNER])
            .rl_module(rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={LEARNER: module_spec(_ints(args.hidden))}))
            .callbacks(OutcomeCallback)
            .debugging(seed=args.seed))


def add_snapshot(algo, league, index, size):
    """Freeze the learner's current weights as module ``snapshot_<index>`` of ``league``
    (dropping the oldest past ``size``), on the learner and every env runner."""
    learner = algo.get_module(LEARNER)
    module_id = f"{SNAPSHOT_PREFIX}{index}"
    league.append(module_id)
    algo.add_module(module_id=module_id, module_spec=RLModuleSpec.from_module(learner),
                    new_agent_to_module_mapping_fn=LeagueMapping(league),
                    new_should_module_be_updated=[LEARNER])
    algo.set_state({"learner_group": {"learner": {"rl_module": {module_id: learner.get_state()}}}})
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group,
                                       policies=[module_id], inference_only=True)
    while len(league) > size:
        algo.remove_module(league.pop(0), new_agent_to_module_mapping_fn=LeagueMapping(league))


def env_runner_nodes(algo):
    """The Ray node id of every remote env runner (of the local one with none)."""
    remote = algo.env_runner_group.num_remote_env_runners() > 0
    return algo.env_runner_group.foreach_env_runner(
        lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=not remote)


def progress(result, steps_per_sec):
    """One line: env steps and their rate, return, win rates, losses."""
    runners, learner = result["env_runners"], result.get("learners", {}).get(LEARNER, {})
    ret = runners.get("agent_episode_returns_mean", {}).get(LEARNER, float("nan"))
    wins = " ".join(f"{k} {v:.2f}" for k, v in sorted(runners.get("win_rate", {}).items()))
    losses = " ".join(f"{k} {learner[k]:.3g}" for k in ("policy_loss", "vf_loss", "entropy")
                      if k in learner)
    return (f"iter {result['training_iteration']:4d}  "
            f"{int(runners['num_env_steps_sampled_lifetime']):>9,} env steps  "
            f"{steps_per_sec:6.0f}/s  return {ret:7.2f}  win {wins or '-'}  {losses}")


def _ints(text):
    return [int(x) for x in text.split(",") if x]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", default="paint_v0")
    p.add_argument("--minutes", type=float, default=None,
                   help=f"wall-clock budget of the training (default {DEFAULT_MINUTES} "
                        "without --iterations)")
    p.add_argument("--iterations", type=int, default=None, help="PPO iterations at most")
    p.add_argument("--address", default=None,
                   help="Ray cluster to join (auto: the one started here with ray start); "
                        "default: a local Ray instance")
    p.add_argument("--num-env-runners", type=int, default=DEFAULT_ENV_RUNNERS,
                   help="remote env runners (0: sample in the driver)")
    p.add_argument("--envs-per-runner", type=int, default=DEFAULT_ENVS_PER_RUNNER)
    p.add_argument("--env-runner", choices=ENV_RUNNERS, default=BATCHED,
                   help="batched: each env runner steps its games in one batched core "
                        "(botarena.rllib.BatchedEnvRunner); copies: RLlib's own runner, a "
                        "vector of separate one-game envs")
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads of the learner (training.ppo's default)")
    p.add_argument("--fragment", type=int, default=DEFAULT_FRAGMENT,
                   help="env steps per game per sample; the train batch is fragment x envs "
                        "per runner x runners")
    p.add_argument("--opponent", default=DEFAULT_OPPONENT,
                   help="comma-separated bot names and 'self' (league snapshots), one drawn "
                        f"per episode (default {DEFAULT_OPPONENT})")
    p.add_argument("--league-every", type=int, default=DEFAULT_LEAGUE_EVERY)
    p.add_argument("--league-size", type=int, default=DEFAULT_LEAGUE_SIZE)
    p.add_argument("--hidden", default=",".join(map(str, DEFAULT_HIDDEN)),
                   help="hidden units of the policy's and the value's MLPs")
    p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                   help="game config (JSON values) over training.ppo's per-game defaults")
    p.add_argument("--checkpoint-every", type=int, default=DEFAULT_CHECKPOINT_EVERY)
    p.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES,
                   help="games per evaluation opponent (0: no evaluation)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="output folder (default runs/rllib/<env>)")
    args = p.parse_args(argv)
    for name in POSITIVE_ARGS + NON_NEGATIVE_ARGS:
        value, low = getattr(args, name), 1 if name in POSITIVE_ARGS else 0
        if value < low:
            p.error(f"--{name.replace('_', '-')} must be >= {low}, got {value}")
    if args.minutes is None and args.iterations is None:
        args.minutes = DEFAULT_MINUTES
    args.out = args.out or os.path.join("runs", "rllib", args.env)
    return args


def train(args):
    """Train as the module docstring says; returns the results dict (also written to
    ``<out>/results.json``)."""
    torch.set_num_threads(args.threads)
    config = env_config(args.env, parse_config(args.config))
    opponents = opponent_names(args.env, args.opponent)
    started_ray = not ray.is_initialized()
    if started_ray:
        ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    botarena.rllib.register_envs()
    checkpoint = os.path.abspath(os.path.join(args.out, CHECKPOINT_DIR))
    try:
        algo = build_config(args, config, opponents).build_algo()
        league = []
        if SELF in opponents:
            add_snapshot(algo, league, 0, args.league_size)
        nodes = env_runner_nodes(algo)
        print(f"training {args.env} with RLlib: {args.num_env_runners} env runner(s) x "
              f"{args.envs_per_runner} games on nodes {sorted(set(nodes))}, opponents "
              f"{opponents}, config {config}", flush=True)
        history, result = [], None
        t0 = time.perf_counter()
        deadline = t0 + args.minutes * 60 if args.minutes is not None else None
        while ((args.iterations is None or len(history) < args.iterations)
               and (deadline is None or time.perf_counter() < deadline)):
            result = algo.train()
            seconds = time.perf_counter() - t0
            steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
            print(progress(result, steps / seconds), flush=True)
            history.append(_summary(result, seconds))
            iteration = result["training_iteration"]
            if SELF in opponents and iteration % args.league_every == 0:
                add_snapshot(algo, league, iteration // args.league_every, args.league_size)
            if iteration % args.checkpoint_every == 0:
                algo.save_to_path(checkpoint)
        seconds = time.perf_counter() - t0
        algo.save_to_path(checkpoint)
        algo.stop()
    finally:
        if started_ray:
            ray.shutdown()
    print(f"saved {checkpoint}", flush=True)
    results = {
        "env": args.env, "config": config, "opponents": opponents, "league": league,
        "num_env_runners": args.num_env_runners, "envs_per_runner": args.envs_per_runner,
        "env_runner": args.env_runner,
        "env_runner_nodes": nodes, "iterations": len(history), "seconds": round(seconds, 1),
        "env_steps": history[-1]["env_steps"] if history else 0,
        "env_steps_per_sec": round(history[-1]["env_steps"] / seconds, 1) if history else 0.0,
        "history": history, "checkpoint": checkpoint, "eval": evaluate_checkpoint(args, config),
        "load_average": [round(x, 2) for x in os.getloadavg()], "args": vars(args),
    }
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    print(f"wrote {os.path.join(args.out, 'results.json')}", flush=True)
    return results


def _summary(result, seconds):
    runners, learner = result["env_runners"], result.get("learners", {}).get(LEARNER, {})
    return {"iteration": result["training_iteration"], "seconds": round(seconds, 1),
            "env_steps": int(runners["num_env_steps_sampled_lifetime"]),
            "return": runners.get("agent_episode_returns_mean", {}).get(LEARNER),
            "win_rate": dict(runners.get("win_rate", {})),
            "losses": {k: float(learner[k]) for k in ("policy_loss", "vf_loss", "entropy",
                                                      "total_loss") if k in learner}}


def evaluate_checkpoint(args, config):
    """The saved learner, loaded back, against ``EVAL_OPPONENTS`` (``training.evaluate``)."""
    if args.eval_games == 0:
        return {}
    policy = botarena.rllib.load_policy(os.path.join(args.out, CHECKPOINT_DIR))
    eval_config = {k: v for k, v in config.items() if k != "reward"}
    evals = {}
    for opponent in EVAL_OPPONENTS:
        evals[opponent] = evaluate(policy, args.env, opponent, games=args.eval_games,
                                   seed=EVAL_SEED + args.seed, **eval_config)
        print(format_result(evals[opponent]), flush=True)
    return evals


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    return train(args)


if __name__ == "__main__":
    main()
