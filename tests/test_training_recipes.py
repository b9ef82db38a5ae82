"""The trainer's recipes (``training.recipes``), its policies' registry
(``training.policies``) and its stages (``training.ppo``)."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

import botarena  # noqa: E402
from botarena.training.ppo import (Run, make_env, make_model, parse_args,  # noqa: E402
                                   prepare, train)
from botarena.training.recipes import RECIPES, Recipe, recipe  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOT_MATRICES = os.path.join(ROOT, "docs", "bot_matrices.json")


def strongest_bot(table):
    """The bot of a bot matrix that scores the most over all its pairings (a draw: half)."""
    def score(row):
        games = sum(r["games"] for r in row.values())
        return sum(r["wins"] + r["draws"] / 2 for r in row.values()) / games
    return max(table, key=lambda bot: score(table[bot]))


def test_every_game_has_a_recipe_evaluated_against_random_and_its_strongest_bot():
    with open(BOT_MATRICES) as f:
        matrices = json.load(f)
    assert set(RECIPES) == set(botarena.ENV_IDS) == set(matrices)
    for env_id, entry in matrices.items():
        opponents = recipe(env_id).eval_opponents
        assert opponents[0] == "random"
        assert strongest_bot(entry["table"]) in opponents
        assert set(opponents) <= set(botarena.game(env_id).bots)
        assert len(set(opponents)) == len(opponents)
    assert recipe("dungeon_v0").eval_opponents == ("random", "safe_bomber", "trapper")
    assert recipe("no_such_game") == Recipe()


def test_eval_opponents_default_to_the_recipes_and_are_checked():
    assert parse_args(["--env", "coderunner_v0"]).eval_opponents == "random,greedy,racer"
    assert parse_args(["--env", "paint_v0", "--eval-opponents", "greedy"]).eval_opponents \
        == "greedy"
    run = prepare(parse_args(["--env", "ants_v0", "--timesteps", "1"]))
    assert run.eval_opponents == ["random", "greedy", "raider"]
    assert run.opponents == ["random"] and run.pretrain_steps == 25_600 and run.warm
    assert run.config == {"reward": "win_loss", "obs_dtype": "float32"}
    with pytest.raises(SystemExit, match="unknown opponent 'nobody'"):
        prepare(parse_args(["--env", "paint_v0", "--eval-opponents", "random,nobody"]))
    with pytest.raises(SystemExit, match="eval-opponents"):
        prepare(parse_args(["--env", "paint_v0", "--eval-opponents", "self"]))


def test_importing_the_trainer_needs_no_torch():
    code = ("import sys; import botarena.training.ppo, botarena.training.policies, "
            "botarena.training.recipes, botarena.training.callbacks; "
            "print('torch' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "False"


@pytest.mark.parametrize("argv, extractor", [
    (["--env", "paint_v0"], "FlattenExtractor"),
    (["--env", "paint_v0", "--arch", "cnn", "--channels", "4"], "PlanesCNN"),
    (["--env", "paint_v0", "--arch", "ego", "--ego-radius", "2"], "EgoPlanes"),
    (["--env", "dungeon_v0", "--channels", "4", "--path-values", "2"], "PathPlanes"),
    (["--env", "ants_v0", "--channels", "4"], "CellsTrunk"),
])
def test_the_stages_build_each_policy(argv, extractor):
    """prepare, make_env and make_model build the model of ``--arch`` from one registry
    (policies.build_policy), ants_v0's with its units ordered (--unit-moves)."""
    run = prepare(parse_args(argv + ["--num-envs", "2", "--timesteps", "1"]))
    assert isinstance(run, Run)
    make_env(run)
    make_model(run)
    assert type(run.model.policy.pi_features_extractor).__name__ == extractor
    assert run.ppo["batch_size"] <= run.ppo["n_steps"] * 2
    ordered = type(run.venv).__name__ == "OwnCollisionFree"
    assert ordered == (run.args.env == "ants_v0")


def test_train_runs_every_stage_and_evaluates_the_recipes_opponents():
    run = train(parse_args(["--env", "coderunner_v0", "--num-envs", "4", "--timesteps", "64",
                            "--pretrain-steps", "64", "--pretrain-epochs", "1",
                            "--dagger-rounds", "1", "--dagger-steps", "32",
                            "--eval-games", "2", "--no-eval-sampled", "--no-progress"]))
    assert run.model.num_timesteps >= 64 and run.ppo_seconds > 0
    assert run.pretrain["samples"] == 64 and run.pretrain["dagger"]["rounds"] == 1
    assert run.ppo["learning_rate"] == 1e-4            # DEFAULT_FINETUNE after the warm start
    assert list(run.evals) == ["random", "greedy", "racer"]
    assert all(r["games"] == 2 for r in run.evals.values())
    assert run.seconds_total >= run.ppo_seconds and run.eval_seconds > 0
