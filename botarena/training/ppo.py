"""Train MaskablePPO on a botarena game against scripted bots and self-play snapshots.

    python -m botarena.training.ppo --env paint_v0 --minutes 5 --out runs/paint_v0

One shared policy plays the learner seat of ``--num-envs`` envs
(``botarena.vector_env(..., opponent=...)``); the learner's seat alternates between envs.
``--opponent random,greedy,greedy,greedy`` (default) plays env ``e`` against the
``e % 4``-th of them (a comma-separated list cycles over the envs; ``ENV_ARGS`` holds
per-env defaults of every option: ants_v0 plays random);
``--opponent mix`` against ``MIX[e % len(MIX)]``: the scripted ``random`` and ``greedy``
bots and ``self``, a ``PolicyOpponent`` holding a frozen copy of the learner, refreshed
every ``--self-play-every`` rollouts.  Training stops after
``--minutes`` of wall clock or ``--timesteps`` steps, whichever comes first; then the model
(``<out>/model.zip``) is evaluated against ``random`` and ``greedy`` and the results go to
``<out>/results.json``.

Warm start (``--pretrain-steps N``, off by default: it did not help on paint_v0): before
PPO, the policy clones the ``--teacher`` bot (``pretrain.py``: the masked log-likelihood of
the bot's actions, any policy including ``cells``; value head on the observed returns),
then PPO fine-tunes it with ``DEFAULT_FINETUNE`` (a smaller learning rate, clip range and
entropy bonus).  Its time counts against ``--minutes``.  ``--dagger-rounds R`` then runs R
DAgger rounds (``pretrain.dagger``: games where the learner plays its own sampled action
with probability 1 - ``--dagger-beta``, labelled by the teacher, cloned again), within the
same time cap as the cloning; with ``--init`` and no ``--pretrain-steps`` they refine the
loaded model.  The recordings play ``--pretrain-envs`` games (256) for steps / envs turns
each: fewer envs reach further into the games.

Policies (``--arch``): ``mlp`` (default): the flattened float32 planes (SB3's
``FlattenExtractor``) into 128-128 tanh heads; ``cnn`` (``PlanesCNN``): 3x3 convolutions
over the planes, ~10x the cost per sample; ``cells`` (``cells.CellsPolicy``, the default
for ants_v0, whose action is a command per cell): a fully convolutional policy with a
masked categorical per cell (``--channels``; ``--features-dim``: the value head's hidden
units; ``--unit-moves``: the vec env orders the units so that no two own units end in one
cell, and so does the saved policy's ``predict``); ``ego`` (``EgoPlanes``, for ``view="ego"``): the window flattened into one linear
layer of ``--features-dim`` units, its constant planes (``--ego-scalars``) read once at the
centre and ``--ego-drop`` planes left out (dungeon_v0's defaults in ``ENV_ARGS``: 5 constant
planes and the own-player plane, 40% of its inputs), ``--ego-radius`` crops the window;
``paths`` (``paths.PathPlanes``, for a board view and an env module with ``PATH_PLANES``):
walking distances from the own avatar's neighbours to learnt per-cell values
(``--channels`` of 3x3 convolutions, ``--path-values`` maps).
dungeon_v0 cloning the trapper (102k samples, 13 epochs) then PPO: ~1070 fps where the flat
MLP ran ~440 (256-unit layers, 20-minute runs side by side on 2 busy cores).
torch runs on ``--threads`` (1 by default).
paint_v0 trains on its ego view (``ENV_CONFIG``): the planes centred on the own avatar, so
a walk or a shot covers the same inputs wherever the avatar stands.
"""
import argparse
import copy
import json
import os
import sys
import time
from collections import deque

import numpy as np

import botarena

from .evaluate import evaluate, format_result, parse_config
from .pretrain import DAGGER_BETA

# --select-games' evaluation seeds: seed + this (the final evaluation's are 10_000 + seed)
SELECTION_SEED = 30_000

# Opponents of --opponent mix: "self" is the learner's frozen snapshot.
MIX = ("random", "greedy", "greedy", "self")

# Default opponents: self-play snapshots in the mix lowered the win rates reached within
# a few minutes (paint_v0 10x10, 250k-500k steps), so they are opt-in (--opponent mix).
# Three envs in four against greedy: random is beaten early, and greedy is the bar
# (paint_v0 board view, 4M steps: 0.51 vs greedy, where half the envs vs random had
# reached 0.43 at 6.4M).
DEFAULT_OPPONENT = "random,greedy,greedy,greedy"

# PPO settings tuned on paint_v0 10x10 with 5-6 minute runs: "score" beat "zero_sum",
# lr 5e-4 ~ 1e-3, gamma 0.99 ~ 0.95 ~ 0.97, 8 epochs and 64 channels cost more time than
# they gained.
DEFAULT_PPO = {
    "n_steps": 128,          # x num_envs slots = samples per rollout
    "batch_size": 1024,
    "n_epochs": 4,
    "learning_rate": 5e-4,
    "gamma": 0.99,           # 100-turn games
    "gae_lambda": 0.95,
    "clip_range": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "max_grad_norm": 0.5,
}
DEFAULT_CONFIG = {"reward": "score"}
# Per-env defaults over DEFAULT_CONFIG.  paint_v0's ego view (planes centred on the own
# avatar): the flat MLP won ~2/3 of its training games vs greedy after 1.5M steps, where
# on the board view it won ~1/3 after 3.5M.  coderunner_v0: one policy for both sides
# (blue mirrored) and a death penalty (a death costs the runner 50 turns, and pays the
# opponent 300 when it dug the trap, neither of which a score reward shows); with a warm
# start cloning the trapper (--pretrain-steps 100000 --teacher trapper) 20 minutes reached
# 0.18 vs greedy, from 0.00 without the three (their shares were not measured apart).
# ants_v0: "win_loss" (+1/0/-1 at the end) against random reached 0.91 in 16 minutes where
# "zero_sum" reached 0.72 (0.27 draws: it gathered and fought, and never razed the hill).
# dungeon_v0: the shield (masks of the actions with no escape from the fire on the
# board): its losses against random had been its own deaths (0.87 at best in 20 minutes
# without it, 1.00 with it); the board view, which its --arch paths reads.
ENV_CONFIG = {"paint_v0": {"view": "ego"},
              "coderunner_v0": {"mirror": True, "death_penalty": 100},
              "ants_v0": {"reward": "win_loss"},
              "dungeon_v0": {"view": "board", "shield": True}}
# paint_v0, flat MLP, 2 busy cores: 5 min ~1.5M steps, 0.99 vs random and 0.23 vs greedy;
# 20 min ~6.4M steps, 0.99 and 0.43 (README).
DEFAULT_MINUTES = 5.0

# Features extractors (--arch): "mlp" flattens the planes (SB3's FlattenExtractor); "cnn"
# is in build_extractors().  paint_v0 10x10, 3-minute runs on 2 busy cores: the flat MLP
# (128-128 heads, ~2200 fps) reached 0.97 vs random and 0.05 vs greedy; a CNN ran at
# 200-300 fps.
ARCHS = ("mlp", "cnn", "cells", "ego", "paths")
DEFAULT_ARCH = "mlp"
DEFAULT_NET_ARCH = "128,128"
DEFAULT_FEATURES_DIM = 128

# Imitation warm start (--pretrain-steps N, opt-in): clone the teacher bot from its own
# games.  On paint_v0 (3-minute runs) the clone's most likely actions loop (0.37 vs random
# after PPO, against 0.97 without), so it is off by default.
DEFAULT_PRETRAIN = {
    "teacher": "greedy",
    "steps": 100_000,        # samples (turns x num_envs) with --pretrain-steps -1
    "num_envs": 256,
    "epsilon": 0.0,          # share of random legal moves played while recording
    "epochs": 10,
    "learning_rate": 3e-3,
    "batch_size": 512,
    "share": 1 / 3,          # of --minutes: the cap on cloning and DAgger (--pretrain-share)
}
# PPO after a warm start: small steps, so the clone is refined rather than overwritten.
DEFAULT_FINETUNE = {
    "learning_rate": 1e-4,
    "clip_range": 0.1,
    "ent_coef": 0.001,
}

# Per-env defaults of the command line, over the parser's own, and per-env MaskablePPO
# settings over DEFAULT_PPO (and DEFAULT_FINETUNE): the README's recipes.  ants_v0 (a
# command per cell, 20 x 20) plays the fully convolutional ``cells`` policy (sb3-contrib's
# MultiCategorical builds a Categorical per cell in Python: ~70 fps with cnn), clones
# greedy for a short warm start, then PPO plays random with short rollouts of 300-turn
# games; its units are ordered so that no two own ants collide (--unit-moves): 0.99 vs
# random in 5 minutes (README).  Against greedy it takes two runs, 37 minutes (README): clone
# the raider bot with 2 DAgger rounds (--teacher raider --pretrain-steps 51200
# --pretrain-epochs 5 --dagger-rounds 2 --pretrain-minutes 12 --minutes 13 --opponent
# greedy), then --init that model for 24 minutes of PPO alone against greedy (at
# DEFAULT_FINETUNE's steps, as every --init): 0.85.
# coderunner_v0 clones the racer bot, then 3 DAgger rounds, in 60% of the minutes: 0.99 vs
# random in 5 and 20 minutes, 0.74 and 0.85 vs greedy (README).
# dungeon_v0 clones the trapper bot (102k samples, 13 epochs) with up to 8 DAgger rounds in
# 60% of the minutes, then PPO against the safe bomber, on --arch paths (walking distances
# to learnt values, training/paths.py; 4 convolutions, 16 value maps): 1.00 vs random and
# 0.60 vs the safe bomber in 40 minutes; with 3 convolutions and 8 maps 0.17, 0.47 and 0.54
# in 5, 20 and 45 minutes, where the ego MLP's clone had reached 0.10 in 20 (README).
# towers_v0 (results.md, 2026-11-26) clones the striped bot (towers on every other flag
# row, tie-breaks read off the board: a teacher a convolution can copy; the defensive bot's
# guard post, a tile index rule, was never copied) from 16 whole 1000-turn games (recordings
# of 250 turns left the clone untrained for the turn plane's later values: it led greedy
# until turn ~500, then lost), each cell's loss weighted by its command (class power 0.5:
# the walking command SE is ~90% of the choices; the clone's error was blasts and steps
# between flag tiles), then DAgger rounds of 16 whole games in 90% of the minutes, and PPO
# (200-400 fps: no 1000-turn episode ends within minutes) only for what is left.  The
# stages swung between winning and losing to greedy (one deterministic game per seat), so
# --select-games 2 keeps the best stage by 2 games against random and greedy each: 1.00 vs
# random and 1.00 vs greedy in 5 and in 20 minutes (100 games each; without the selection
# a 20-minute run ended on a losing stage, 0.00 vs greedy).
ENV_ARGS = {"ants_v0": {"arch": "cells", "bf16": True, "channels": "32,32,32",
                        "unit_moves": True, "opponent": "random", "pretrain_steps": 25_600,
                        "pretrain_epochs": 3},
            "coderunner_v0": {"teacher": "racer", "pretrain_steps": 100_000,
                              "dagger_rounds": 3, "pretrain_share": 0.6},
            "dungeon_v0": {"arch": "paths", "channels": "32,32,32,32", "path_values": 16,
                           "net_arch": "256,256",
                           "teacher": "trapper", "pretrain_steps": 102_400,
                           "pretrain_epochs": 13, "pretrain_lr": 0.001, "dagger_rounds": 8,
                           "dagger_steps": 25_600, "pretrain_share": 0.6,
                           "opponent": "safe_bomber"},
            "towers_v0": {"arch": "cells", "bf16": True, "coords": True, "channels": "32,32,32",
                          "teacher": "striped", "pretrain_steps": 16_000, "pretrain_envs": 16,
                          "pretrain_epochs": 5, "pretrain_class_power": 0.5,
                          "dagger_rounds": 20, "dagger_steps": 16_000, "pretrain_share": 0.9,
                          "select_games": 2, "eval_games": 100, "eval_sampled": False}}
ENV_PPO = {"ants_v0": {"n_steps": 64, "n_epochs": 2, "batch_size": 256, "gamma": 0.995},
           "towers_v0": {"n_steps": 64, "n_epochs": 2, "batch_size": 256, "gamma": 0.995}}


def build_extractors():
    """``{"cnn": PlanesCNN}`` (defined lazily: importing this module needs no torch)."""
    from torch import nn
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class PlanesCNN(BaseFeaturesExtractor):
        """3x3 convs (padding 1) over the (C, H, W) planes, flattened, then linear."""

        def __init__(self, observation_space, channels=(32, 32, 32), features_dim=256):
            super().__init__(observation_space, features_dim)
            c, h, w = observation_space.shape
            layers, last = [], c
            for ch in channels:
                layers += [nn.Conv2d(last, ch, 3, padding=1), nn.ReLU()]
                last = ch
            self.cnn = nn.Sequential(*layers, nn.Flatten())
            self.linear = nn.Sequential(nn.Linear(last * h * w, features_dim), nn.ReLU())

        def forward(self, observations):
            return self.linear(self.cnn(observations.float()))

    class EgoPlanes(BaseFeaturesExtractor):
        """An ego view (planes centred on the own avatar) flattened into one linear layer,
        leaving out what is the same in every cell: ``scalars`` (constant planes, read once
        at the centre) and ``drop`` (planes left out, e.g. the own avatar, always at the
        centre); ``radius`` > 0 crops the window to the cells at most that far from the
        centre (per axis)."""

        def __init__(self, observation_space, scalars=(), drop=(), radius=0, features_dim=256):
            super().__init__(observation_space, features_dim)
            import torch
            c, h, w = observation_space.shape
            self.cy, self.cx = h // 2, w // 2
            r = radius if radius > 0 else max(h, w)
            self.rows = (max(self.cy - r, 0), min(self.cy + r + 1, h))
            self.cols = (max(self.cx - r, 0), min(self.cx + r + 1, w))
            spatial = [p for p in range(c) if p not in scalars and p not in drop]
            self.register_buffer("spatial", torch.tensor(spatial, dtype=torch.long))
            self.register_buffer("scalars", torch.tensor(list(scalars), dtype=torch.long))
            cells = (self.rows[1] - self.rows[0]) * (self.cols[1] - self.cols[0])
            self.linear = nn.Sequential(nn.Linear(len(spatial) * cells + len(scalars),
                                                  features_dim), nn.ReLU())

        def forward(self, observations):
            import torch
            obs = observations.float()
            window = obs[:, self.spatial, self.rows[0]:self.rows[1], self.cols[0]:self.cols[1]]
            centre = obs[:, self.scalars, self.cy, self.cx]
            return self.linear(torch.cat([window.flatten(1), centre], dim=1))

    return {"cnn": PlanesCNN, "ego": EgoPlanes}


class _Callbacks:
    """The SB3 callbacks (built lazily, they subclass SB3's BaseCallback)."""

    @staticmethod
    def build(minutes, total_timesteps, opponent_names, self_play_every, print_every_s,
              progress):
        from stable_baselines3.common.callbacks import BaseCallback

        class Training(BaseCallback):
            """Wall-clock budget, progress bar and print, outcome stats, self-play refresh."""

            def __init__(self):
                super().__init__()
                self.budget_s = None if minutes is None else 60.0 * minutes
                self.start = None
                self.last_print = None
                self.recent = deque(maxlen=500)
                self.recent_by_opp = {name: deque(maxlen=300) for name in set(opponent_names)}
                self.episodes = 0
                self.rollouts = 0
                self.snapshots = 0
                self.bar = None
                self.history = []
                self.stopped_by_clock = False

            def fraction(self):
                done = self.num_timesteps / total_timesteps
                if self.budget_s is not None:
                    done = max(done, (time.perf_counter() - self.start) / self.budget_s)
                return min(done, 1.0)

            def _on_training_start(self):
                self.start = self.last_print = time.perf_counter()
                self.start_steps = self.num_timesteps
                if progress:
                    try:
                        from tqdm.auto import tqdm
                        self.bar = tqdm(total=1000, unit="‰", dynamic_ncols=True,
                                        bar_format="{l_bar}{bar}| {elapsed}<{remaining} {postfix}")
                    except ImportError:
                        self.bar = None
                self.refresh_snapshot()

            def refresh_snapshot(self):
                if "self" not in opponent_names:
                    return
                snap = copy.deepcopy(self.model.policy)
                snap.set_training_mode(False)
                self.training_env.slots.set_opponent_policy(snap)
                self.snapshots += 1

            def _on_rollout_end(self):
                self.rollouts += 1
                if self_play_every and self.rollouts % self_play_every == 0:
                    self.refresh_snapshot()

            def write(self, line):
                if self.bar is not None:
                    self.bar.write(line)
                else:
                    print(line, flush=True)

            def status(self):
                elapsed = time.perf_counter() - self.start
                fps = (self.num_timesteps - self.start_steps) / max(elapsed, 1e-9)
                mean = float(np.mean(self.recent)) if self.recent else float("nan")
                by = " ".join(f"{k}={np.mean(v):+.2f}" for k, v in sorted(self.recent_by_opp.items())
                              if v)
                return elapsed, fps, mean, by

            def _on_step(self):
                dones = self.locals["dones"]
                if dones.any():
                    infos = self.locals["infos"]
                    for i in np.flatnonzero(dones):
                        outcome = infos[i].get("outcome")
                        if outcome is None:
                            continue
                        self.episodes += 1
                        self.recent.append(outcome)
                        self.recent_by_opp[opponent_names[i % len(opponent_names)]].append(outcome)
                now = time.perf_counter()
                if self.bar is not None and self.n_calls % 16 == 0:
                    self.bar.n = int(1000 * self.fraction())
                    self.bar.set_postfix_str(f"{self.num_timesteps} steps")
                    self.bar.refresh()
                if now - self.last_print >= print_every_s:
                    self.last_print = now
                    self.print_status()
                if self.budget_s is not None and now - self.start >= self.budget_s:
                    self.stopped_by_clock = True
                    return False
                return True

            def print_status(self):
                elapsed, fps, mean, by = self.status()
                self.history.append({"seconds": round(elapsed, 1), "timesteps": self.num_timesteps,
                                     "mean_outcome": mean})
                self.write(f"[{elapsed:6.0f}s] {self.num_timesteps:>9d} steps  {fps:6.0f} fps  "
                           f"{self.episodes:>6d} episodes  mean outcome {mean:+.2f}  ({by})")

            def _on_training_end(self):
                self.print_status()
                if self.bar is not None:
                    self.bar.n = 1000
                    self.bar.close()

        return Training()


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


def _ints(text):
    return tuple(int(x) for x in text.split(",") if x)


def recording_shape(samples, envs=None):
    """(envs, turns) of a recording of about ``samples`` teacher samples on at most ``envs``
    envs (default ``DEFAULT_PRETRAIN["num_envs"]``): fewer envs play more turns of each
    game (towers_v0 is decided by turn ~250; 256 envs record only its first 100 turns of
    25600 samples)."""
    n = min(envs or DEFAULT_PRETRAIN["num_envs"], samples)
    return n, max(1, samples // n)


def opponent_specs(opponent):
    if opponent == "mix":
        return list(MIX)
    return [opponent]


def ppo_settings(args, warm):
    """MaskablePPO's keyword arguments: DEFAULT_PPO, ENV_PPO, ``--ppo``; after a warm start
    (cloning, DAgger, or a model loaded with ``--init``: PPO refines a trained policy)
    DEFAULT_FINETUNE over those, then ``--ppo`` and ``--finetune`` again."""
    layers = [DEFAULT_PPO, ENV_PPO.get(args.env, {}), parse_config(args.ppo)]
    if warm or args.init:
        layers += [DEFAULT_FINETUNE, parse_config(args.ppo), parse_config(args.finetune)]
    kwargs = {}
    for layer in layers:
        kwargs.update(layer)
    return kwargs


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=f"Per-env defaults: {ENV_ARGS}; MaskablePPO per env: "
                                       f"{ENV_PPO}.")
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
    p.add_argument("--no-eval-sampled", dest="eval_sampled", action="store_false",
                   help="evaluate only the most likely actions, not also sampled ones")
    p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                   help=f"env config, JSON values (default {DEFAULT_CONFIG}, and per env "
                        f"{ENV_CONFIG})")
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
                   help="cells: the convolutions under bfloat16 autocast (2-3x faster on "
                        "CPUs with AMX / AVX512-BF16)")
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
    p.set_defaults(**ENV_ARGS.get(p.parse_known_args(argv)[0].env, {}))
    args = p.parse_args(argv)
    if args.minutes is None and args.timesteps is None:
        args.minutes = DEFAULT_MINUTES
    if args.out is None:
        args.out = os.path.join("runs", args.env)
    return args


def train(args):
    import torch
    from sb3_contrib import MaskablePPO

    from ..wrappers.opponents import PolicyOpponent

    threads = max(1, args.threads)
    torch.set_num_threads(threads)
    torch.manual_seed(args.seed)

    config = dict(DEFAULT_CONFIG)
    config.update(ENV_CONFIG.get(args.env, {}))
    config.update(parse_config(args.config))
    config["obs_dtype"] = "float32"

    path_planes = None
    if args.arch == "paths":
        path_planes = getattr(botarena.env_module(args.env), "PATH_PLANES", None)
        if path_planes is None:
            raise SystemExit(f"--arch paths needs PATH_PLANES in {args.env}'s module")
        if config.get("view", "board") != "board":
            raise SystemExit(f"--arch paths needs the board view (view=\"board\"), got "
                             f"{config.get('view')!r}")

    names = []
    for part in args.opponent.split(","):
        names += opponent_specs(part.strip())
    for n in names:
        if n not in ("random", "greedy", "self") and n not in botarena.game(args.env).bots:
            raise SystemExit(f"unknown opponent {n!r}")
    self_opp = None
    specs = []
    for n in names:
        if n == "self":
            if self_opp is None:  # a placeholder until the learner exists
                self_opp = PolicyOpponent(lambda obs, masks: np.zeros(len(obs), dtype=np.int64))
            specs.append(self_opp)
        else:
            specs.append(n)
    venv = botarena.vector_env(args.env, args.num_envs, opponent=specs, seed=args.seed,
                               **config)

    total = args.timesteps if args.timesteps is not None else 10**12
    channels = _ints(args.channels)
    arch = [int(x) for x in args.net_arch.split(",") if x]
    policy = "MlpPolicy"
    policy_kwargs = {"net_arch": {"pi": arch, "vf": arch}}
    if args.arch == "cells":
        from .cells import CellsPolicy, OwnCollisionFree
        policy = CellsPolicy
        policy_kwargs = {"channels": channels, "value_hidden": args.features_dim,
                         "bf16": args.bf16, "coords": args.coords}
        if args.unit_moves:
            module = botarena.env_module(args.env)
            if not hasattr(module, "UNIT_MOVES"):
                raise SystemExit(f"--unit-moves: {args.env} has no UNIT_MOVES")
            policy_kwargs.update(unit_moves=module.UNIT_MOVES, units_plane=module.UNITS_PLANE)
            venv = OwnCollisionFree(venv, module.UNIT_MOVES, module.UNITS_PLANE)
    elif args.arch != "mlp":
        extractors = build_extractors()
        extractor_kwargs = {"features_dim": args.features_dim, "channels": channels}
        if args.arch == "ego":
            if config.get("view") != "ego":
                raise SystemExit(f"--arch ego needs view=\"ego\", got {config.get('view')!r}")
            extractor_kwargs = {"features_dim": args.features_dim, "radius": args.ego_radius,
                                "scalars": _ints(args.ego_scalars),
                                "drop": _ints(args.ego_drop)}
        if args.arch == "paths":
            from .paths import PathPlanes
            extractors["paths"] = PathPlanes
            extractor_kwargs = dict(path_planes, channels=channels)
            if args.path_values is not None:
                extractor_kwargs["values"] = args.path_values
        policy_kwargs.update({"features_extractor_class": extractors[args.arch],
                              "features_extractor_kwargs": extractor_kwargs,
                              # the value loss (returns ~50 squares) would swamp the
                              # policy's gradient in a shared extractor
                              "share_features_extractor": False})

    t0 = time.perf_counter()
    pretrain_steps = args.pretrain_steps
    if pretrain_steps < 0:
        pretrain_steps = DEFAULT_PRETRAIN["steps"]
    warm = pretrain_steps or args.dagger_rounds
    if warm and args.teacher not in botarena.game(args.env).bots:
        raise SystemExit(f"no {args.teacher!r} bot to clone in {args.env}")
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
    ppo_kwargs = ppo_settings(args, warm)
    ppo_kwargs["batch_size"] = min(ppo_kwargs["batch_size"],
                                   ppo_kwargs["n_steps"] * venv.num_envs)
    if args.init:
        model = MaskablePPO.load(args.init, env=venv, device=args.device,
                                 custom_objects={"policy_kwargs": policy_kwargs}, **ppo_kwargs)
    else:
        model = MaskablePPO(policy, venv, seed=args.seed,
                            device=args.device, verbose=0, policy_kwargs=policy_kwargs,
                            **ppo_kwargs)
    pretrain_stats = None

    def recording(samples):
        return recording_shape(samples, args.pretrain_envs)

    n, turns = recording(pretrain_steps or DEFAULT_PRETRAIN["steps"])
    teacher_opponents = names if "self" not in names else ["random", args.teacher]
    cap = args.pretrain_minutes
    if cap is None and args.minutes is not None:
        cap = args.minutes * args.pretrain_share

    def cap_left():
        return None if cap is None else 60 * cap - (time.perf_counter() - t0)

    selection = StageSelection(model, args.env, [n for n in dict.fromkeys(names) if n != "self"],
                               args.select_games, args.seed, config)

    def save_stage(name):
        if args.save_stages:
            os.makedirs(args.out, exist_ok=True)
            model.save(os.path.join(args.out, f"{name}.zip"))
        selection.score(name)

    if pretrain_steps:
        from .pretrain import collect, pretrain
        print(f"pretraining: cloning {args.teacher!r} from {n * turns} samples "
              f"(epsilon {DEFAULT_PRETRAIN['epsilon']}), {args.pretrain_epochs} epochs, "
              f"lr {args.pretrain_lr}", flush=True)
        data = collect(args.env, n, turns, opponent=teacher_opponents,
                       seed=args.seed + 1_000_000, teacher=args.teacher,
                       epsilon=DEFAULT_PRETRAIN["epsilon"], gamma=ppo_kwargs["gamma"],
                       **config)
        pretrain_stats = pretrain(model, data, epochs=args.pretrain_epochs,
                                  learning_rate=args.pretrain_lr,
                                  batch_size=DEFAULT_PRETRAIN["batch_size"], seed=args.seed,
                                  time_budget_s=cap_left(),
                                  log=lambda line: print(line, flush=True),
                                  class_power=args.pretrain_class_power)
        del data
        save_stage("clone")
        # numba's threading layer (asked for by games of 256+ envs) resets the OpenMP
        # threads that torch shares: 2 threads on busy cores ran PPO ~10x slower
        torch.set_num_threads(threads)
        pretrain_stats.update(samples=n * turns, envs=n, turns=turns)
    if args.dagger_rounds:
        from .pretrain import dagger
        n, turns = recording(args.dagger_steps or pretrain_steps or DEFAULT_PRETRAIN["steps"])
        print(f"dagger: {args.dagger_rounds} rounds of {n * turns} samples, teacher "
              f"{args.teacher!r}, beta {args.dagger_beta}", flush=True)
        dagger_stats = dagger(model, args.env, args.dagger_rounds, n, turns,
                              opponent=teacher_opponents, teacher=args.teacher,
                              beta=args.dagger_beta, seed=args.seed + 2_000_000,
                              gamma=ppo_kwargs["gamma"],
                              batch_size=DEFAULT_PRETRAIN["batch_size"],
                              time_budget_s=cap_left(),
                              log=lambda line: print(line, flush=True),
                              class_power=args.pretrain_class_power,
                              on_round=lambda r: save_stage(f"dagger{r}"), **config)
        torch.set_num_threads(threads)
        pretrain_stats = dict(pretrain_stats or {}, dagger=dagger_stats)
    selection.restore_best()
    torch.set_num_threads(threads)
    if warm:
        pretrain_stats["seconds_total"] = time.perf_counter() - t0
    minutes_left = None
    if args.minutes is not None:
        # the selection's games after PPO count against the minutes too
        minutes_left = max(args.minutes - (time.perf_counter() - t0 + selection.last_seconds)
                           / 60, 0.05)
    callback = _Callbacks.build(minutes_left, total, names, args.self_play_every,
                                args.print_every, progress=not args.no_progress)
    print(f"training {args.env}: {venv.num_envs} envs vs {names}, config {config}, "
          f"ppo {ppo_kwargs}, {args.arch} extractor, heads {arch}, "
          f"torch threads {threads}, budget "
          f"{'%.1f min' % minutes_left if minutes_left else '-'} / "
          f"{args.timesteps or '-'} steps", flush=True)
    torch.set_num_threads(threads)
    t1 = time.perf_counter()
    model.learn(total_timesteps=total, callback=callback, progress_bar=False)
    seconds = time.perf_counter() - t1
    selection.score("ppo")
    selection.restore_best()
    torch.set_num_threads(threads)
    if selection.games:
        pretrain_stats = dict(pretrain_stats or {}, selection=selection.summary())
    callback.pretrain = pretrain_stats
    callback.seconds_total = time.perf_counter() - t0
    return model, venv, callback, config, ppo_kwargs, names, seconds, threads


def main(argv=None):
    args = parse_args(argv)
    model, venv, cb, config, ppo_kwargs, names, seconds, threads = train(args)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.zip")
    model.save(path)
    print(f"saved {path} ({model.num_timesteps} steps in {seconds:.0f}s, "
          f"{model.num_timesteps / seconds:.0f} fps)", flush=True)

    eval_config = {k: v for k, v in config.items() if k != "reward"}
    evals = {}
    modes = [True, False] if args.eval_sampled else [True]
    for deterministic in modes:
        for opp in ("random", "greedy"):
            r = evaluate(model, args.env, opp, games=args.eval_games, seed=10_000 + args.seed,
                         deterministic=deterministic, **eval_config)
            evals[opp if deterministic else f"{opp}_sampled"] = r
            print(format_result(r), flush=True)
    results = {
        "env": args.env, "opponents": names, "config": config, "ppo": ppo_kwargs,
        "policy": {"arch": args.arch, "channels": args.channels, "ego_scalars": args.ego_scalars,
                   "ego_drop": args.ego_drop, "ego_radius": args.ego_radius,
                   "features_dim": args.features_dim, "path_values": args.path_values,
                   "net_arch": args.net_arch, "bf16": args.bf16, "unit_moves": args.unit_moves,
                   "coords": args.coords},
        "pretrain": cb.pretrain, "seconds_total": round(cb.seconds_total, 1),
        "num_envs": args.num_envs, "seed": args.seed, "minutes": args.minutes,
        "timesteps": int(model.num_timesteps), "seconds": round(seconds, 1),
        "fps": round(model.num_timesteps / seconds, 1), "torch_threads": threads,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "stopped_by_clock": cb.stopped_by_clock, "episodes": cb.episodes,
        "self_play_snapshots": cb.snapshots, "history": cb.history,
        "eval": evals,
        "win_rate": {k: v["win_rate"] for k, v in evals.items()},
        "argv": sys.argv[1:] if argv is None else list(argv),
    }
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    print(f"wrote {os.path.join(args.out, 'results.json')}", flush=True)
    return results


if __name__ == "__main__":
    main()
