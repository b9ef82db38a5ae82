"""Python agents for the python: host, well behaved or hostile (tests only).

Each class plays both APIs: ``next_move`` (dungeon_v0) and ``act`` (the other games).  The
mischief starts at turn ``MISCHIEF_TURN``.  ``Fork`` writes its child's pid to the file
named by the environment variable ``ARENA_TEST_PIDFILE``.
"""
import os
import sys
import time

import numpy as np

MISCHIEF_TURN = 3
SLOW_S = 1.5
NEVER_S = 3600
CHILD_SLEEP_S = 600


class Agent:
    """Well behaved: dungeon's moves u d l r in turn; in games of Discrete actions
    (``act``), the last legal action."""

    def __init__(self, seat, env):
        self.seat, self.turn = seat, 0

    def mischief(self):
        pass

    def next_move(self, game_state, player_state):
        self.turn = game_state.tick_number
        if self.turn >= MISCHIEF_TURN:
            self.mischief()
        return "udlr"[self.turn % 4]

    def act(self, observation, action_mask, snapshot):
        self.turn = snapshot["steps"]
        if self.turn >= MISCHIEF_TURN:
            self.mischief()
        return int(np.flatnonzero(action_mask)[-1])


class CrashStart(Agent):
    def __init__(self, seat, env):
        raise RuntimeError("crash at start")


class CrashMid(Agent):
    def mischief(self):
        os._exit(1)


class Silent(Agent):
    def mischief(self):
        time.sleep(NEVER_S)


class Garbage(Agent):
    def next_move(self, game_state, player_state):
        return "jump!" if game_state.tick_number >= MISCHIEF_TURN else ""

    def act(self, observation, action_mask, snapshot):
        return "jump!" if snapshot["steps"] >= MISCHIEF_TURN else super().act(
            observation, action_mask, snapshot)


class Flood(Agent):
    def mischief(self):
        while True:
            sys.stdout.write("x" * 65536)


class ExitEarly(Agent):
    def mischief(self):
        sys.exit(0)


class Slow(Agent):
    def mischief(self):
        time.sleep(SLOW_S)


class Fork(Agent):
    def __init__(self, seat, env):
        super().__init__(seat, env)
        child = os.fork()
        if child == 0:
            time.sleep(CHILD_SLEEP_S)
            os._exit(0)
        with open(os.environ["ARENA_TEST_PIDFILE"], "w") as f:
            f.write(str(child))
