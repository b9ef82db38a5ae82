"""The dungeon contest runner: CLI, agents API, replays, real-time and synchronous modes,
--watch, the keyboard window (dummy video driver), agents as vector_env opponents.

The console command runs once as a program (``test_cli_headless_match_between_sample_files``)
and the window once in a process of its own (pygame, a faulthandler deadline); every other
CLI call goes through ``main(argv)`` in this process, which loads no second botarena."""
import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import botarena
from botarena.envs.dungeon import agents as agents_module
from botarena import replay as replay_module
from botarena.envs.dungeon.agents import (AgentLoadError, AgentOpponent, GameState, PlayerState,
                                          PolicyAgent, bot_agent_class, load_agent, make_states)
from botarena.envs.dungeon.config import Config
from botarena.envs.dungeon.game import DungeonGame
from botarena.envs.dungeon.runner import Runner, format_result
from botarena.envs.dungeon.runner import main as runner_main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "botarena", "envs", "dungeon", "sample_agents")
RANDOM_AGENT = os.path.join(SAMPLES, "random_agent.py")
SAFE_AGENT = os.path.join(SAMPLES, "safe_bomber.py")
SHORT = {"max_turns": 60}


def cli(*args, timeout=300):
    """The console command as a program of its own."""
    full_env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "-m", "botarena.envs.dungeon", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, env=full_env)


def cli_main(capsys, *args):
    """``(exit status, stdout, stderr)`` of the command's ``main(argv)`` in this process."""
    code = runner_main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write_agent(path, body):
    path.write_text(textwrap.dedent(body))
    return str(path)


# -- the CLI ---------------------------------------------------------------------------------
def test_cli_headless_match_between_sample_files(tmp_path, capsys):
    rec = tmp_path / "match.jsonl"
    r = cli("--headless", RANDOM_AGENT, SAFE_AGENT, "--seed", "3", "--max-ticks", "60",
            "--record", str(rec))
    assert r.returncode == 0, r.stderr
    assert "game over at tick" in r.stdout
    assert "player 0 (random_agent)" in r.stdout and "player 1 (safe_bomber)" in r.stdout
    assert ("winner: player" in r.stdout) or ("result: draw" in r.stdout)
    # the replay of it verifies through the CLI, and a tampered copy fails
    code, out, err = cli_main(capsys, "--headless", "--replay", str(rec))
    assert code == 0, err
    assert "replay verified" in out
    assert out.splitlines()[0] == r.stdout.splitlines()[0]
    lines = rec.read_text().splitlines()
    tick = json.loads(lines[5])
    tick["hash"] = "0" * 64
    lines[5] = json.dumps(tick)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, out, err = cli_main(capsys, "--headless", "--replay", str(bad))
    assert code == 1
    assert "hash mismatch" in err


def test_cli_bad_input(tmp_path, capsys):
    code, _, err = cli_main(capsys, "--headless", str(tmp_path / "missing.py"), "bot:random")
    assert code == 1 and "not found" in err
    code, _, err = cli_main(capsys, "--headless", "no_such_package_xyz.agent", "bot:random")
    assert code == 1 and "no such file or module" in err
    code, _, err = cli_main(capsys, "--headless", "bot:random")
    assert code == 2 and "at least 2" in err


# -- loading ---------------------------------------------------------------------------------
def test_load_agent_errors(tmp_path):
    with pytest.raises(AgentLoadError, match="not found"):
        load_agent(str(tmp_path / "nope.py"))
    with pytest.raises(AgentLoadError, match="no such file or module"):
        load_agent("no_such_package_xyz.agent")
    with pytest.raises(AgentLoadError, match="no class Agent"):
        load_agent(write_agent(tmp_path / "noagent.py", "class Bot:\n    pass\n"))
    with pytest.raises(AgentLoadError, match="failed to load"):
        load_agent(write_agent(tmp_path / "broken.py", "def (:\n"))
    with pytest.raises(AgentLoadError, match="unknown bot"):
        load_agent("bot:nope")
    spec = load_agent("botarena.envs.dungeon.sample_agents.random_agent")
    assert spec.kind == "module" and spec.name == "random_agent"
    assert load_agent("bot:safe_bomber").kind == "bot"
    assert load_agent(RANDOM_AGENT).kind == "file"


# -- game_state / player_state -------------------------------------------------------------
def test_states_agree_with_snapshot():
    game = DungeonGame(Config(num_players=3), 1)
    game.reset(seed=11)
    out = np.zeros(3, dtype=np.int64)
    env_ids, agent_ids = np.zeros(3, dtype=np.int64), np.arange(3)
    checked_bomb = False
    for t in range(60):
        game.bots["safe_bomber"](game.state, game.params, env_ids, agent_ids, out)
        game.step(out.reshape(1, 3))
        gs, players = make_states(game)
        snap = game.snapshot()
        H, W = snap["tiles"].shape
        assert gs.size == (W, H) and gs.tick_number == snap["tick"] == t + 1
        assert gs.is_over == snap["over"]
        assert sorted(gs.bombs) == sorted((b["x"], b["y"]) for b in snap["bombs"])
        assert sorted(gs.fire) == sorted(snap["fire"])
        rows = snap["board"]
        tags = {"#": "ib", "w": "sb", "o": "ob", "a": "a", "t": "t", "b": "b", ".": None,
                "*": None}
        lists = {"ib": [], "sb": [], "ob": [], "a": [], "t": []}
        for y in range(H):
            for x in range(W):
                ch = rows[H - 1 - y][x]
                ent = gs.entity_at((x, y))
                if ch in "0123":
                    assert ent == int(ch)
                elif ch == "x":
                    assert isinstance(ent, int) and not snap["players"][ent]["alive"]
                else:
                    assert ent == tags[ch], (x, y, ch, ent)
                if ch in "#woat":
                    lists[tags[ch]].append((x, y))
                assert gs.is_occupied((x, y)) == (ent is not None)
                assert gs.is_in_bounds((x, y))
                checked_bomb = checked_bomb or ch == "b"
        assert sorted(gs.indestructible_blocks) == sorted(lists["ib"])
        assert sorted(gs.soft_blocks) == sorted(lists["sb"])
        assert sorted(gs.ore_blocks) == sorted(lists["ob"])
        assert sorted(gs.ammo) == sorted(lists["a"])
        assert sorted(gs.treasure) == sorted(lists["t"])
        assert sorted(gs.all_blocks) == sorted(lists["ib"] + lists["sb"] + lists["ob"])
        for p in range(3):
            ps, d = players[p], snap["players"][p]
            assert (ps.id, ps.ammo, ps.hp, ps.location, ps.reward, ps.power, ps.alive) == \
                (p, d["ammo"], d["hp"], (d["x"], d["y"]), d["score"], d["power"], d["alive"])
            assert sorted(gs.opponents(p)) == sorted(
                (q["x"], q["y"]) for i, q in enumerate(snap["players"]) if i != p and q["alive"])
            np.testing.assert_array_equal(gs.observation(p), game.obs[0, p])
            np.testing.assert_array_equal(gs.action_mask(p), game.masks[0, p])
    assert checked_bomb
    for loc in [(-1, 0), (0, -1), (W, 0), (0, H)]:
        assert not gs.is_in_bounds(loc)
    # read-only views; the lists are copies
    with pytest.raises(AttributeError):
        gs.tick_number = 5
    with pytest.raises(AttributeError):
        players[0].hp = 99
    gs.soft_blocks.clear()
    assert gs.soft_blocks == sorted(lists["sb"])
    assert isinstance(gs, GameState) and isinstance(players[0], PlayerState)


# -- record / replay -------------------------------------------------------------------------
def test_record_then_replay_gives_the_same_final_snapshot(tmp_path):
    rec = str(tmp_path / "game.jsonl")
    runner = Runner([RANDOM_AGENT, "bot:safe_bomber", SAFE_AGENT], config=SHORT, seed=21,
                    record=rec)
    result = runner.run()
    final = runner.game.snapshot()
    game, header, recorded = replay_module.play(rec, verify=True)
    replayed = game.snapshot()
    assert header["seed"] == 21 and header["agents"] == runner.names
    assert replayed["board"] == final["board"]
    for key in ("tick", "winner", "bombs", "fire", "ammo_items", "treasure_timer"):
        assert replayed[key] == final[key]
    for key in ("scores", "hp", "ammo", "alive", "positions", "tiles", "rng"):
        np.testing.assert_array_equal(replayed[key], final[key])
    assert replay_module.snapshot_hash(replayed) == replay_module.snapshot_hash(final)
    assert recorded == json.loads(json.dumps(result))
    assert result["over"] and result["tick"] == SHORT["max_turns"]


def _tamper(src, dst, number, change):
    lines = open(src).read().splitlines()
    line = json.loads(lines[number])
    change(line)
    lines[number] = json.dumps(line)
    open(dst, "w").write("\n".join(lines) + "\n")


def test_tampered_replay_is_detected(tmp_path):
    rec = str(tmp_path / "game.jsonl")
    Runner(["bot:random", "bot:safe_bomber"], config=SHORT, seed=5, record=rec).run()
    replay_module.play(rec)                      # the original verifies

    def swap_action(line):                       # even a move that changes nothing is caught
        line["actions"][0] = 3 if line["actions"][0] != 3 else 4

    def other_seed(line):
        line["seed"] += 1

    def other_config(line):
        line["config"]["hit_points"] = 24

    def drop_hash(line):
        line["hash"] = line["hash"][:-1] + ("0" if line["hash"][-1] != "0" else "1")

    bad = str(tmp_path / "bad.jsonl")
    for number, change in [(10, swap_action), (0, other_seed), (0, other_config),
                           (30, drop_hash)]:
        _tamper(rec, bad, number, change)
        with pytest.raises(replay_module.ReplayError, match="mismatch"):
            replay_module.play(bad)
    lines = open(rec).read().splitlines()
    open(bad, "w").write("\n".join(lines[:20] + lines[21:]) + "\n")   # a turn left out
    with pytest.raises(replay_module.ReplayError):
        replay_module.play(bad)
    open(bad, "w").write("not json\n")
    with pytest.raises(replay_module.ReplayError):
        replay_module.play(bad)


# -- bad agents ------------------------------------------------------------------------------
def test_raising_and_garbage_agents_do_nothing_and_the_game_finishes(tmp_path, capsys):
    raising = write_agent(tmp_path / "raising.py", """
        class Agent:
            def __init__(self, player_num, env):
                self.calls = 0
            def next_move(self, game_state, player_state):
                self.calls += 1
                if self.calls % 2:
                    raise RuntimeError("boom")
                return 'u'
    """)
    garbage = write_agent(tmp_path / "garbage.py", """
        class Agent:
            def __init__(self, player_num, env):
                pass
            def next_move(self, game_state, player_state):
                return ['nonsense', 3.5, object(), 'x', 'up'][game_state.tick_number % 5]
    """)
    for realtime in (False, True):
        runner = Runner([raising, garbage], config={"max_turns": 40}, seed=2, realtime=realtime,
                        tick_step=0.005)
        result = runner.run()
        assert result["over"] and result["tick"] == 40
        assert runner.warnings[0] > 0 and runner.warnings[1] > 0
        moves = [m for _, m in runner.history]
        assert all(m[1] == "" for m in moves)           # garbage counts as ''
        if not realtime:                                # raises on odd calls: '' then 'u'
            assert [m[0] for m in moves[:4]] == ["", "u", "", "u"]
            assert runner.warnings == [20, 40]          # a warning for every skipped move
    err = capsys.readouterr().err
    assert "raised RuntimeError: boom" in err and "not one of" in err


def test_realtime_sleeping_agent_does_not_block_the_game(tmp_path):
    slow = write_agent(tmp_path / "slow.py", """
        import time
        class Agent:
            def __init__(self, player_num, env):
                pass
            def next_move(self, game_state, player_state):
                time.sleep(0.15)
                return 'p'
    """)
    ticks, step = 30, 0.02
    # the bot compiles before tick 0 of a match: on a cold cache that takes seconds, so a
    # one-tick match first, and the timed one compiles nothing
    Runner(["bot:safe_bomber", "bot:safe_bomber"], config=SHORT, seed=4, max_iterations=1).run()
    runner = Runner([slow, "bot:safe_bomber"], config=SHORT, seed=4, realtime=True,
                    tick_step=step, max_iterations=ticks)
    start = time.monotonic()
    result = runner.run()
    elapsed = time.monotonic() - start
    assert result["tick"] == ticks
    blocking = ticks * 0.15          # had the runner waited for every late answer
    assert ticks * step * 0.8 <= elapsed < blocking - 0.5     # slack for a busy machine
    slow_moves = [m[0] for _, m in runner.history]
    # late answers are used on a later tick: a few bombs, far fewer than ticks
    bombs = slow_moves.count("p")
    assert bombs >= 1 and bombs <= ticks // 5
    assert slow_moves[0] == ""


def test_sync_mode_move_timeout(tmp_path):
    hang = write_agent(tmp_path / "hang.py", """
        import time
        class Agent:
            def __init__(self, player_num, env):
                pass
            def next_move(self, game_state, player_state):
                if game_state.tick_number == 2:
                    time.sleep(0.3)
                return 'l'
    """)
    runner = Runner([hang, "bot:random"], config={"max_turns": 20}, seed=1, realtime=False,
                    move_timeout=0.05, on_tick=lambda r: time.sleep(0.03))
    start = time.monotonic()
    result = runner.run()
    assert result["tick"] == 20 and time.monotonic() - start < 5
    moves = [m[0] for _, m in runner.history]
    assert moves[:2] == ["l", "l"] and moves[2] == ""     # timed out at tick 2
    assert moves[-1] == "l"                               # asked again once it answered
    assert runner.warnings[0] >= 1


# -- watch ---------------------------------------------------------------------------------
def test_watch_reloads_a_changed_agent_file(tmp_path):
    path = tmp_path / "dev_agent.py"
    version = """
        class Agent:
            def __init__(self, player_num, env):
                pass
            def next_move(self, game_state, player_state):
                return {move!r}
    """
    write_agent(path, version.format(move=""))

    def on_tick(runner):
        if runner.tick == 3:
            write_agent(path, version.format(move="p"))
            st = os.stat(path)
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))

    runner = Runner([str(path), "bot:random"], config={"max_turns": 10}, seed=3, watch=True,
                    on_tick=on_tick)
    runner.run()
    moves = [m[0] for _, m in runner.history]
    assert runner.reloads == 1
    assert moves[:3] == ["", "", ""] and moves[3] == "p"
    # a broken rewrite keeps the working version
    spec = runner.specs[0]
    working = spec.cls
    write_agent(path, "def (:\n")
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 20_000_000))
    assert spec.changed()
    with pytest.raises(AgentLoadError):
        spec.reload()
    assert spec.cls is working and not spec.changed()


# -- policies and opponents -----------------------------------------------------------------
def first_legal(obs, mask):
    return int(np.flatnonzero(mask)[-1])


def test_policy_agent_plays_a_match():
    result = Runner([PolicyAgent(first_legal), "bot:random"], config={"max_turns": 30},
                    seed=8).run()
    assert result["tick"] <= 30 and result["names"][0] == "PolicyAgent"


def test_agent_opponent_plays_in_vector_env():
    opp = AgentOpponent(agents_module.load_agent(SAFE_AGENT).make)
    venv = botarena.vector_env("dungeon_v0", 3, opponent=opp, seed=0, max_turns=30)
    venv.reset()
    rng = np.random.default_rng(0)
    dones = 0
    for _ in range(65):
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, done, infos = venv.step(actions)
        dones += int(done.sum())
    assert dones >= 3 and opp.errors == 0
    assert len(opp._agents) >= 3
    # policy agents and builtin-bot agents as opponents, by spec string too
    for spec in (PolicyAgent(first_legal), bot_agent_class("safe_bomber"), RANDOM_AGENT):
        venv = botarena.vector_env("dungeon_v0", 2, opponent=AgentOpponent(spec), seed=1,
                                   max_turns=20)
        venv.reset()
        for _ in range(25):
            venv.step(np.zeros(2, dtype=np.int64))


def test_bot_agent_matches_the_jitted_bot_moves():
    """bot:safe_bomber through the agent API plays the same moves as the jitted bot would on
    the same state (it only uses its own random stream)."""
    game = DungeonGame(Config(), 1)
    game.reset(seed=3)
    agent = bot_agent_class("safe_bomber")(0, None)
    out = np.zeros(1, dtype=np.int64)
    for _ in range(50):
        gs, players = make_states(game)
        copy = agents_module.raw_copy(game)
        copy.rng[0, 1] = agent._rng                 # the AGENT stream it draws from next
        game.bots["safe_bomber"](copy, game.params, np.zeros(1, dtype=np.int64),
                                 np.zeros(1, dtype=np.int64), out)
        rng_before = game.state.rng.copy()
        move = agent.next_move(gs, players[0])
        assert move == agents_module.ACTIONS[int(out[0])]
        np.testing.assert_array_equal(game.state.rng, rng_before)   # the game's state untouched
        game.step(np.array([[agents_module.ACTION_INDEX[move], 0]]))
    assert game.snapshot()["players"][0]["alive"]


def test_builtin_bots_are_compiled_before_tick_0():
    """A tight move timeout skips no move of a jitted bot, the first one included."""
    runner = Runner(["bot:safe_bomber", "bot:random"], config={"max_turns": 5}, seed=6,
                    move_timeout=0.5)
    runner.run()
    assert runner.warnings == [0, 0] and len(runner.history) == 5


def test_format_result():
    text = format_result({"tick": 9, "over": True, "winner": -1, "scores": [1, 1],
                          "hp": [3, 3], "alive": [True, True], "names": ["a", "b"]})
    assert "result: draw" in text and "player 1 (b): score 1, hp 3" in text


# -- the window (dummy video driver) -------------------------------------------------------
INTERACTIVE_SCRIPT = r"""
import faulthandler, json, sys, time
import pygame
from botarena.envs.dungeon.runner import Runner, main

faulthandler.dump_traceback_later(280, exit=True)


class R(Runner):
    paused_frames = 0

    def _draw(self):
        super()._draw()
        if self.paused:
            self.paused_frames += 1
            if self.paused_frames == 10:
                post(pygame.K_RETURN)         # unpause after 10 paused frames (~0.2 s)

events = []

def post(key):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))

paused_at = []

def on_tick(r):
    t = r.tick
    if r.restarts == 0 and t == 2:
        post(pygame.K_SPACE)
    elif r.restarts == 0 and t == 6:
        post(pygame.K_UP)
    elif r.restarts == 0 and t == 10:
        post(pygame.K_RETURN)                 # pause; R._draw unpauses
        paused_at.append((t, time.monotonic()))
    elif r.restarts == 0 and t == 11:
        paused_at.append((t, time.monotonic()))
    elif r.restarts == 0 and t == 14:
        events.append(["before_restart", t, r.game.snapshot()["board"]])
        post(pygame.K_r)
    elif r.restarts == 1 and t == 3:
        post(pygame.K_ESCAPE)

r = R(["bot:random"], seed=1, headless=False, interactive=True, tick_step=0.01,
           wait_end=0, on_tick=on_tick, record=sys.argv[1])
res = r.run()
human = r.human_id
replayed = main(["--replay", sys.argv[1], "--tick-step", "0", "--wait-end", "0"])
print(json.dumps({"replayed": replayed, "restarts": r.restarts, "tick": res["tick"], "human": human,
                  "names": res["names"], "window": r.window.screen is not None,
                  "paused_for": paused_at[1][1] - paused_at[0][1],
                  "paused_frames": r.paused_frames,
                  "moves": [m[human] for _, m in r.history]}))
"""


def test_interactive_window_smoke(tmp_path):
    script = tmp_path / "interactive.py"
    script.write_text(INTERACTIVE_SCRIPT)
    rec = tmp_path / "interactive.jsonl"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    r = subprocess.run([sys.executable, str(script), str(rec)], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout.strip().splitlines()[-1])
    assert info["window"] and info["human"] == 1 and info["names"] == ["bot:random", "human"]
    assert info["restarts"] == 1 and info["tick"] == 3        # R restarted, Esc quit
    assert info["paused_for"] >= 0.15 and info["paused_frames"] >= 10
    # the replay holds the first game, the restart and the human's bomb and move
    game, header, _ = replay_module.play(str(rec))
    lines = [json.loads(t) for t in rec.read_text().splitlines()]
    human_moves = [agents_module.ACTIONS[t["actions"][1]] for t in lines if t["type"] == "turn"]
    assert human_moves[2] == "p" and human_moves[6] == "u"
    assert any(t["type"] == "reset" for t in lines)
    assert info["replayed"] == 0 and "replay verified" in r.stdout      # in the window too
