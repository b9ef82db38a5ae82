"""coderunner_v0's contest protocol: the ICPC Challenge 2013 text turns.

Coordinates are ``row col``.  The initial message: the number of turns, the 16 rows of
the map, the own then the opponent's respawn cell ``r c``, the number n of enemies and n
lines ``r c PROGRAM`` (their respawn cells and patrol programs, letters ``L R T B``; the
map file's enemies, then their mirrors in reverse order, as the original engine lists
them).  Every turn: the turn number, the 16 rows of the current map (``.`` empty, ``=``
brick, ``H`` ladder, ``*`` gold, ``-`` removed brick), the own then the opponent's line
``r c score dig_delay`` (``-1 -1`` while dead), then n lines ``r c master`` (0 the reader,
1 the opponent, -1 none; ``-1 -1`` while dead).  A turn number ``-1`` ends the game.

The bot answers one line: ``NONE LEFT RIGHT TOP BOTTOM DIG_LEFT DIG_RIGHT``; anything
else counts as ``NONE`` (with a warning).  The seed gives no time limit: 1 s a turn here,
10 s for the first turn's (the bot does not answer the initial message, so its start-up
falls there); a late reply is dropped, a crashed bot plays ``NONE``.

The client (``CodeRunnerClient``) builds its map from the initial message (the rows, the
respawn cells, the listed enemies: the first half, the others are their mirrors) and its
seat from its respawn cell: red's is in the left half, as on every map of the original
game and ours.  What the observation shows and the turns leave out it keeps from the
turns it has seen: the cells runners have stood on, and the countdowns of removed bricks,
collected gold and dead runners and enemies (each from the turn it was first seen, with
the config's delays: the contest's unless the client's config says otherwise; a change
first shown at turn t happened while turn t - 1 was played).  The
reply is the real direction: a policy trained with ``mirror`` playing blue has its
action mirrored back.
"""
import numpy as np

from ...envs.coderunner.constants import (ACTION_NAMES, CELL_CHARS, CHAR_BLUE, CHAR_RED, EMPTY,
                                          GOLD, HEIGHT, LETTER_OF, MIDDLE, MIRRORED)
from ..process import LINE, Limits
from . import Client, Garbled, Protocol

TURN_S = 1.0
START_S = 10.0
END_TURN = -1
NO_MASTER = -1
ACTION_OF = {name: i for i, name in enumerate(ACTION_NAMES)}


def engine_order(count):
    """Our enemy index (listed enemy i at 2i, its mirror at 2i + 1) of each enemy in the
    original engine's order (listed ones, then the mirrors in reverse)."""
    listed = count // 2
    return [2 * j for j in range(listed)] + [2 * (count - 1 - j) + 1 for j in range(listed, count)]


class CodeRunnerProtocol(Protocol):
    terminator = LINE
    hello_reply = False
    limits = Limits(turn_s=TURN_S, start_s=START_S)

    def _me_first(self, pair):
        return [pair[self.seat], pair[1 - self.seat]]

    def hello(self, e):
        s = self.game.snapshot(e)
        data = self.game.maps[s["map"]]
        order = engine_order(len(data.enemies))
        lines = [str(self.game.config.max_turns)] + list(s["board"])
        lines += [f"{r} {c}" for r, c in self._me_first(data.spawns)]
        lines.append(str(len(order)))
        for i in order:
            r, c, program = data.enemies[i]
            lines.append(f"{r} {c} {''.join(LETTER_OF[m] for m in program)}")
        return "\n".join(lines) + "\n"

    def message(self, e):
        s = self.game.snapshot(e)
        lines = [str(s["turn"])] + list(s["board"])
        runners = [(*s["runners"][a], int(s["scores"][a]), s["dig_delay"][a]) for a in (0, 1)]
        lines += ["{} {} {} {}".format(*r) for r in self._me_first(runners)]
        for i in engine_order(len(s["enemies"])):
            master = s["enemy_master"][i]
            relative = NO_MASTER if master == NO_MASTER else int(master != self.seat)
            r, c = s["enemies"][i]
            lines.append(f"{r} {c} {relative}")
        return "\n".join(lines) + "\n"

    def parse(self, text, e):
        word = text.strip()
        if word not in ACTION_OF:
            raise Garbled(f"{word[:40]!r} is not one of {' '.join(ACTION_NAMES)}")
        action = ACTION_OF[word]
        if self.seat == 1 and self.game.config.mirror:     # the game takes blue's mirrored
            action = int(MIRRORED[action])
        return action

    def goodbye(self, e):
        return f"{END_TURN}\n"


CHAR_REMOVED, CHAR_GOLD, CHAR_EMPTY = CELL_CHARS[4], CELL_CHARS[GOLD], CELL_CHARS[EMPTY]
DEAD = (-1, -1)
PLAYED = 1        # what a turn's message first shows happened while the turn before it was played


class CodeRunnerClient(Client):
    def __init__(self, env_id, config=None):
        super().__init__(env_id, config)
        self.seat = None
        self.order = []                 # our enemy index of each listed line
        self.base = None                # the snapshot after the reset (enemy programs' state)
        self.seen = None                # the last turn's board
        self.removed, self.collected = {}, {}     # (row, col) -> the turn first seen
        self.runner_dead, self.enemy_dead = {}, {}    # index -> the turn first seen dead
        self.visited = None

    def _lines(self, lines, count):
        return [next(lines).rstrip("\n") for _ in range(count)]

    def start(self, lines):
        turns = int(next(lines))
        rows = [list(row) for row in self._lines(lines, HEIGHT)]
        own, opponent = (tuple(int(v) for v in line.split()) for line in self._lines(lines, 2))
        self.seat = 0 if own[1] < MIDDLE else 1
        red, blue = (own, opponent) if self.seat == 0 else (opponent, own)
        rows[red[0]][red[1]], rows[blue[0]][blue[1]] = CHAR_RED, CHAR_BLUE
        enemies = self._lines(lines, int(next(lines)))
        listed = enemies[:len(enemies) // 2]
        text = ["".join(row) for row in rows] + [str(len(listed))] + listed
        self.game = self.make_game(board="\n".join(text) + "\n", max_turns=turns)
        self.order = engine_order(len(enemies))
        self.base = self.game.snapshot(0)
        self.visited = np.zeros_like(self.base["visited"])
        return None

    def read(self, lines):
        turn = next(lines, None)
        if turn is None or int(turn) == END_TURN:
            return None
        rows = self._lines(lines, HEIGHT)
        runners = [[int(v) for v in line.split()] for line in self._lines(lines, 2)]
        enemies = [[int(v) for v in line.split()] for line in self._lines(lines, len(self.order))]
        return {"turn": int(turn), "board": rows, "runners": runners, "enemies": enemies}

    def _first_seen(self, table, key, now, present):
        """Keep ``table[key]``, the turn played when ``key`` became ``present``, else drop
        it."""
        if not present:
            table.pop(key, None)
        elif key not in table:
            table[key] = now - PLAYED

    def position(self, message):
        config, turn, rows = self.game.config, message["turn"], message["board"]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                self._first_seen(self.removed, (r, c), turn, ch == CHAR_REMOVED)
                self._first_seen(self.collected, (r, c), turn,
                                 self.base["board"][r][c] == CHAR_GOLD and ch == CHAR_EMPTY)
        mine, theirs = message["runners"]
        runners = [mine, theirs] if self.seat == 0 else [theirs, mine]
        for a, (r, c, _, _) in enumerate(runners):
            self._first_seen(self.runner_dead, a, turn, (r, c) == DEAD)
            if (r, c) != DEAD:
                self.visited[r, c] = 1
        enemies = [None] * len(self.order)
        masters = [None] * len(self.order)
        for i, (r, c, master) in zip(self.order, message["enemies"]):
            enemies[i] = (r, c)
            masters[i] = master if master == NO_MASTER else (self.seat if master == 0
                                                             else 1 - self.seat)
            self._first_seen(self.enemy_dead, i, turn, (r, c) == DEAD)
        snapshot = dict(self.base)
        snapshot.update(
            board=rows, turn=turn, steps=turn, over=False,
            runners=[(r, c) for r, c, _, _ in runners],
            runner_alive=[(r, c) != DEAD for r, c, _, _ in runners],
            runner_respawn=[self.runner_dead[a] + config.runner_respawn
                            if a in self.runner_dead else -1 for a in range(2)],
            scores=[score for _, _, score, _ in runners],
            dig_delay=[delay for _, _, _, delay in runners],
            visited=self.visited, enemies=enemies,
            enemy_alive=[e != DEAD for e in enemies], enemy_master=masters,
            enemy_respawn=[self.enemy_dead[i] + config.enemy_respawn
                           if i in self.enemy_dead else -1 for i in range(len(enemies))],
            restore_turn={cell: t + config.brick_restore for cell, t in self.removed.items()},
            dug_by={cell: 1 for cell in self.removed},
            gold_turn={cell: t + config.gold_respawn for cell, t in self.collected.items()})
        self.game.restore(snapshot, 0)
        return self.seat

    def reply(self, action, message):
        if self.seat == 1 and self.game.config.mirror:
            action = MIRRORED[action]
        return ACTION_NAMES[int(action)] + "\n"


PROTOCOL = CodeRunnerProtocol
CLIENT = CodeRunnerClient
