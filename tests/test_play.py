"""``botarena.play``: the terminal screen driven through a pseudo-terminal, the pygame window
with SDL's dummy driver and posted events, the keys built from the action meanings."""
import os
import re
import select
import subprocess
import sys
import time

import numpy as np
import pytest

import botarena
from botarena import replay
from botarena.arena import match
from botarena.play import (NOOP_KEY, Click, Controls, HumanPlayer, Quit, WindowScreen, bindings,
                           main)

TIMEOUT_S = 120            # the child imports botarena and loads the compiled games
QUIET_S = 0.3              # a screen is whole once the child wrote nothing for this long
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLEAR = "\x1b[H\x1b[2J"
ESC, ENTER, DOWN = "\x1b", "\n", "\x1b[B"


class Terminal:
    """``python -m botarena.play ARGS --tui`` on a pseudo-terminal."""

    def __init__(self, *args, command=("-m", "botarena.play")):
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, *command, *args, "--tui"],
                                     stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True)
        os.close(slave)
        self.output = ""

    def _read(self, wait_s):
        ready = select.select([self.master], [], [], wait_s)[0]
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:            # the child closed the terminal
            return False
        self.output += chunk.decode(errors="replace")
        return bool(chunk)

    def screen(self, expect):
        """The last screen once it shows ``expect`` (ANSI codes removed), as lines."""
        deadline = time.monotonic() + TIMEOUT_S
        while expect not in self.last():
            assert time.monotonic() < deadline, f"no {expect!r} on screen:\n{self.last()}"
            self._read(QUIET_S)
        while self._read(QUIET_S):
            pass
        return self.last().split("\n")

    def last(self):
        return ANSI.sub("", self.output.rsplit(CLEAR, 1)[-1]).replace("\r", "")

    def send(self, keys):
        os.write(self.master, keys.encode())

    def finish(self):
        code = self.proc.wait(TIMEOUT_S)
        while self._read(QUIET_S):
            pass
        os.close(self.master)
        return code


def board_of(lines, rows, cols):
    return [line[:cols] for line in lines[:rows]]


def find(board, char):
    return [(r, c) for r, line in enumerate(board) for c, x in enumerate(line) if x == char]


def test_terminal_paint_walks_and_quits():
    term = Terminal("paint_v0", "--vs", "bot:random", "--seed", "1", "--config",
                    "board=\"10x10\"", "max_turns=5")
    try:
        board = board_of(term.screen("turns_left=5"), 10, 10)
        assert find(board, "A") == [(0, 0)] and board[0][1] == "."
        term.send("d")                                           # walk east
        lines = term.screen("turns_left=4")
        board = board_of(lines, 10, 10)
        assert find(board, "A") == [(0, 1)] and board[0][0] == "a"
        assert any(line.endswith("walk east") and "D/RIGHT" in line for line in lines)
        term.send("k")                                           # no action on k
        assert "turns_left=4" in "\n".join(term.screen("no action on K"))
        term.send(ESC)
        assert term.finish() == 0
    finally:
        term.proc.kill()
    assert "you quit the game" in term.output


def test_console_script_plays_and_records_a_replay(tmp_path):
    record = tmp_path / "game.jsonl"
    term = Terminal("paint_v0", "--vs", "bot:greedy", "--seed", "2", "--config",
                    "board=\"10x10\"", "max_turns=2", "--record", str(record),
                    command=("-m", "botarena.arena", "play"))
    try:
        term.screen("turns_left=2")
        term.send("d")
        term.screen("turns_left=1")
        term.send("s")                                           # the last turn: stay
        term.screen("turns_left=0")
        term.send(ENTER)                                         # leave the last position
        assert term.finish() == 0
    finally:
        term.proc.kill()
    assert f"replay: {record}" in term.output
    game, header, _ = replay.play(record)
    assert header["agents"][1] == "bot:greedy" and int(game.state.steps[0]) == 2


def test_terminal_ants_commands_a_tile():
    term = Terminal("ants_v0", "--vs", "bot:random", "--seed", "1")
    try:
        lines = term.screen("cursor: row")
        board = board_of(lines, 20, 20)
        row, col = map(int, re.search(r"cursor: row (\d+) col (\d+)", "\n".join(lines)).groups())
        assert board[row][col] == "A"                            # colony 0's ant on its hill
        term.send(DOWN)
        assert "cursor: row %d col %d" % (row + 1, col) in "\n".join(term.screen("cursor"))
        term.send("\t")                                          # back to the only unit
        term.screen("cursor: row %d col %d" % (row, col))
        key, (dr, dc), label = next(
            (k, d, name) for k, d, name in (("d", (0, 1), "east"), ("a", (0, -1), "west"),
                                            ("x", (1, 0), "south"), ("w", (-1, 0), "north"))
            if 0 <= row + d[0] < 20 and 0 <= col + d[1] < 20
            and board[row + d[0]][col + d[1]] == ".")
        term.send(key)
        assert f"row {row} col {col}: {label}" in "\n".join(term.screen("pending: 1"))
        term.send(ENTER)
        board = board_of(term.screen("turn=1 "), 20, 20)
        assert board[row + dr][col + dc] == "a"                  # the ant moved
        term.send(ESC)
        assert term.finish() == 0
    finally:
        term.proc.kill()


# -- the pygame window ---------------------------------------------------------------------
@pytest.fixture
def pygame(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    return pytest.importorskip("pygame")


def scripted(pygame, script):
    """An event source playing ``script``: pygame events (or callables returning one, or
    None for a check), posted and read back through pygame's queue when it is empty.
    (Not ``pygame.event.peek()``: in pygame 2.6.1 each call drops a reference to the
    attributes of a posted event, which are then freed while queued.)"""
    steps = iter(script)

    def next_event():
        event = pygame.event.poll()
        while event.type == pygame.NOEVENT:
            step = next(steps)
            posted = step() if callable(step) else step
            if posted is not None:
                pygame.event.post(posted)
            event = pygame.event.poll()
        return event
    return next_event


def key(pygame, char=None, code=None):
    code = code if code is not None else getattr(pygame, "K_" + char.lower())
    return pygame.event.Event(pygame.KEYDOWN, key=code, unicode=char or "", mod=0)


def window_player(pygame, script):
    return HumanPlayer(0, lambda: WindowScreen("test", next_event=scripted(pygame, script)))


def shown(human):
    """The window's pixels are the picture of the position."""
    screen = human.screen
    pixels = human.screen.pygame.surfarray.array3d(screen.screen).transpose(1, 0, 2)
    assert np.array_equal(pixels, screen.picture(human.controls, "your turn"))


def test_window_paint_keys_play_turns(pygame):
    checks = []

    def check(ok):
        checks.append(bool(ok))

    def snapshot():
        return human.controls.game.snapshot()

    script = [lambda: shown(human),
              key(pygame, "d"),                                  # walk east
              lambda: check(tuple(snapshot()["positions"][0]) == (0, 1)),
              key(pygame, "k"),                                  # no action: no turn
              lambda: check(snapshot()["steps"] == 1 and "no action" in human.controls.message),
              key(pygame, "@", pygame.K_AT),                     # shown as ?, no turn
              lambda: shown(human),
              key(pygame, code=pygame.K_DOWN),                   # walk south
              lambda: check(tuple(snapshot()["positions"][0]) == (1, 1)),
              key(pygame, "D"),                                  # shift: shoot east
              lambda: check(snapshot()["colour"][1, 2] == 1),
              key(pygame, "s")]                                  # leave the last position
    human = window_player(pygame, script)
    result = match.play("paint_v0", [human, "bot:random"], seed=1,
                        config={"board": "10x10", "max_turns": 3})
    assert result["turns"] == 3 and result["players"] == ["human", "bot:random"]
    assert checks == [True] * 4


def test_window_ants_click_and_command(pygame):
    checks = []

    def check(ok):
        checks.append(bool(ok))

    def unit():
        return divmod(human.controls.units()[0], human.controls.columns)

    def click(cell):
        pixels = human.controls.game.cell_pixels
        row, col = cell
        return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                  pos=(col * pixels + pixels // 2, row * pixels + pixels // 2))

    def plan():
        row, col = start[0] = unit()
        board = human.controls.game.snapshot()["board"]
        for char, (dr, dc) in (("d", (0, 1)), ("a", (0, -1)), ("x", (1, 0)), ("w", (-1, 0))):
            if 0 <= row + dr < 20 and 0 <= col + dc < 20 and board[row + dr][col + dc] == ".":
                start[1] = (char, (row + dr, col + dc))
                return

    start = [None, None]
    script = [plan,
              lambda: click((0, 0)),
              lambda: check(human.controls.cursor == (0, 0)),
              lambda: click(start[0]),
              lambda: check(human.controls.cursor == start[0]),
              lambda: key(pygame, start[1][0]),
              lambda: check(len(human.controls.pending) == 1),
              lambda: shown(human),
              key(pygame, code=pygame.K_RETURN),
              lambda: check(human.controls.game.snapshot()["turn"] == 1
                            and start[1][1] in [(a["y"], a["x"]) for a in
                                                human.controls.game.snapshot()["ants"]
                                                if a["owner"] == 0]),
              key(pygame, code=pygame.K_ESCAPE)]
    human = window_player(pygame, script)
    with pytest.raises(Quit):
        match.play("ants_v0", [human, "bot:random"], seed=1)
    assert checks == [True] * 4
    assert human.screen is None                                  # closed by the match


# -- keys ------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", botarena.ENV_IDS)
def test_every_action_has_its_own_keys(env_id):
    game = botarena.game(env_id)
    binds = bindings(game.action_meanings, arrows=not game.action_shape())
    assert [b.value for b in binds] == list(range(game.action_values()))
    keys = [k for b in binds for k in b.keys]
    assert len(keys) == len(set(keys)) and binds[0].keys == (NOOP_KEY,)


def test_turned_and_mirrored_seats_press_what_they_see():
    towers = botarena.game("towers_v0")
    towers.reset(seed=0)
    controls = Controls(towers, 1)
    controls.cursor = (2, 3)
    controls.handle("w")                                          # up the picture
    action = controls.end_turn()
    tiles = towers.size * towers.size
    seen = tiles - 1 - (2 * towers.size + 3)                      # player_1's turned view
    assert action[seen] == towers.action_meanings.MOVE_S and action.sum() == action[seen]
    runner = botarena.game("coderunner_v0", mirror=True)
    runner.reset(seed=0)
    meanings = runner.action_meanings
    assert Controls(runner, 1).handle("a") == meanings.RIGHT      # mirrored blue
    assert Controls(runner, 0).handle("a") == meanings.LEFT


def test_clicks_off_the_board_are_ignored():
    game = botarena.game("ants_v0")
    game.reset(seed=0)
    controls = Controls(game, 0)
    controls.begin_turn()
    before = controls.cursor
    controls.handle(Click(20, 3))
    assert controls.cursor == before


@pytest.mark.parametrize("argv, message", [
    (["nope_v0"], "unknown env id"),
    (["paint_v0", "--vs", "bot:nobody"], "no bot 'nobody'"),
    (["paint_v0", "--vs", "nobody"], "a spec starts with"),
    (["paint_v0", "--seat", "2"], "seat 2 is not one of"),
    (["paint_v0", "--vs", "bot:random", "--vs", "bot:greedy"], "give one --vs"),
])
def test_bad_arguments_are_reported(argv, message, capsys):
    assert main(argv + ["--tui"]) == 1
    assert message in capsys.readouterr().err
