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
else counts as ``NONE`` (with a warning).  The seed gives no time limit: 1 s a turn here
(the initial message included); a late reply is dropped, a crashed bot plays ``NONE``.
"""
from ...envs.coderunner.constants import ACTION_NAMES, LETTER_OF, MIRRORED
from ..process import LINE, Limits
from . import Garbled, Protocol

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


PROTOCOL = CodeRunnerProtocol
