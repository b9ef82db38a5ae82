"""Hostile bots against every protocol: each match finishes, the bad seat gets what the
contest's rule says (no-op, crash, elimination), and no process is left behind.

``HOSTILE_REPORT`` (tried, survived) is printed at the end of the module's last test."""
import os
import sys
import time

import pytest

from botarena.arena.match import play

HERE = os.path.dirname(os.path.abspath(__file__))
CONTEST_BOT = os.path.join(HERE, "arena_bots", "contest_bot.py")
HOSTILE_AGENT = os.path.join(HERE, "arena_bots", "hostile_agent.py")
BEHAVIOURS = ("crash_start", "crash_mid", "silent", "garbage", "flood", "exit_early", "slow",
              "fork")
TURNS = 6                 # the mischief starts at turn 3
LIMITS = {"turn_s": 0.25, "start_s": 5.0, "log_mb": 1}
PROTOCOLS = {             # env id, protocol name, the opponent, config
    "paint": ("paint_v0", "bot:greedy", {"max_turns": TURNS}),
    "ants": ("ants_v0", "bot:greedy", {"max_turns": TURNS}),
    "coderunner": ("coderunner_v0", "bot:greedy", {"max_turns": TURNS}),
    "towers": ("towers_v0", "bot:greedy", {"max_turns": TURNS}),
}
# what each behaviour leads to: the seat's status and the counter that must be positive
EXPECTED_NOOP = {"crash_start": ("crashed", None), "crash_mid": ("crashed", None),
                 "silent": ("playing", "timeouts"), "garbage": ("playing", "garbled"),
                 "flood": ("playing", "garbled"), "exit_early": ("crashed", None),
                 "slow": ("playing", "timeouts"), "fork": ("playing", None)}
EXPECTED_ANTS = dict(EXPECTED_NOOP, crash_start=("eliminated", None),
                     crash_mid=("eliminated", None), silent=("eliminated", None),
                     exit_early=("eliminated", None), slow=("eliminated", None),
                     flood=("eliminated", None))   # never a whole reply in time
TALLY = {"tried": 0, "survived": 0}
KILL_GRACE_S, KILL_POLL_S = 2.0, 0.05


def process_alive(pid):
    """Whether ``pid`` still runs after a moment for a kill to land (a zombie, dead but
    not reaped by its parent, does not run)."""
    deadline = time.monotonic() + KILL_GRACE_S
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                running = f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            running = False
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(KILL_POLL_S)


def check_seat(result, behaviour, expected, pidfile):
    seat = result["seats"][0]
    status, counter = expected[behaviour]
    assert seat["status"] == status, (behaviour, seat)
    if counter:
        assert seat[counter] > 0, (behaviour, seat)
    if behaviour == "fork":
        assert seat["moves"] >= 1
        assert not process_alive(int(open(pidfile).read()))
    if behaviour in ("crash_mid", "exit_early", "garbage", "slow", "silent", "flood"):
        assert seat["moves"] >= 1               # it played before the mischief


@pytest.mark.parametrize("protocol", sorted(PROTOCOLS))
def test_hostile_contest_programs(protocol, tmp_path):
    env_id, opponent, config = PROTOCOLS[protocol]
    expected = EXPECTED_ANTS if protocol == "ants" else EXPECTED_NOOP
    for behaviour in BEHAVIOURS:
        TALLY["tried"] += 1
        pidfile = tmp_path / f"{behaviour}.pid"
        spec = f'cmd:"{sys.executable}" {CONTEST_BOT} {protocol} {behaviour} {pidfile}'
        result = play(env_id, [spec, opponent], seed=5, config=config,
                      log_dir=str(tmp_path / behaviour), limits=LIMITS)
        assert result["over"] or result["seats"][0]["status"] == "eliminated"
        check_seat(result, behaviour, expected, pidfile)
        TALLY["survived"] += 1


HOST_CLASSES = {"crash_start": "CrashStart", "crash_mid": "CrashMid", "silent": "Silent",
                "garbage": "Garbage", "flood": "Flood", "exit_early": "ExitEarly",
                "slow": "Slow", "fork": "Fork"}
# a flood goes to the log, where the file size limit stops it (Python raises, the host
# answers the error); a slow dungeon agent's late answers count (the seed's ticks)
EXPECTED_HOST = dict(EXPECTED_NOOP, flood=("playing", "garbled"), slow=("playing", None))
DUNGEON_SEATS = 4


def test_hostile_python_agents(tmp_path, monkeypatch):
    """The python: host protocol (dungeon's seed API), four hostile agents a match."""
    pidfile = tmp_path / "fork.pid"
    monkeypatch.setenv("ARENA_TEST_PIDFILE", str(pidfile))
    behaviours = list(HOST_CLASSES)
    for first in range(0, len(behaviours), DUNGEON_SEATS):
        group = behaviours[first:first + DUNGEON_SEATS]
        TALLY["tried"] += len(group)
        specs = [f"python:{HOSTILE_AGENT}:{HOST_CLASSES[b]}" for b in group]
        result = play("dungeon_v0", specs, seed=5,
                      config={"max_turns": TURNS, "num_players": DUNGEON_SEATS},
                      log_dir=str(tmp_path / str(first)),
                      limits=dict(LIMITS, turn_s=1.0, start_s=60.0))
        assert result["over"]
        for seat, behaviour in enumerate(group):
            one = dict(result, seats=[result["seats"][seat]])
            check_seat(one, behaviour, EXPECTED_HOST, pidfile)
            TALLY["survived"] += 1
    print(f"\nhostile bots: {TALLY['tried']} tried, {TALLY['survived']} survived")
