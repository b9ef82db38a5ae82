"""Train MaskablePPO on a botarena game against scripted bots and self-play snapshots.

    python -m botarena.training.ppo --env paint_v0 --minutes 5 --out runs/paint_v0

Every option starts from the game's recipe (``recipes.RECIPES``); the command line wins
over it.  One shared policy plays the learner seat of ``--num-envs`` envs
(``botarena.vector_env(..., opponent=...)``); the learner's seat alternates between envs.
``--opponent`` is a comma-separated list cycled over the envs (env ``e`` plays the
``e % len``-th): bot names, ``self`` (``PolicyOpponent``, a frozen copy of the learner
refreshed every ``--self-play-every`` rollouts) or ``mix`` (``recipes.MIX``).

``train(args)`` runs the stages in order, each passing on one ``Run``:

1. ``prepare``: the config, the opponents and every option checked (``SystemExit``);
2. ``make_env``: the vec env with its opponents, as the policy plays it;
3. ``make_model``: the policy (``policies.build_policy``, ``--arch``) in MaskablePPO, or the
   model of ``--init``, filling ``lean.LeanRolloutBuffer`` (sb3-contrib's minibatches with
   fewer copies);
4. ``warm_start`` (``--pretrain-steps``, ``--dagger-rounds``): clone the ``--teacher`` bot
   (``pretrain.pretrain``), then DAgger rounds (``pretrain.dagger``), within
   ``--pretrain-share`` of ``--minutes`` (or ``--pretrain-minutes``); PPO then refines the
   clone at ``DEFAULT_FINETUNE``'s smaller steps.  ``--select-games N`` scores every stage
   (``StageSelection``) and goes on from the best;
5. ``run_ppo``: PPO until ``--minutes`` of wall clock (the warm start's included) or
   ``--timesteps`` steps, whichever comes first;
6. ``evaluate_model``: ``--eval-games`` games against each of ``--eval-opponents`` (the
   recipe's: random, the README's bar and the game's strongest bot).

``main`` then writes ``<out>/model.zip`` and ``<out>/results.json``.  torch runs on
``--threads`` (1 by default: on 2 shared cores, 2 threads ran 10x slower).
"""
import argparse
import copy
import json
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

import botarena

from .callbacks import training_callback
from .evaluate import evaluate, format_result, parse_config
from .policies import ARCHS, build_policy, check_options, wrap_env
from .pretrain import DAGGER_BETA
from .recipes import (DEFAULT_ARCH, DEFAULT_CONFIG, DEFAULT_FEATURES_DIM, DEFAULT_FINETUNE,
                      DEFAULT_MINUTES, DEFAULT_NET_ARCH, DEFAULT_OPPONENT, DEFAULT_PPO,
                      DEFAULT_PRETRAIN, MIX, RECIPES, env_config, recipe)

# --select-games' evaluation seeds: seed + this
SELECTION_SEED = 30_000
# the final evaluation's seeds: seed + this
EVAL_SEED = 10_000
# the cloning's and DAgger's recordings' seeds: seed + these
CLONE_SEED = 1_000_000
DAGGER_SEED = 2_000_000
# PPO's step budget when only --minutes is given
UNLIMITED_TIMESTEPS = 10**12
# the least PPO runs when the warm start used up --minutes
MIN_PPO_MINUTES = 0.05
SELF = "self"


@dataclass
class Run:
    """One training run, as the stages pass it on: the options and what ``prepare``
    derives of them, what the later stages build, their stats and timings."""

    args: argparse.Namespace
    config: dict                  # the env config
    opponents: list               # training opponents' names, cycled over the envs
    eval_opponents: list
    threads: int                  # torch threads
    pretrain_steps: int           # samples to clone (0: no cloning)
    venv: object = None
    model: object = None
    ppo: dict = None              # MaskablePPO's settings
    selection: object = None      # StageSelection
    start: float = 0.0            # perf_counter() when the model was made
    pretrain: dict = None         # the warm start's and the selection's stats
    callback: object = None       # PPO's Training callback (its outcome stats)
    ppo_seconds: float = 0.0
    seconds_total: float = 0.0    # from the model's making to PPO's end
    eval_seconds: float = 0.0
    evals: dict = field(default_factory=dict)

    @property
    def warm(self):
        """Whether a warm start (cloning or DAgger) comes before PPO."""
        return bool(self.pretrain_steps or self.args.dagger_rounds)

    def warm_cap_left(self):
        """Seconds left of the warm start's cap (None: no cap)."""
        cap = self.args.pretrain_minutes
        if cap is None and self.args.minutes is not None:
            cap = self.args.minutes * self.args.pretrain_share
        return None if cap is None else 60 * cap - (time.perf_counter() - self.start)

    def reset_threads(self):
        """torch back on ``threads``: numba's threading layer (asked for by games of 256+
        envs) resets the OpenMP threads that torch shares, and 2 threads on busy cores ran
        PPO ~10x slower."""
        import torch
        torch.set_num_threads(self.threads)


class StageSelection:
    """``--select-games``: scores each stage's model (``score(name)``: ``games`` games of
    the most likely actions against each of ``opponents``; the sum of the win rates, then
    of the mean margins) and keeps a copy of the best one's weights, which
    ``restore_best()`` loads back into the model (a no-op with ``games`` 0).  towers_v0's
    stages swung between winning and losing to greedy (DAgger rounds, 2026-11-26,
    results.md): the deterministic greedy on the fixed map plays one game per seat, which
    a policy wins or loses whole."""

    def __init__(self, model, env_id, opponents, games, seed, config):
        self.model, self.env_id, self.opponents, self.games = model, env_id, opponents, games
        self.seed = seed + SELECTION_SEED
        self.config = {k: v for k, v in config.items() if k != "reward"}
        self.best, self.best_key, self.best_name = None, None, None
        self.scores = []
        self.last_seconds = 0.0

    def score(self, name):
        if not self.games:
            return
        start = time.perf_counter()
        wins, margin = 0.0, 0.0
        for opp in self.opponents:
            r = evaluate(self.model, self.env_id, opp, games=self.games, seed=self.seed,
                         deterministic=True, **self.config)
            wins += r["win_rate"]
            margin += r["mean_margin"]
        self.last_seconds = time.perf_counter() - start
        key = (wins, margin)
        self.scores.append({"stage": name, "win_rates": wins, "margins": margin,
                            "seconds": round(self.last_seconds, 1)})
        print(f"stage {name}: win rates {wins:.2f}, margins {margin:+.1f} (summed over "
              f"{', '.join(self.opponents)}; {self.games} games each, "
              f"{self.last_seconds:.0f}s)", flush=True)
        if self.best_key is None or key > self.best_key:
            self.best_key, self.best_name = key, name
            self.best = copy.deepcopy(self.model.policy.state_dict())

    def restore_best(self):
        if self.best is not None:
            self.model.policy.load_state_dict(self.best)
            print(f"going on from stage {self.best_name}", flush=True)

    def summary(self):
        return {"games": self.games, "opponents": self.opponents, "stages": self.scores,
                "best": self.best_name}


def recording_shape(samples, envs=None):
    """(envs, turns) of a recording of about ``samples`` teacher samples on at most ``envs``
    envs (default ``DEFAULT_PRETRAIN["num_envs"]``): fewer envs play more turns of each
    game (towers_v0 is decided by turn ~250; 256 envs record only its first 100 turns of
    25600 samples)."""
    n = min(envs or DEFAULT_PRETRAIN["num_envs"], samples)
    return n, max(1, samples // n)


def opponent_names(text):
    """The opponents of ``--opponent`` (a comma-separated list, ``mix`` standing for
    ``MIX``)."""
    names = []
    for part in text.split(","):
        part = part.strip()
        names += list(MIX) if part == "mix" else [part]
    return names


def ppo_settings(args, warm):
    """MaskablePPO's keyword arguments: DEFAULT_PPO, the recipe's, ``--ppo``; after a warm start
    (cloning, DAgger, or a model loaded with ``--init``: PPO refines a trained policy)
    DEFAULT_FINETUNE over those, then ``--ppo`` and ``--finetune`` again."""
    layers = [DEFAULT_PPO, recipe(args.env).ppo, parse_config(args.ppo)]
    if warm or args.init:
        layers += [DEFAULT_FINETUNE, parse_config(args.ppo), parse_config(args.finetune)]
    kwargs = {}
    for layer in layers:
        kwargs.update(layer)
    return kwargs


def parse_args(argv=None):
    """The options, with the recipe of ``--env`` as their defaults."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="Per-env defaults: the recipes of "
                                       f"botarena.training.recipes ({', '.join(RECIPES)}).")
    p.add_argument("--env", default="paint_v0")
    p.add_argument("--opponent", default=DEFAULT_OPPONENT,
                   help="random | greedy | self | mix (random, greedy, greedy, self) or a "
                        f"comma-separated list of those (default {DEFAULT_OPPONENT})")
    p.add_argument("--minutes", type=float, default=None,
                   help=f"wall-clock budget (default {DEFAULT_MINUTES:g}, or none when "
                        "--timesteps is given)")
    p.add_argument("--timesteps", type=int, default=None)
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="output folder (default runs/<env>)")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-opponents", default=None,
                   help="comma-separated bots the model is evaluated against (default: the "
                        "recipe's, random, the README's bar and the game's strongest bot)")
    p.add_argument("--no-eval-sampled", dest="eval_sampled", action="store_false",
                   help="evaluate only the most likely actions, not also sampled ones")
    p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                   help=f"env config, JSON values (default {DEFAULT_CONFIG}, and per env "
                        "its recipe)")
    p.add_argument("--ppo", nargs="*", default=[], metavar="KEY=VALUE",
                   help=f"MaskablePPO arguments, JSON values (defaults {DEFAULT_PPO})")
    p.add_argument("--channels", default="16,32,32", help="CNN channels per 3x3 conv layer")
    p.add_argument("--arch", default=DEFAULT_ARCH, choices=ARCHS,
                   help="features extractor: mlp (the planes flattened), cnn (3x3 "
                        "convolutions over the planes), cells (fully convolutional, a "
                        "command per cell) or ego (an ego view flattened, its constant "
                        "planes read once: --ego-scalars, --ego-drop, --ego-radius; "
                        "needs view=\"ego\") or paths (walking distances to learnt values, "
                        "training.paths: --channels, --path-values; needs the board view "
                        f"and the env's PATH_PLANES); default {DEFAULT_ARCH}")
    p.add_argument("--ego-scalars", default="",
                   help="ego: constant planes, read at the centre only (comma-separated)")
    p.add_argument("--ego-drop", default="", help="ego: planes left out (comma-separated)")
    p.add_argument("--ego-radius", type=int, default=0,
                   help="ego: crop the window to this many cells around the centre (0: all)")
    p.add_argument("--features-dim", type=int, default=DEFAULT_FEATURES_DIM)
    p.add_argument("--path-values", type=int, default=None,
                   help="paths: value maps (default training.paths.DEFAULT_VALUES)")
    p.add_argument("--bf16", action=argparse.BooleanOptionalAction, default=False,
                   help="cells: the convolutions, mlp: the heads' first layers under "
                        "bfloat16 autocast (2-3x faster on CPUs with AMX / AVX512-BF16)")
    p.add_argument("--coords", action=argparse.BooleanOptionalAction, default=False,
                   help="cells: the trunk also reads each cell's row and column")
    p.add_argument("--unit-moves", action=argparse.BooleanOptionalAction, default=False,
                   help="cells: order the units so that no two own units end in one cell "
                        "(the env's UNIT_MOVES and UNITS_PLANE; training.cells)")
    p.add_argument("--net-arch", default=DEFAULT_NET_ARCH,
                   help=f"hidden sizes of the pi/vf heads (default {DEFAULT_NET_ARCH})")
    p.add_argument("--self-play-every", type=int, default=5,
                   help="refresh the self-play snapshot every N rollouts")
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads (default 1: on 2 shared cores, 2 threads ran 10x "
                        "slower than 1)")
    p.add_argument("--pretrain-steps", type=int, default=0,
                   help="teacher samples to clone before PPO (default 0: no warm start; "
                        f"-1: {DEFAULT_PRETRAIN['steps']})")
    p.add_argument("--pretrain-envs", type=int, default=DEFAULT_PRETRAIN["num_envs"],
                   help="envs of the cloning's and DAgger's recordings (default "
                        f"{DEFAULT_PRETRAIN['num_envs']}): steps / envs turns of each game")
    p.add_argument("--pretrain-epochs", type=int, default=DEFAULT_PRETRAIN["epochs"])
    p.add_argument("--pretrain-lr", type=float, default=DEFAULT_PRETRAIN["learning_rate"])
    p.add_argument("--pretrain-minutes", type=float, default=None,
                   help="cap on the cloning epochs' and DAgger rounds' wall clock (default: "
                        "--pretrain-share of --minutes)")
    p.add_argument("--pretrain-share", type=float, default=DEFAULT_PRETRAIN["share"],
                   help="the cap's share of --minutes without --pretrain-minutes (default "
                        "1/3)")
    p.add_argument("--dagger-rounds", type=int, default=0,
                   help="DAgger rounds after the warm start (default 0)")
    p.add_argument("--dagger-steps", type=int, default=None,
                   help="samples recorded per DAgger round (default: --pretrain-steps, or "
                        f"{DEFAULT_PRETRAIN['steps']})")
    p.add_argument("--dagger-beta", type=float, default=DAGGER_BETA,
                   help="share of the teacher's own actions played in a DAgger round "
                        f"(default {DAGGER_BETA})")
    p.add_argument("--pretrain-class-power", type=float, default=0.0,
                   help="cells: weight each cell's cloning loss by its teacher command, "
                        "(most frequent command's count / this command's) ** POWER "
                        "(pretrain.command_weights; default 0: unweighted)")
    p.add_argument("--select-games", type=int, default=0,
                   help="keep the best stage: after the cloning, each DAgger round and PPO, "
                        "play N games (most likely actions) against each scripted opponent "
                        "of --opponent and go on from the best model so far (win rates, "
                        "then margins); these games count against --minutes (default 0: "
                        "off, every stage goes on from the last)")
    p.add_argument("--save-stages", action="store_true",
                   help="also save the warm start's models, <out>/clone.zip after the "
                        "cloning and <out>/dagger<R>.zip after DAgger round R, to evaluate "
                        "each stage afterwards")
    p.add_argument("--teacher", default=DEFAULT_PRETRAIN["teacher"],
                   help="the bot the warm start clones")
    p.add_argument("--finetune", nargs="*", default=[], metavar="KEY=VALUE",
                   help="MaskablePPO arguments after a warm start or --init, over --ppo "
                        "(defaults "
                        f"{DEFAULT_FINETUNE})")
    p.add_argument("--print-every", type=float, default=15.0, help="seconds between prints")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--init", default=None,
                   help="continue training from this model zip (at --finetune's steps)")
    p.add_argument("--device", default="cpu")
    env_recipe = recipe(p.parse_known_args(argv)[0].env)
    p.set_defaults(eval_opponents=",".join(env_recipe.eval_opponents), **env_recipe.args)
    args = p.parse_args(argv)
    if args.minutes is None and args.timesteps is None:
        args.minutes = DEFAULT_MINUTES
    if args.out is None:
        args.out = os.path.join("runs", args.env)
    return args


def prepare(args):
    """Stage 1: the run's config and opponents from ``args``, every option checked
    (``SystemExit`` naming the option); seeds torch and sets its threads."""
    import torch
    threads = max(1, args.threads)
    torch.set_num_threads(threads)
    torch.manual_seed(args.seed)
    config = env_config(args.env, parse_config(args.config))
    config["obs_dtype"] = "float32"
    check_options(args, config)
    bots = botarena.game(args.env).bots
    opponents = opponent_names(args.opponent)
    eval_opponents = [n for n in args.eval_opponents.split(",") if n]
    for name in opponents + eval_opponents:
        if name not in bots and name != SELF:
            raise SystemExit(f"unknown opponent {name!r}")
    if SELF in eval_opponents:
        raise SystemExit("--eval-opponents: scripted bots only, not self")
    pretrain_steps = DEFAULT_PRETRAIN["steps"] if args.pretrain_steps < 0 \
        else args.pretrain_steps
    if (pretrain_steps or args.dagger_rounds) and args.teacher not in bots:
        raise SystemExit(f"no {args.teacher!r} bot to clone in {args.env}")
    check_warm_start_options(args)
    return Run(args=args, config=config, opponents=opponents, eval_opponents=eval_opponents,
               threads=threads, pretrain_steps=pretrain_steps)


def check_warm_start_options(args):
    """Refuse (``SystemExit``) warm start and selection options out of their range."""
    if not 0.0 < args.pretrain_share <= 1.0:
        raise SystemExit(f"--pretrain-share must be in (0, 1], got {args.pretrain_share}")
    if args.pretrain_class_power < 0 or (args.pretrain_class_power > 0
                                         and args.arch != "cells"):
        raise SystemExit(f"--pretrain-class-power needs --arch cells and a power >= 0, got "
                         f"{args.arch} and {args.pretrain_class_power}")
    if args.select_games < 0:
        raise SystemExit(f"--select-games must be >= 0, got {args.select_games}")
    if args.pretrain_envs < 1:
        raise SystemExit(f"--pretrain-envs must be >= 1, got {args.pretrain_envs}")
    if args.dagger_rounds < 0 or not 0.0 <= args.dagger_beta <= 1.0 \
            or (args.dagger_steps is not None and args.dagger_steps < 1):
        raise SystemExit(f"--dagger-rounds must be >= 0, --dagger-beta in [0, 1] and "
                         f"--dagger-steps >= 1, got {args.dagger_rounds}, {args.dagger_beta} "
                         f"and {args.dagger_steps}")


def make_env(run):
    """Stage 2: ``run.venv``, each env against its opponent (the ``self`` ones share one
    ``PolicyOpponent``, playing a placeholder until the learner exists), as the policy
    plays it (``policies.wrap_env``)."""
    from ..wrappers.opponents import PolicyOpponent
    snapshot = None
    specs = []
    for name in run.opponents:
        if name == SELF:
            if snapshot is None:
                snapshot = PolicyOpponent(
                    lambda obs, masks: np.zeros(len(obs), dtype=np.int64))
            specs.append(snapshot)
        else:
            specs.append(name)
    venv = botarena.vector_env(run.args.env, run.args.num_envs, opponent=specs,
                               seed=run.args.seed, **run.config)
    run.venv = wrap_env(venv, run.args)


def make_model(run):
    """Stage 3: ``run.model``, MaskablePPO with the policy of ``--arch`` at ``run.ppo``'s
    settings (or the model of ``--init``) and ``lean``'s rollout buffer (the observations
    in the policy's ``observation_dtype``; a loaded model keeps its saved buffer settings),
    and ``run.selection`` over it."""
    from sb3_contrib import MaskablePPO

    from .lean import LeanRolloutBuffer
    args = run.args
    policy, policy_kwargs = build_policy(args)
    run.start = time.perf_counter()
    run.ppo = ppo_settings(args, run.warm)
    run.ppo["batch_size"] = min(run.ppo["batch_size"], run.ppo["n_steps"] * run.venv.num_envs)
    if args.init:
        run.model = MaskablePPO.load(args.init, env=run.venv, device=args.device,
                                     custom_objects={"policy_kwargs": policy_kwargs},
                                     rollout_buffer_class=LeanRolloutBuffer, **run.ppo)
    else:
        buffer_kwargs = {"observation_dtype": getattr(policy, "observation_dtype", None)}
        run.model = MaskablePPO(policy, run.venv, seed=args.seed, device=args.device,
                                verbose=0, policy_kwargs=policy_kwargs,
                                rollout_buffer_class=LeanRolloutBuffer,
                                rollout_buffer_kwargs=buffer_kwargs, **run.ppo)
    scripted = [n for n in dict.fromkeys(run.opponents) if n != SELF]
    run.selection = StageSelection(run.model, args.env, scripted, args.select_games,
                                   args.seed, run.config)


def save_stage(run, name):
    """After a warm start's stage: its model to ``<out>/<name>.zip`` with
    ``--save-stages``, and its score for ``--select-games``."""
    if run.args.save_stages:
        os.makedirs(run.args.out, exist_ok=True)
        run.model.save(os.path.join(run.args.out, f"{name}.zip"))
    run.selection.score(name)


def teacher_opponents(run):
    """The opponents of the teacher's recordings: the training ones (with ``self``, which
    has no policy yet: random and the teacher)."""
    return run.opponents if SELF not in run.opponents else ["random", run.args.teacher]


def clone(run):
    """Clone the teacher from its games (``pretrain.collect`` and ``pretrain``)."""
    from .pretrain import collect, pretrain
    args = run.args
    envs, turns = recording_shape(run.pretrain_steps, args.pretrain_envs)
    print(f"pretraining: cloning {args.teacher!r} from {envs * turns} samples "
          f"(epsilon {DEFAULT_PRETRAIN['epsilon']}), {args.pretrain_epochs} epochs, "
          f"lr {args.pretrain_lr}", flush=True)
    data = collect(args.env, envs, turns, opponent=teacher_opponents(run),
                   seed=args.seed + CLONE_SEED, teacher=args.teacher,
                   epsilon=DEFAULT_PRETRAIN["epsilon"], gamma=run.ppo["gamma"], **run.config)
    run.pretrain = pretrain(run.model, data, epochs=args.pretrain_epochs,
                            learning_rate=args.pretrain_lr,
                            batch_size=DEFAULT_PRETRAIN["batch_size"], seed=args.seed,
                            time_budget_s=run.warm_cap_left(),
                            log=lambda line: print(line, flush=True),
                            class_power=args.pretrain_class_power)
    del data
    save_stage(run, "clone")
    run.reset_threads()
    run.pretrain.update(samples=envs * turns, envs=envs, turns=turns)


def dagger_rounds(run):
    """``--dagger-rounds`` DAgger rounds (``pretrain.dagger``)."""
    from .pretrain import dagger
    args = run.args
    envs, turns = recording_shape(args.dagger_steps or run.pretrain_steps
                                  or DEFAULT_PRETRAIN["steps"], args.pretrain_envs)
    print(f"dagger: {args.dagger_rounds} rounds of {envs * turns} samples, teacher "
          f"{args.teacher!r}, beta {args.dagger_beta}", flush=True)
    stats = dagger(run.model, args.env, args.dagger_rounds, envs, turns,
                   opponent=teacher_opponents(run), teacher=args.teacher,
                   beta=args.dagger_beta, seed=args.seed + DAGGER_SEED, gamma=run.ppo["gamma"],
                   batch_size=DEFAULT_PRETRAIN["batch_size"],
                   time_budget_s=run.warm_cap_left(), log=lambda line: print(line, flush=True),
                   class_power=args.pretrain_class_power,
                   on_round=lambda r: save_stage(run, f"dagger{r}"), **run.config)
    run.reset_threads()
    run.pretrain = dict(run.pretrain or {}, dagger=stats)


def warm_start(run):
    """Stage 4: cloning, then DAgger rounds, then back to the best stage so far (a no-op
    without ``--select-games``)."""
    if run.pretrain_steps:
        clone(run)
    if run.args.dagger_rounds:
        dagger_rounds(run)
    run.selection.restore_best()
    run.reset_threads()
    if run.warm:
        run.pretrain["seconds_total"] = time.perf_counter() - run.start


def run_ppo(run):
    """Stage 5: PPO for what is left of ``--minutes`` (the selection's games after it
    included) or ``--timesteps``, then back to the best stage."""
    args = run.args
    minutes_left = None
    if args.minutes is not None:
        spent = time.perf_counter() - run.start + run.selection.last_seconds
        minutes_left = max(args.minutes - spent / 60, MIN_PPO_MINUTES)
    total = args.timesteps if args.timesteps is not None else UNLIMITED_TIMESTEPS
    run.callback = training_callback(minutes_left, total, run.opponents,
                                     args.self_play_every, args.print_every,
                                     progress=not args.no_progress)
    print(f"training {args.env}: {run.venv.num_envs} envs vs {run.opponents}, config "
          f"{run.config}, ppo {run.ppo}, {args.arch} policy, heads {args.net_arch}, "
          f"torch threads {run.threads}, budget "
          f"{'%.1f min' % minutes_left if minutes_left else '-'} / "
          f"{args.timesteps or '-'} steps", flush=True)
    run.reset_threads()
    start = time.perf_counter()
    run.model.learn(total_timesteps=total, callback=run.callback, progress_bar=False)
    run.ppo_seconds = time.perf_counter() - start
    run.selection.score("ppo")
    run.selection.restore_best()
    run.reset_threads()
    if run.selection.games:
        run.pretrain = dict(run.pretrain or {}, selection=run.selection.summary())
    run.seconds_total = time.perf_counter() - run.start
    print(f"trained {run.model.num_timesteps} steps in {run.ppo_seconds:.0f}s "
          f"({run.model.num_timesteps / run.ppo_seconds:.0f} fps)", flush=True)


def evaluate_model(run):
    """Stage 6: ``--eval-games`` games against each evaluation opponent, the most likely
    actions (``run.evals[name]``) and, unless ``--no-eval-sampled``, sampled ones
    (``run.evals[name + "_sampled"]``)."""
    args = run.args
    start = time.perf_counter()
    config = {k: v for k, v in run.config.items() if k != "reward"}
    for deterministic in [True, False] if args.eval_sampled else [True]:
        for name in run.eval_opponents:
            result = evaluate(run.model, args.env, name, games=args.eval_games,
                              seed=EVAL_SEED + args.seed, deterministic=deterministic,
                              **config)
            run.evals[name if deterministic else f"{name}_sampled"] = result
            print(format_result(result), flush=True)
    run.eval_seconds = time.perf_counter() - start


def train(args):
    """Train and evaluate as ``args`` say (the stages in order); returns the ``Run``."""
    run = prepare(args)
    make_env(run)
    make_model(run)
    warm_start(run)
    run_ppo(run)
    evaluate_model(run)
    return run


def results(run, argv):
    """The ``results.json`` of a finished run."""
    args, cb = run.args, run.callback
    policy_keys = ("arch", "channels", "ego_scalars", "ego_drop", "ego_radius",
                   "features_dim", "path_values", "net_arch", "bf16", "unit_moves", "coords")
    return {
        "env": args.env, "opponents": run.opponents, "eval_opponents": run.eval_opponents,
        "config": run.config, "ppo": run.ppo,
        "policy": {key: getattr(args, key) for key in policy_keys},
        "pretrain": run.pretrain, "seconds_total": round(run.seconds_total, 1),
        "num_envs": args.num_envs, "seed": args.seed, "minutes": args.minutes,
        "timesteps": int(run.model.num_timesteps), "seconds": round(run.ppo_seconds, 1),
        "fps": round(run.model.num_timesteps / run.ppo_seconds, 1),
        "eval_seconds": round(run.eval_seconds, 1), "torch_threads": run.threads,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "stopped_by_clock": cb.stopped_by_clock, "episodes": cb.episodes,
        "self_play_snapshots": cb.snapshots, "history": cb.history,
        "eval": run.evals,
        "win_rate": {k: v["win_rate"] for k, v in run.evals.items()},
        "argv": sys.argv[1:] if argv is None else list(argv),
    }


def main(argv=None):
    """Train (``train``), then write ``<out>/model.zip`` and ``<out>/results.json``;
    returns the results."""
    args = parse_args(argv)
    run = train(args)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.zip")
    run.model.save(path)
    print(f"saved {path}", flush=True)
    out = results(run, argv)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(out, f, indent=2)
    print(f"wrote {os.path.join(args.out, 'results.json')}", flush=True)
    return out


if __name__ == "__main__":
    main()
