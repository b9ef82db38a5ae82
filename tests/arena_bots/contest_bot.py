"""A small contest program for every text protocol, well behaved or hostile (tests only).

``python contest_bot.py PROTOCOL [BEHAVIOUR] [PIDFILE]``: PROTOCOL is paint, ants,
coderunner or towers; it plays simple valid moves (paint: walks east or shoots; ants:
every ant steps north; coderunner: LEFT; towers: every commandable bot moves SE).
BEHAVIOUR (from ``MISCHIEF_TURN`` on, or at start-up where named so):

ok            plays to the end
crash_start   exits with code 3 before reading anything
crash_mid     raises an exception (exit code 1) at the mischief turn
silent        reads everything and never answers from the mischief turn on
garbage       answers garbage from the mischief turn on
flood         writes to stdout without end at the mischief turn
exit_early    exits with code 0 at the mischief turn
slow          sleeps SLOW_S (past the turn limit) before each answer from the mischief turn
fork          forks a child that sleeps and writes its pid to PIDFILE, then plays on
"""
import json
import os
import sys
import time

MISCHIEF_TURN = 3
SLOW_S = 1.5
CHILD_SLEEP_S = 600


def out(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def read_line():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def read_dot():
    lines = []
    while True:
        line = read_line()
        if line == ".":
            return lines
        lines.append(line)


def mischief(behaviour, turn):
    """Act out ``behaviour`` at ``turn``; True when the normal answer must be skipped."""
    if turn < MISCHIEF_TURN or behaviour == "ok":
        return False
    if behaviour == "crash_mid":
        raise RuntimeError("crash in the middle of the game")
    if behaviour == "exit_early":
        sys.exit(0)
    if behaviour == "flood":
        while True:
            out("x" * 65536)
    if behaviour == "slow":
        time.sleep(SLOW_S)
        return False
    if behaviour == "garbage":
        out("}{ not a move at all ...\nPROBABLY NOT\n.\n")
        return True
    return behaviour == "silent"


def paint(behaviour):
    json.loads(read_line())
    out(json.dumps({"ready": True}) + "\n")
    turn = 0
    while True:
        state = json.loads(read_line())
        if not mischief(behaviour, turn):
            kind = "walk" if turn % 3 else "shoot"
            out(json.dumps({"turns_left": state["turns_left"], "type": kind,
                            "direction": [0, 1] if turn % 2 else [1, 0]}) + "\n")
        turn += 1


def ants(behaviour):
    lines = read_dot()
    me = int(lines[lines.index(next(line for line in lines if line.startswith("SPAWN_INFO"))) + 1])
    out(".\n")
    turn = 0
    while True:
        lines = read_dot()
        count = int(lines[1].split()[1])
        moves = []
        for line in lines[2:2 + count]:
            owner, ant, x, y = map(int, line.split())
            if owner == me:
                moves.append(f"{ant} {x} {y - 1}")
        if not mischief(behaviour, turn):
            out("\n".join(moves + ["."]) + "\n")
        turn += 1


ROWS = 16


def coderunner(behaviour):
    read_line()
    for _ in range(ROWS + 2):
        read_line()
    enemies = int(read_line())
    for _ in range(enemies):
        read_line()
    while True:
        turn = int(read_line())
        if turn < 0:
            return
        for _ in range(ROWS + 2 + enemies):
            read_line()
        if not mischief(behaviour, turn):
            out(("LEFT" if turn % 2 else "DIG_RIGHT") + "\n")


def towers(behaviour):
    json.loads(read_line())
    out(json.dumps({"ready": True}) + "\n")
    while True:
        state = json.loads(read_line())
        commands = [{"id": b["id"], "command": "SE"} for b in state["bots"] if b["commandable"]]
        if not mischief(behaviour, state["turn"]):
            out(json.dumps({"turn": state["turn"], "commands": commands}) + "\n")


def main():
    protocol = sys.argv[1]
    behaviour = sys.argv[2] if len(sys.argv) > 2 else "ok"
    if behaviour == "crash_start":
        sys.exit(3)
    if behaviour == "fork":
        child = os.fork()
        if child == 0:
            time.sleep(CHILD_SLEEP_S)
            os._exit(0)
        with open(sys.argv[3], "w") as f:
            f.write(str(child))
    {"paint": paint, "ants": ants, "coderunner": coderunner, "towers": towers}[protocol](behaviour)


if __name__ == "__main__":
    main()
