"""Replays of every game (``botarena.replay``): a game recorded through ``RecordingEnv``
(two episodes) replays to the same states, verifies through the CLI and renders a GIF; an
edited action, seed, config or hash, or a line left out, is found and named."""
import json

import numpy as np
import pytest

import botarena
from botarena import replay
from conftest import SHORT_CONFIGS


def random_action(game, rng):
    if game.action_shape():
        return rng.integers(0, game.action_values(), size=game.action_shape())
    return int(rng.integers(game.action_values()))


def record(env_id, path, episodes=2):
    env = replay.RecordingEnv(botarena.parallel_env(env_id, **SHORT_CONFIGS[env_id]), path,
                              every=5)
    rng = np.random.default_rng(0)
    finals = []
    for episode in range(episodes):
        env.reset(seed=40 + episode)
        while env.agents:
            env.step({a: random_action(env.game, rng) for a in env.agents})
        finals.append(env.game.snapshot(0))
    env.close()
    return finals


def test_record_and_replay_every_game(env_id, tmp_path):
    path = tmp_path / "game.jsonl"
    finals = record(env_id, path)
    seen = []
    game, header, result = replay.play(path, on_turn=lambda g: seen.append(int(g.state.steps[0])))
    assert header["env"] == env_id and header["seed"] == 40
    assert replay.snapshot_hash(game.snapshot(0)) == replay.snapshot_hash(finals[-1])
    assert result["scores"] == finals[-1]["scores"].tolist()
    lines = [json.loads(t) for t in path.read_text().splitlines()]
    turns = [line for line in lines if line["type"] == "turn"]
    assert len(seen) == len(lines) - 1          # after the reset and every line but the end
    assert all(("snapshot" in line) == (line["turn"] % 5 == 0) for line in turns)
    assert sum(line["type"] == "reset" for line in lines) == 1


def _tampered(path, dst, number, change):
    lines = path.read_text().splitlines()
    line = json.loads(lines[number])
    change(line)
    lines[number] = json.dumps(line)
    dst.write_text("\n".join(lines) + "\n")


def test_an_edited_replay_is_named(env_id, tmp_path):
    path, bad = tmp_path / "game.jsonl", tmp_path / "bad.jsonl"
    record(env_id, path, episodes=1)

    def other_action(line):
        first = line["actions"][0]
        if isinstance(first, list):
            first[0] = 1 - first[0] if first[0] in (0, 1) else 0
        else:
            line["actions"][0] = 1 if first != 1 else 0

    def other_seed(line):
        line["seed"] += 1

    def other_hash(line):
        line["hash"] = line["hash"][:-1] + ("0" if line["hash"][-1] != "0" else "1")

    for number, change, match in [(0, other_seed, "header"), (1, other_hash, "line 2"),
                                  (3, other_hash, "line 4")]:
        _tampered(path, bad, number, change)
        with pytest.raises(replay.ReplayError, match=match):
            replay.play(bad)
    _tampered(path, bad, 2, other_action)       # may change nothing in the game: the chain
    with pytest.raises(replay.ReplayError, match="line 3"):     # hashes the line itself
        replay.play(bad)
    lines = path.read_text().splitlines()
    bad.write_text("\n".join(lines[:2] + lines[3:]) + "\n")       # a turn left out
    with pytest.raises(replay.ReplayError, match="line 3"):
        replay.play(bad)
    bad.write_text("not json\n")
    with pytest.raises(replay.ReplayError, match="can't read"):
        replay.play(bad)


def test_cli_verifies_and_writes_a_gif(tmp_path, capsys):
    from PIL import Image
    path, gif = tmp_path / "game.jsonl", tmp_path / "game.gif"
    record("paint_v0", path, episodes=1)
    assert replay.main([str(path), "--gif", str(gif)]) == 0
    assert "replay verified" in capsys.readouterr().out
    image = Image.open(gif)
    total = 0
    for k in range(image.n_frames):     # Pillow merges equal frames, adding their durations
        image.seek(k)
        total += image.info["duration"]
    turns = sum(json.loads(t)["type"] == "turn" for t in path.read_text().splitlines())
    assert image.n_frames > 1 and total == (turns + 1) * (1000 // replay.GIF_FPS)
    path.write_text(path.read_text().replace('"seed":40', '"seed":41'))
    assert replay.main([str(path)]) == 1
