"""The arena: specs, matches over every protocol (recorded, replays verified, logs
beside them), python: agents in and out of process, the CLI, tournaments, vector_env
opponents and their processes closed with the vector env.  Exported bots:
``test_arena_export.py``."""
import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import botarena
from botarena import replay as replay_module
from botarena.arena.match import play
from botarena.arena.spec import SpecError, parse_spec
from botarena.arena.tournament import tournament

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CONTEST_BOT = os.path.join(HERE, "arena_bots", "contest_bot.py")
HOSTILE_AGENT = os.path.join(HERE, "arena_bots", "hostile_agent.py")
SHORT = 12


def contest_bot(protocol):
    return f'cmd:"{sys.executable}" {CONTEST_BOT} {protocol}'


def test_specs_parse_and_bad_ones_say_why(tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text("class Mine:\n    pass\n")
    assert parse_spec("bot:greedy").target == "greedy"
    python = parse_spec(f"python:{agent}:Mine")
    assert (python.kind, python.target, python.cls, python.name) == \
        ("python", str(agent), "Mine", "python:agent:Mine")
    assert parse_spec(f"python:{agent}").cls == "Agent"
    assert parse_spec('cmd:"./my bot" --fast').target == ("./my bot", "--fast")
    for text, words in [("greedy", "starts with one of"), ("bot:", "bot's name"),
                        ("policy:/no/such.zip", "not found"), ("python:", "agent file path"),
                        (f"python:{tmp_path}/none.py", "not found"), ("cmd:", "program"),
                        ('cmd:"unclosed', "can't split"), ("lua:x", "starts with one of")]:
        with pytest.raises(SpecError, match=words):
            parse_spec(text)
    with pytest.raises(SpecError, match="no bot 'nobody'"):
        play("paint_v0", ["bot:nobody", "bot:greedy"], seed=1)
    with pytest.raises(SpecError, match="no contest text protocol"):
        play("dungeon_v0", [contest_bot("paint"), "bot:random"], seed=1)
    with pytest.raises(ValueError, match="2 seats, 3 players"):
        play("paint_v0", ["bot:greedy"] * 3, seed=1)


@pytest.mark.parametrize("env_id,protocol", [("paint_v0", "paint"), ("ants_v0", "ants"),
                                             ("coderunner_v0", "coderunner"),
                                             ("towers_v0", "towers")])
def test_contest_program_plays_whole_recorded_games(env_id, protocol, tmp_path):
    record = tmp_path / "game.jsonl"
    result = play(env_id, ["bot:greedy", contest_bot(protocol)], seed=2,
                  config={"max_turns": SHORT}, record=str(record))
    seat = result["seats"][1]
    assert result["over"] and 0 < result["turns"] <= SHORT     # an ants colony may go out
    assert seat["moves"] == result["turns"] and seat["status"] == "playing"
    assert seat["timeouts"] == seat["garbled"] == seat["warnings"] == 0
    assert seat["exit_code"] is not None                       # reaped
    assert seat["log"] == str(tmp_path / "game.seat1.log") and os.path.exists(seat["log"])
    game, header, recorded = replay_module.play(str(record))   # the replay verifies
    assert header["agents"] == result["players"]
    assert recorded["scores"] == result["scores"] == game.scores[0].tolist()
    # the moves reached the game: the program's actions are not all the no-op
    turns = [json.loads(line) for line in record.read_text().splitlines()[1:-1]]
    assert any(np.any(np.asarray(t["actions"][1]) != 0) for t in turns)


def test_ants_elimination_scores_and_stops_the_replay(tmp_path):
    record = tmp_path / "ants.jsonl"
    result = play("ants_v0", [f'cmd:"{sys.executable}" {CONTEST_BOT} ants crash_start',
                              "bot:random"], seed=3, record=str(record))
    assert result["seats"][0]["status"] == "eliminated"
    assert result["over"] and result["turns"] == 0 and result["winner"] == 1
    assert result["scores"] == [1, 2]             # the survivor's point for an elimination
    last = json.loads(record.read_text().splitlines()[-1])
    assert last["type"] == "end" and "eliminated by the arena" in last["result"]["stopped"]


def test_python_agent_in_a_host_plays_as_in_process(tmp_path):
    host = play("paint_v0", [f"python:{HOSTILE_AGENT}", "bot:greedy"], seed=4,
                config={"max_turns": SHORT}, record=str(tmp_path / "host.jsonl"))
    inside = play("paint_v0", [f"python:{HOSTILE_AGENT}", "bot:greedy"], seed=4,
                  config={"max_turns": SHORT}, record=str(tmp_path / "inside.jsonl"),
                  in_process=True)
    assert host["seats"][0]["moves"] == inside["seats"][0]["moves"] == SHORT
    assert host["scores"] == inside["scores"]
    lines = [(tmp_path / name).read_text().splitlines()[1:] for name in ("host.jsonl", "inside.jsonl")]
    assert lines[0][:-1] == lines[1][:-1]        # every action and hash (the end differs)


def test_cli_match_and_errors(tmp_path):
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "botarena.arena", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
    record = tmp_path / "m.jsonl"
    r = cli("match", "coderunner_v0", "bot:greedy", contest_bot("coderunner"), "--seed", "1",
            "--games", "2", "--config", f"max_turns={SHORT}", "--record", str(record), "--json")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("coderunner_v0 seed") == 2 and "seat 1 cmd:python" in r.stdout
    results = json.loads(r.stdout[r.stdout.index("["):])
    assert [x["seed"] for x in results] == [1, 2]
    assert all(os.path.exists(tmp_path / f"m-{i}.jsonl") for i in range(2))
    r = cli("match", "paint_v0", "bot:greedy", "nonsense")
    assert r.returncode == 1 and "starts with one of" in r.stderr
    r = cli("match", "paint_v0")
    assert r.returncode == 2


def test_tournament_round_robin(tmp_path):
    players = ["bot:greedy", "bot:random", contest_bot("paint")]
    result = tournament("paint_v0", players, games=2, jobs=2, seed=7,
                        config={"max_turns": SHORT}, out=str(tmp_path))
    pairs_seatings_games = 3 * 2 * 2
    assert len(result["games"]) == pairs_seatings_games
    for p in players:
        for q in players:
            if p != q:
                a, b = result["matrix"][p][q], result["matrix"][q][p]
                assert a["wins"] == b["losses"] and a["draws"] == b["draws"]
                assert a["wins"] + a["draws"] + a["losses"] == 4
    assert result["ratings"][0]["player"] == "bot:greedy"       # wins every game
    assert result["matrix"]["bot:greedy"]["bot:random"]["wins"] == 4
    saved = json.load(open(tmp_path / "tournament.json"))
    assert saved["matrix"] == result["matrix"]
    rows = list(csv.reader(open(tmp_path / "tournament.csv")))
    assert rows[0][0] == "player" and rows[1][0] == "bot:greedy" and rows[1][2] == "4-0-0"
    same = tournament("paint_v0", players, games=2, jobs=1, seed=7,
                      config={"max_turns": SHORT}, out=str(tmp_path / "again"))
    assert same["ratings"] == result["ratings"]                 # jobs change nothing


def group_running(pgid):
    """Whether any process of the group ``pgid`` still runs (zombies do not run)."""
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:                     # not a process, or gone meanwhile
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


def test_vector_env_takes_spec_strings_and_its_close_ends_the_processes():
    venv = botarena.vector_env("coderunner_v0", 2, opponent=[contest_bot("coderunner"),
                                                             f"python:{HOSTILE_AGENT}"],
                               seed=0, max_turns=SHORT)
    opponents = [opp for opp, *_ in venv.slots.opponents]
    venv.reset()
    dones = 0
    for _ in range(2 * SHORT + 1):
        _, _, done, _ = venv.step(np.zeros(2, dtype=np.int64))
        dones += int(done.sum())
    assert dones == 4 and all(opp.warnings == 0 for opp in opponents)
    assert [opp.games for opp in opponents] == [3, 3]    # two games over, the third begun
    groups = [player.proc.pid for opp in opponents for player, _ in opp.players.values()]
    assert len(groups) == 2 and all(group_running(g) for g in groups)
    venv.close()
    assert all(opp.players == {} for opp in opponents)
    assert not any(group_running(g) for g in groups)     # every bot process group is gone
