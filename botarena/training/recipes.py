"""The trainer's recipes: its defaults, and per game what it changes of them.

A recipe (``Recipe``) is plain data, kept in Python rather than a TOML or JSON file: the
settings keep their types (tuples, 1/3), the file needs no loader nor package data, and
each choice carries its reason as a comment beside it.  What was measured to make each
choice is in the results log (``docs/results.md``, Training); the README's results table
holds the recipes' win rates.

``python -m botarena.training.ppo --env ENV`` starts from ``RECIPES[ENV]`` (or
``Recipe()`` for a game without one), and every command-line option wins over it:

- ``config``: the env config over ``DEFAULT_CONFIG`` (``--config``);
- ``args``: command-line defaults over the parser's own (``ppo.parse_args``);
- ``ppo``: MaskablePPO settings over ``DEFAULT_PPO`` (``--ppo``);
- ``eval_opponents``: the bots the trained model is evaluated against
  (``--eval-opponents``): ``random``, the bot of the README's results table, and the
  strongest bot of the game (``docs/bot_matrices.json``).
"""
from dataclasses import dataclass, field

# Opponents of --opponent mix: "self" is the learner's frozen snapshot.
MIX = ("random", "greedy", "greedy", "self")

# Three envs in four against greedy: random is beaten early, and greedy is the bar.
# Self-play snapshots are opt-in (--opponent mix): they lowered short runs' win rates.
DEFAULT_OPPONENT = "random,greedy,greedy,greedy"

# MaskablePPO's settings, tuned on paint_v0 with 5-minute runs.
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
# The score difference as the reward: it beat the zero-sum reward on paint_v0.
DEFAULT_CONFIG = {"reward": "score"}
DEFAULT_MINUTES = 5.0

# The policy (--arch, policies.ARCHS): the flat MLP is ~10x cheaper per sample than a CNN.
DEFAULT_ARCH = "mlp"
DEFAULT_NET_ARCH = "128,128"
DEFAULT_FEATURES_DIM = 128

# Imitation warm start (--pretrain-steps N), off by default: on paint_v0 the clone's most
# likely actions loop, and PPO from it won less than PPO alone.
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
# PPO after a warm start or --init: small steps, so the clone is refined, not overwritten.
DEFAULT_FINETUNE = {
    "learning_rate": 1e-4,
    "clip_range": 0.1,
    "ent_coef": 0.001,
}

# Evaluation opponents of a game without a recipe.
DEFAULT_EVAL_OPPONENTS = ("random", "greedy")


@dataclass(frozen=True)
class Recipe:
    """One game's changes to the defaults (see the module docstring)."""

    config: dict = field(default_factory=dict)
    args: dict = field(default_factory=dict)
    ppo: dict = field(default_factory=dict)
    eval_opponents: tuple = DEFAULT_EVAL_OPPONENTS


# The settings of the games with 300- and 1000-turn games and a command per cell: short
# rollouts, fewer and smaller epochs, a longer horizon.
LONG_GAME_PPO = {"n_steps": 64, "n_epochs": 2, "batch_size": 256, "gamma": 0.995}

RECIPES = {
    "paint_v0": Recipe(
        # the ego view (planes centred on the own avatar): a walk or a shot covers the same
        # inputs wherever the avatar stands; the flat MLP learnt ~2x faster on it
        config={"view": "ego"},
        # the network is ~80% of the trainer's time: bfloat16 first layers and 2 epochs on
        # 128 envs (the same 8192 samples per rollout) ran 2.4x the env-steps/s and won
        # more within 5 minutes than 4 float32 epochs on 64 envs
        args={"bf16": True, "num_envs": 128},
        ppo={"n_steps": 64, "n_epochs": 2}),
    "coderunner_v0": Recipe(
        # one policy for both sides (blue mirrored); a death costs the runner 50 turns,
        # which a score reward does not show
        config={"mirror": True, "death_penalty": 100},
        # clone the racer (the strongest bot), then DAgger, in 60% of the minutes
        args={"teacher": "racer", "pretrain_steps": 100_000, "dagger_rounds": 3,
              "pretrain_share": 0.6},
        eval_opponents=("random", "greedy", "racer")),
    "ants_v0": Recipe(
        # +1/0/-1 at the end: a zero-sum reward gathered and fought but never razed the hill
        config={"reward": "win_loss"},
        # a command per cell: the fully convolutional cells policy (sb3-contrib's
        # MultiCategorical runs ~70 steps/s); own ants ordered so that none collide;
        # a short clone of greedy, then PPO against random
        args={"arch": "cells", "bf16": True, "channels": "32,32,32", "unit_moves": True,
              "opponent": "random", "pretrain_steps": 25_600, "pretrain_epochs": 3},
        ppo=LONG_GAME_PPO,
        eval_opponents=("random", "greedy", "raider")),
    "dungeon_v0": Recipe(
        # the shield masks the moves with no escape from the fire (the losses to random
        # were the learner's own deaths); the board view, which --arch paths reads
        config={"view": "board", "shield": True},
        # walking distances to learnt values (policies: paths); clone the trapper with
        # DAgger rounds in 60% of the minutes, then PPO against the safe bomber
        args={"arch": "paths", "channels": "32,32,32,32", "path_values": 16,
              "net_arch": "256,256", "teacher": "trapper", "pretrain_steps": 102_400,
              "pretrain_epochs": 13, "pretrain_lr": 0.001, "dagger_rounds": 8,
              "dagger_steps": 25_600, "pretrain_share": 0.6, "opponent": "safe_bomber"},
        eval_opponents=("random", "safe_bomber", "trapper")),
    "towers_v0": Recipe(
        # the cells policy clones the striped bot (a rule a convolution can copy) from
        # whole 1000-turn games, each cell's loss weighted by its command (the walking
        # command is ~90% of them), DAgger in 90% of the minutes; the stages swing
        # between winning and losing to the deterministic greedy, so --select-games
        # keeps the best; one deterministic game per seat is all greedy plays
        args={"arch": "cells", "bf16": True, "coords": True, "channels": "32,32,32",
              "teacher": "striped", "pretrain_steps": 16_000, "pretrain_envs": 16,
              "pretrain_epochs": 5, "pretrain_class_power": 0.5, "dagger_rounds": 20,
              "dagger_steps": 16_000, "pretrain_share": 0.9, "select_games": 2,
              "eval_games": 100, "eval_sampled": False},
        ppo=LONG_GAME_PPO,
        eval_opponents=("random", "greedy", "striped")),
}


def recipe(env_id):
    """``env_id``'s recipe (the defaults alone for a game without one)."""
    return RECIPES.get(env_id, Recipe())


def env_config(env_id, overrides=None):
    """The env config of ``env_id``: DEFAULT_CONFIG, its recipe's, then ``overrides``."""
    return {**DEFAULT_CONFIG, **recipe(env_id).config, **(overrides or {})}
