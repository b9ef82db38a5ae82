"""Replays of every game (``botarena.replay``): a game recorded through ``RecordingEnv``
(two episodes) replays to the same states, verifies through the CLI and renders a GIF; an
edited action, seed, config or hash, or a line left out, is found and named.  ``botarena
replay`` writes a GIF, an MP4 video and the web viewer's page in one pass, and none of them
for a replay that does not verify (exit status 1, the line named)."""
import json
import re
import sys

import numpy as np
import pytest

import botarena
from botarena import replay
from botarena.arena import cli
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


def _outputs(tmp_path):
    return {kind: tmp_path / f"game.{kind}" for kind in ("gif", "mp4", "html")}


def _options(outputs):
    return [arg for kind, path in outputs.items() for arg in (f"--{kind}", str(path))]


def test_botarena_replay_writes_a_gif_a_video_and_the_viewer(tmp_path, capsys):
    import imageio.v2 as imageio
    from PIL import Image
    path, outputs = tmp_path / "game.jsonl", _outputs(tmp_path)
    record("paint_v0", path)                        # two games: a reset line
    positions = []
    game, _, _ = replay.play(path, on_turn=lambda g: positions.append(
        (int(g.state.steps[0]), g.scores[0].tolist())))
    assert cli.main(["replay", str(path), *_options(outputs)]) == 0
    printed = capsys.readouterr().out
    assert "replay verified" in printed
    assert all(f"wrote {outputs[kind]} ({len(positions)} frames)" in printed for kind in outputs)
    assert Image.open(outputs["gif"]).n_frames > 1
    picture = np.asarray(game.render_rgb(0))
    even = [side + side % replay.VIDEO_BLOCK for side in picture.shape[:2]]
    with imageio.get_reader(outputs["mp4"]) as video:
        frames = [frame for frame in video]
    assert len(frames) == len(positions) and list(frames[0].shape[:2]) == even
    page = outputs["html"].read_text()
    assert "default-src 'none'" in page                     # the page may load nothing
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)'
                                r'</script>', page, re.S).group(1))
    assert data["env"] == "paint_v0" and data["seed"] == 40
    assert [(f["turn"], f["scores"]) for f in data["frames"]] == positions
    assert "colour" in data["frames"][0]["view"]


def test_botarena_replay_names_an_edited_line_and_writes_nothing(tmp_path, capsys):
    path, bad, outputs = tmp_path / "game.jsonl", tmp_path / "bad.jsonl", _outputs(tmp_path)
    record("paint_v0", path, episodes=1)

    def other_action(line):
        line["actions"][0] = 0 if line["actions"][0] else 1

    _tampered(path, bad, 3, other_action)
    assert cli.main(["replay", str(bad), *_options(outputs)]) == 1
    assert "line 4 (turn 3)" in capsys.readouterr().err
    assert not any(p.exists() for p in outputs.values())


def test_botarena_replay_names_a_missing_package(tmp_path, capsys, monkeypatch):
    path = tmp_path / "game.jsonl"
    record("paint_v0", path, episodes=1)
    monkeypatch.setitem(sys.modules, "imageio", None)      # import imageio fails
    assert cli.main(["replay", str(path), "--mp4", str(tmp_path / "game.mp4")]) == 1
    assert "MP4 videos need imageio" in capsys.readouterr().err
