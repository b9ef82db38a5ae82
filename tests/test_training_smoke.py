"""Smoke tests of the training entry point and of ``evaluate``.

The subprocess run clones the greedy bot from 512 samples, trains MaskablePPO for 2048
steps on 8 envs (a few seconds after numba's compile cache is warm) and checks the saved
model and results JSON; ``test_pretrain_clones_greedy`` checks the warm start itself.
``evaluate(record=DIR)`` writes a replay of every game counted.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

import botarena  # noqa: E402
from botarena.envs.paint.bots import greedy as greedy_bot  # noqa: E402
from botarena.envs.dungeon.constants import Action  # noqa: E402
from botarena.envs.paint.constants import Plane  # noqa: E402
from botarena import replay  # noqa: E402
from botarena.training.evaluate import POLICY_NAME, evaluate  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


BOMB = int(Action.BOMB)


def greedy_policy(num_envs):
    """paint's greedy bot as a policy function ``f(obs, masks)``: it rebuilds a 2-player
    board (seat 0 = the observer) from the observation planes and asks the jitted bot."""
    game = botarena.game("paint_v0", num_envs)
    game.reset(0)
    s = game.state

    def act(obs, masks):
        n = len(obs)
        own, other = obs[:, Plane.OWN_PAINT] > 0, obs[:, Plane.OPPONENT_PAINT] > 0
        s.colour[:n] = np.where(own, 1, np.where(other, 2, 0))
        s.colour[:n][obs[:, Plane.OBSTACLE] > 0] = -1
        for i in range(n):
            s.positions[i, 0] = np.argwhere(obs[i, Plane.OWN_AVATAR] > 0)[0]
            s.positions[i, 1] = np.argwhere(obs[i, Plane.OPPONENT_AVATAR] > 0)[0]
        out = np.zeros(n, dtype=np.int64)
        greedy_bot(s, game.params, np.arange(n), np.zeros(n, dtype=np.int64), out)
        return out

    return act


def stay_policy(obs, masks):
    return np.zeros(len(obs), dtype=np.int64)


def test_evaluate_greedy_policy_beats_random():
    r = evaluate(greedy_policy(40), "paint_v0", "random", games=40, seed=1)
    assert r["games"] == 40 and r["wins"] + r["draws"] + r["losses"] == 40
    assert r["win_rate"] >= 0.9
    assert r["by_seat"]["0"]["games"] == r["by_seat"]["1"]["games"] == 20


def test_evaluate_stay_loses_to_greedy():
    r = evaluate(stay_policy, "paint_v0", "greedy", games=20, seed=2)
    assert r["loss_rate"] >= 0.95
    assert r["mean_score"] <= 2
    assert 0.0 <= r["win_rate"] <= 1.0


def test_evaluate_counts_more_games_than_envs():
    r = evaluate(stay_policy, "paint_v0", "random", games=10, seed=3, num_envs=4,
                 obs_dtype="uint8")
    assert r["games"] == 10
    assert abs(r["win_rate"] + r["draw_rate"] + r["loss_rate"] - 1.0) < 1e-9


def test_evaluate_counts_a_fixed_share_of_games_per_env():
    """Short games must not crowd out long ones: in the even envs (learner seat 0) the
    learner bombs its own cell whenever it can and loses early, in the odd ones it waits
    out the 300 ticks; each env still counts exactly its share of the 8 games."""
    def bomber_in_even_envs(obs, masks):
        actions = np.zeros(len(obs), dtype=np.int64)
        even = np.arange(len(obs)) % 2 == 0
        actions[even & (masks[:, BOMB] > 0)] = BOMB
        return actions

    r = evaluate(bomber_in_even_envs, "dungeon_v0", "random", games=8, seed=4, num_envs=4,
                 max_turns=300)
    assert r["games"] == 8
    assert r["by_seat"]["0"]["games"] == r["by_seat"]["1"]["games"] == 4
    assert r["by_seat"]["0"]["losses"] >= 3   # the bomber loses most of its games


def test_evaluate_records_every_game(tmp_path):
    """``record``: a replay of each game counted, reproducing it (the learner's scores in
    the replays average to the result's), the seats named."""
    r = evaluate(stay_policy, "paint_v0", "greedy", games=3, seed=5, record=str(tmp_path),
                 max_turns=20)
    files = sorted(tmp_path.glob("game-*.jsonl"))
    assert len(files) == 3 and r["record"] == str(tmp_path)
    scores = []
    for path in files:
        game, header, result = replay.play(path)                # it verifies
        assert sorted(header["agents"]) == ["greedy", POLICY_NAME]
        assert result == {"scores": game.scores[0].tolist(), "over": True}
        scores.append(result["scores"][header["agents"].index(POLICY_NAME)])
    assert np.mean(scores) == r["mean_score"]
    with pytest.raises(ValueError, match="num_envs"):
        evaluate(stay_policy, "paint_v0", games=3, num_envs=2, record=str(tmp_path))


def test_ppo_cli_smoke(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "botarena.training.ppo", "--env", "paint_v0",
           "--timesteps", "2048", "--num-envs", "8", "--eval-games", "10", "--out", str(out),
           "--no-progress", "--pretrain-steps", "512", "--pretrain-epochs", "2",
           "--dagger-rounds", "2", "--dagger-steps", "256", "--save-stages",
           "--select-games", "2"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "win/draw/loss vs random" in proc.stdout
    assert "win/draw/loss vs greedy" in proc.stdout

    results = json.loads((out / "results.json").read_text())
    assert results["timesteps"] >= 2048
    assert results["pretrain"]["samples"] == 512 and results["pretrain"]["epochs"] == 2
    assert results["pretrain"]["dagger"]["rounds"] == 2
    assert results["pretrain"]["dagger"]["samples"] == 2 * 256   # --dagger-steps per round
    for stage in ("clone", "dagger1", "dagger2"):                # --save-stages
        assert (out / f"{stage}.zip").exists()
    selection = results["pretrain"]["selection"]                 # --select-games
    assert [s["stage"] for s in selection["stages"]] == ["clone", "dagger1", "dagger2", "ppo"]
    assert selection["best"] in ("clone", "dagger1", "dagger2", "ppo")
    assert selection["opponents"] == ["random", "greedy"]
    assert results["eval_opponents"] == ["random", "greedy"]     # paint_v0's recipe
    for opp in ("random", "greedy"):
        assert 0.0 <= results["win_rate"][opp] <= 1.0
        assert results["eval"][opp]["games"] == 10

    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(str(out / "model.zip"), device="cpu")
    assert results["config"]["view"] == "ego"   # the trainer's default for paint
    config = {k: v for k, v in results["config"].items() if k != "reward"}
    venv = botarena.vector_env("paint_v0", 2, opponent="random", **config)
    obs = venv.reset()
    assert obs.shape == (2, 6, 19, 19)
    actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
    assert actions.shape == (2,)
    assert all(venv.action_masks()[i, a] for i, a in enumerate(actions))

    # the evaluation CLI finds the env and its config beside the model
    from botarena.training.evaluate import main as evaluate_main
    evals = evaluate_main(["--model", str(out / "model.zip"), "--games", "4",
                           "--opponent", "greedy", "--record", str(tmp_path / "replays")])
    assert evals["greedy"]["games"] == 4
    assert len(list((tmp_path / "replays" / "greedy").glob("game-*.jsonl"))) == 4


def test_pretrain_clones_greedy():
    """The imitation warm start: a few epochs on a small teacher sample make the policy's
    most likely action the greedy bot's on most of that sample (the plumbing of labels,
    masks and gradients), and well above chance on fresh games (greedy breaks ties at
    random, so even a perfect clone agrees on only part of them)."""
    import torch
    from sb3_contrib import MaskablePPO

    from botarena.training.pretrain import agreement, collect, pretrain

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = collect("paint_v0", 32, 40, seed=5)
    assert data["obs"].shape == (32 * 40, 6, 10, 10) and data["obs"].dtype == np.float32
    assert data["masks"][np.arange(len(data["actions"])), data["actions"]].all()
    assert np.isfinite(data["returns"]).all() and data["returns"].max() > 1
    venv = botarena.vector_env("paint_v0", 2, opponent="greedy", obs_dtype="float32")
    model = MaskablePPO("MlpPolicy", venv, seed=0, device="cpu", policy_kwargs={
        "net_arch": {"pi": [128, 64], "vf": [64]}})
    stats = pretrain(model, data, epochs=60, learning_rate=3e-3, batch_size=128)
    assert stats["epochs"] == 60 and stats["accuracy"] >= 0.5
    pred, _ = model.predict(data["obs"], action_masks=data["masks"], deterministic=True)
    assert np.mean(pred == data["actions"]) >= 0.5
    assert agreement(model, num_envs=16, steps=30, seed=9) >= 0.2


def test_dagger_clones_on_the_learners_own_states():
    """DAgger rounds from an untrained policy: the learner's own (mostly random) games,
    labelled by greedy, teach it greedy's moves; the window keeps the last recordings."""
    import torch
    from sb3_contrib import MaskablePPO

    from botarena.training.pretrain import agreement, dagger

    torch.manual_seed(0)
    torch.set_num_threads(1)
    venv = botarena.vector_env("paint_v0", 2, opponent="greedy", obs_dtype="float32")
    model = MaskablePPO("MlpPolicy", venv, seed=0, device="cpu", policy_kwargs={
        "net_arch": {"pi": [128, 64], "vf": [64]}})
    before = agreement(model, num_envs=16, steps=30, seed=9)
    stats = dagger(model, "paint_v0", 3, 32, 20, teacher="greedy", beta=0.2, window=2,
                   epochs=30, learning_rate=3e-3, batch_size=128, seed=4)
    assert stats["rounds"] == 3 and stats["samples"] == 3 * 32 * 20
    assert stats["accuracy"] >= 0.5
    after = agreement(model, num_envs=16, steps=30, seed=9)
    assert after > before + 0.1   # measured: 0.05 -> 0.20
    with pytest.raises(ValueError, match="beta"):
        dagger(model, "paint_v0", 1, 4, 4, beta=1.5)


def test_per_env_defaults_and_overrides():
    """ants_v0's recipe (recipes.RECIPES: its args, ppo and config) applies to ants_v0 only,
    and every option given on the command line wins over it."""
    from botarena.training.ppo import parse_args, ppo_settings
    from botarena.training.recipes import env_config
    ants = parse_args(["--env", "ants_v0"])
    assert (ants.arch, ants.bf16, ants.opponent, ants.pretrain_steps) == ("cells", True,
                                                                          "random", 25_600)
    assert ants.unit_moves and not parse_args(["--env", "paint_v0"]).unit_moves
    assert env_config("ants_v0")["reward"] == "win_loss"
    assert env_config("paint_v0", {"view": "board"}) == {"reward": "score", "view": "board"}
    warm = ppo_settings(ants, warm=True)
    assert (warm["n_steps"], warm["gamma"], warm["learning_rate"]) == (64, 0.995, 1e-4)
    mine = parse_args(["--env", "ants_v0", "--no-bf16", "--arch", "cnn", "--opponent",
                       "greedy", "--ppo", "n_steps=32", "--finetune", "learning_rate=0.01"])
    assert (mine.arch, mine.bf16, mine.opponent) == ("cnn", False, "greedy")
    assert ppo_settings(mine, warm=True)["n_steps"] == 32
    assert ppo_settings(mine, warm=True)["learning_rate"] == 0.01
    assert ppo_settings(mine, warm=False)["learning_rate"] == 5e-4
    paint = parse_args(["--env", "paint_v0"])
    assert (paint.arch, paint.bf16, paint.num_envs) == ("mlp", True, 128)
    assert paint.pretrain_steps == 0
    assert ppo_settings(paint, warm=False)["n_steps"] == 64
    coder = parse_args(["--env", "coderunner_v0"])       # the defaults: float32, 64 envs
    assert (coder.bf16, coder.num_envs, ppo_settings(coder, warm=False)["n_steps"]) == (
        False, 64, 128)
    # a model loaded with --init is refined at the fine-tuning steps, as a clone is
    loaded = parse_args(["--env", "paint_v0", "--init", "runs/x/model.zip"])
    assert ppo_settings(loaded, warm=False)["learning_rate"] == 1e-4
    assert ppo_settings(paint, warm=False)["learning_rate"] == 5e-4
    runner = parse_args(["--env", "coderunner_v0", "--minutes", "5"])
    assert (runner.teacher, runner.pretrain_steps, runner.dagger_rounds,
            runner.pretrain_share) == ("racer", 100_000, 3, 0.6)
    assert paint.pretrain_share == pytest.approx(1 / 3) and paint.teacher == "greedy"
    dungeon = parse_args(["--env", "dungeon_v0"])
    assert (dungeon.arch, dungeon.teacher, dungeon.opponent, dungeon.path_values) == (
        "paths", "trapper", "safe_bomber", 16)
    assert env_config("dungeon_v0") == {"reward": "score", "view": "board", "shield": True}


def test_pretrain_envs_sets_the_recordings_turns():
    """--pretrain-envs: fewer envs record more turns of each game for the same samples."""
    from botarena.training.ppo import parse_args, recording_shape, train
    from botarena.training.recipes import DEFAULT_PRETRAIN
    assert recording_shape(25_600) == (DEFAULT_PRETRAIN["num_envs"], 100)
    assert recording_shape(32_000, 128) == (128, 250)
    assert recording_shape(100, 128) == (100, 1)
    assert parse_args(["--env", "paint_v0"]).pretrain_envs == DEFAULT_PRETRAIN["num_envs"]
    assert parse_args(["--env", "towers_v0"]).pretrain_envs == 16     # whole 1000-turn games
    assert parse_args(["--env", "towers_v0", "--pretrain-envs", "64"]).pretrain_envs == 64
    with pytest.raises(SystemExit, match="pretrain-envs"):
        train(parse_args(["--env", "paint_v0", "--pretrain-envs", "0", "--timesteps", "1"]))


def test_pretrain_class_power_needs_the_cells_policy():
    from botarena.training.ppo import parse_args, train
    assert parse_args(["--env", "paint_v0"]).pretrain_class_power == 0.0
    with pytest.raises(SystemExit, match="pretrain-class-power"):
        train(parse_args(["--env", "paint_v0", "--pretrain-class-power", "0.5",
                          "--timesteps", "1"]))
    with pytest.raises(SystemExit, match="pretrain-class-power"):
        train(parse_args(["--env", "ants_v0", "--pretrain-class-power", "-1",
                          "--timesteps", "1"]))


def test_select_games_must_not_be_negative():
    from botarena.training.ppo import parse_args, train
    assert parse_args(["--env", "paint_v0"]).select_games == 0
    with pytest.raises(SystemExit, match="select-games"):
        train(parse_args(["--env", "paint_v0", "--select-games", "-1", "--timesteps", "1"]))


def test_pretrain_share_must_be_a_share():
    from botarena.training.ppo import parse_args, train
    with pytest.raises(SystemExit, match="pretrain-share"):
        train(parse_args(["--env", "paint_v0", "--pretrain-share", "0", "--timesteps", "1"]))


def test_ego_extractor_reads_constant_planes_once():
    """``--arch ego`` on dungeon_v0's ego view: the constant planes count once (at the
    centre) and the own-player plane not at all, so the features ignore them elsewhere;
    every other plane counts in every cell of the (cropped) window; the trainer refuses
    it on a board view."""
    import torch

    from botarena.envs.dungeon import PATH_PLANES
    from botarena.envs.dungeon.constants import Plane as DPlane
    from botarena.training.policies import build_extractors, ints as _ints
    from botarena.training.ppo import parse_args, train

    scalars = _ints(",".join(str(p) for p in PATH_PLANES["scalars"]))
    drop = _ints(str(int(DPlane.OWN)))
    assert DPlane.TIME_LEFT in scalars and DPlane.OWN_SCORE in scalars and len(scalars) == 5
    venv = botarena.vector_env("dungeon_v0", 2, opponent="random", view="ego",
                               obs_dtype="float32")
    space = venv.observation_space
    c, h, w = space.shape
    ego = build_extractors()["ego"]
    torch.manual_seed(0)
    full = ego(space, scalars=scalars, drop=drop, features_dim=16)
    assert full.linear[0].in_features == (c - 6) * h * w + 5
    obs = torch.as_tensor(venv.reset())
    base = full(obs)
    changed = obs.clone()
    changed[:, DPlane.OWN] = 1 - changed[:, DPlane.OWN]          # dropped
    changed[:, DPlane.OWN_HP, 0, 0] += 0.5                       # constant plane off centre
    assert torch.equal(full(changed), base)
    changed[:, DPlane.OWN_HP, h // 2, w // 2] += 0.5             # ... at the centre
    assert not torch.equal(full(changed), base)
    changed = obs.clone()
    changed[:, DPlane.WOOD, 0, 0] = 1 - changed[:, DPlane.WOOD, 0, 0]
    assert not torch.equal(full(changed), base)
    crop = ego(space, scalars=scalars, drop=drop, radius=3, features_dim=16)
    assert crop.linear[0].in_features == (c - 6) * 7 * 7 + 5
    assert torch.equal(crop(changed), crop(obs))                 # (0, 0) is outside the crop
    with pytest.raises(SystemExit, match="view"):
        train(parse_args(["--env", "dungeon_v0", "--arch", "ego", "--config",
                          'view="board"', "--timesteps", "1"]))
