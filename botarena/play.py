"""Play any game yourself against arena players: ``botarena play`` (also ``python -m
botarena.play``).

::

    botarena play ENV_ID [--vs PLAYER ...] [--seat K] [--seed S] [--config K=V ...]
                  [--record FILE] [--tui]

``--vs`` takes arena player specs (``bot:NAME``, ``policy:PATH``, ``python:FILE``,
``cmd:...``; default ``bot:greedy``): one per other seat, or one for all of them.  The
match is the arena's (``botarena.arena.match.play``): the person is a seat's
``HumanPlayer``, asked each turn before the programs, so that no program's clock runs
while the person thinks.  The turn advances when the person has chosen (holding a key
down repeats it, a turn a repeat).  Once the game ends, the last position stays on
screen until a key is pressed; then the result is printed.  ``--record FILE`` writes the
game as a replay (``botarena replay FILE --html game.html`` to watch it again).

Keys (the screen lists them; they come from the game's ``action_meanings``): actions
named by a direction (``WALK_NE``, ``LEFT``, ``MOVE_S``, ``N``) take the key of that
direction on the grid ``q w e / a . d / z x c`` (and, with one action a player, the
arrow keys for N E S W); a second verb with directions (paint's shots, coderunner's digs)
takes the same keys with shift; ``s`` is the no-op; other actions the first free letter
of their name (``b`` bomb or blast, ``t`` transform).  With a command per cell (ants,
towers) the arrow keys move a cursor over the board (the mouse picks a tile too), ``tab``
jumps to the next own unit, an action key gives the unit under the cursor its command
(pending until the turn ends; ``s`` takes it back) and enter or space ends the turn.
Escape (or closing the window) quits.  Keys and tiles are those of the picture: a seat
that sees its board turned or mirrored (towers' player_1, coderunner's blue with
``mirror``) still presses up to go up the screen (``BatchedGame.seat_view``).

Two screens: a pygame window (``pip install 'botarena[render]'``) showing the game's
``rgb_array`` frame and a help panel, and ``--tui``, the terminal (no display needed): the
``ansi`` board with the cursor in reverse video and pending commands underlined, the
keys beside it, keys read in the terminal's cbreak mode.  Exit status 0 (also when the
person quits), 1 for a bad env, player, seat, config or screen, 2 for bad arguments.
"""
import argparse
import io
import os
import select
import sys
from dataclasses import dataclass

import numpy as np

from .arena.players import Player
from .arena.spec import HUMAN, PlayerSpec, SpecError

DEFAULT_OPPONENT = "bot:greedy"
# a direction word of an action's name -> its compass point
DIRECTION_WORDS = {"N": "N", "UP": "N", "TOP": "N", "NE": "NE", "E": "E", "RIGHT": "E",
                   "SE": "SE", "S": "S", "DOWN": "S", "BOTTOM": "S", "SW": "SW", "W": "W",
                   "LEFT": "W", "NW": "NW"}
COMPASS_NAMES = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east",
                 "S": "south", "SW": "south-west", "W": "west", "NW": "north-west"}
GRID_KEYS = {"NW": "q", "N": "w", "NE": "e", "W": "a", "E": "d", "SW": "z", "S": "x",
             "SE": "c"}
NOOP_KEY = "s"
UP, DOWN, LEFT, RIGHT = "up", "down", "left", "right"
ARROWS = {"N": UP, "S": DOWN, "W": LEFT, "E": RIGHT}
CURSOR_STEPS = {UP: (-1, 0), DOWN: (1, 0), LEFT: (0, -1), RIGHT: (0, 1)}
ENTER, SPACE, TAB, ESCAPE = "enter", "space", "tab", "esc"
END_TURN_KEYS = (ENTER, SPACE)
NEXT_UNIT_KEY = TAB
QUIT_KEY = ESCAPE
KEY_LABELS = {UP: "UP", DOWN: "DOWN", LEFT: "LEFT", RIGHT: "RIGHT", ENTER: "ENTER",
              SPACE: "SPACE", TAB: "TAB", ESCAPE: "ESC"}
VERB_SHIFTS = 2                  # the first verb with directions plain, the second shifted
KEY_COLUMN = 12                  # width of the keys' column in the help
PENDING_SHOWN = 8                # pending commands listed in the help (the rest counted)


class Quit(Exception):
    """The person quit the game."""


@dataclass(frozen=True)
class Binding:
    """The ``keys`` that play action ``value`` (the picture's terms), named ``label``."""
    keys: tuple
    value: int
    label: str


@dataclass(frozen=True)
class Click:
    """A click on the board's cell ``(row, col)`` of the picture."""
    row: int
    col: int


def key_label(key):
    """How the screens name ``key``: ``W``, ``SHIFT+W``, ``UP``, ``ENTER``, ..."""
    if key in KEY_LABELS:
        return KEY_LABELS[key]
    return "SHIFT+" + key if key.isupper() else key.upper()


def bindings(meanings, arrows):
    """The ``Binding`` of every member of ``meanings`` (a game's ``action_meanings``)
    under the rules of the module doc; ``arrows``: also the arrow keys for the first
    verb's N E S W."""
    verbs, out = [], []
    taken = {NOOP_KEY} | set(GRID_KEYS.values()) | {k.upper() for k in GRID_KEYS.values()}
    for member in meanings:
        *words, last = member.name.split("_")
        direction = DIRECTION_WORDS.get(last)
        if member.value == 0:
            keys = (NOOP_KEY,)
        elif direction is not None:
            verb = "_".join(words)
            if verb not in verbs:
                verbs.append(verb)
            rank = verbs.index(verb)
            if rank >= VERB_SHIFTS:
                raise ValueError(f"{meanings.__name__}: more than {VERB_SHIFTS} verbs with "
                                 f"directions ({', '.join(verbs)}): no keys left for {verb}")
            key = GRID_KEYS[direction]
            keys = (key.upper(),) if rank else (key,)
            if arrows and not rank and direction in ARROWS:
                keys += (ARROWS[direction],)
        else:
            free = [c for c in member.name.lower() if c.isalpha() and c not in taken]
            if not free:
                raise ValueError(f"{meanings.__name__}.{member.name}: no free letter for a key")
            keys = (free[0],)
            taken.add(free[0])
        label = " ".join(words + [COMPASS_NAMES.get(last, last)]).lower()
        out.append(Binding(keys, int(member.value), label))
    return out


class Controls:
    """What the person's keys mean in ``game`` (a one-env game) for ``seat``: the
    bindings, and with a command per cell the cursor and the pending commands.
    ``handle(key)`` takes a key name or a ``Click`` and returns the seat's action once
    the turn is chosen (else None; ``message`` says what was wrong)."""

    def __init__(self, game, seat):
        self.game, self.seat = game, seat
        self.name = game.possible_agents[seat]
        self.per_cell = bool(game.action_shape())
        self.bindings = bindings(game.action_meanings, arrows=not self.per_cell)
        self.by_key = {key: b for b in self.bindings for key in b.keys}
        self.labels = {b.value: b.label for b in self.bindings}
        cells, commands = game.seat_view(seat)
        self.cells = cells
        self.to_seat = np.argsort(commands)          # the picture's value -> the seat's
        self.message = ""
        self.pending = {}                            # picture cell -> picture value
        self.cursor = None
        if self.per_cell:
            self.columns = game.render_rgb(0).shape[1] // game.cell_pixels
            self.rows = len(cells) // self.columns

    def units(self):
        """The picture cells of the seat's own units (those a command could move), in
        reading order."""
        values = self.game.action_values()
        mask = self.game.masks[0, self.seat].reshape(-1, values)
        return sorted(int(c) for c in self.cells[mask[:, 1:].any(axis=1)])

    def begin_turn(self):
        """Put the cursor on the first own unit when it has no place yet."""
        if self.per_cell and self.cursor is None:
            units = self.units()
            self.cursor = divmod(units[0], self.columns) if units else (0, 0)

    def cell(self):
        row, col = self.cursor
        return row * self.columns + col

    def handle(self, key):
        self.message = ""
        if key == QUIT_KEY:
            raise Quit
        if isinstance(key, Click):
            if self.per_cell and 0 <= key.row < self.rows and 0 <= key.col < self.columns:
                self.cursor = (key.row, key.col)
            return None
        if self.per_cell:
            if key in CURSOR_STEPS:
                (row, col), (dr, dc) = self.cursor, CURSOR_STEPS[key]
                self.cursor = (min(max(row + dr, 0), self.rows - 1),
                               min(max(col + dc, 0), self.columns - 1))
                return None
            if key == NEXT_UNIT_KEY:
                units = self.units()
                later = [c for c in units if c > self.cell()]
                if units:
                    self.cursor = divmod((later or units)[0], self.columns)
                return None
            if key in END_TURN_KEYS:
                return self.end_turn()
        binding = self.by_key.get(key)
        if binding is None:
            self.message = f"no action on {key_label(key)}"
            return None
        if not self.per_cell:
            return int(self.to_seat[binding.value])
        if binding.value:
            self.pending[self.cell()] = binding.value
        else:
            self.pending.pop(self.cell(), None)
        return None

    def end_turn(self):
        """The seat's command array of the pending commands (then none are pending)."""
        picture = np.zeros(len(self.cells), dtype=np.int64)
        for cell, value in self.pending.items():
            picture[cell] = value
        self.pending.clear()
        return self.to_seat[picture[self.cells]]

    def help_lines(self, clicks):
        """The help: who the person plays, each key and its action, the pending commands
        (``clicks``: the screen takes mouse clicks)."""
        lines = [f"you: {self.name} (seat {self.seat})", ""]
        lines += [f"{'/'.join(key_label(k) for k in b.keys):<{KEY_COLUMN}}{b.label}"
                  for b in self.bindings]
        if self.per_cell:
            lines += [f"{'arrows':<{KEY_COLUMN}}cursor"]
            if clicks:
                lines += [f"{'click':<{KEY_COLUMN}}pick a tile"]
            lines += [f"{key_label(NEXT_UNIT_KEY):<{KEY_COLUMN}}next unit",
                      f"{'/'.join(key_label(k) for k in END_TURN_KEYS):<{KEY_COLUMN}}end turn"]
        lines += [f"{key_label(QUIT_KEY):<{KEY_COLUMN}}quit"]
        if self.per_cell:
            row, col = self.cursor
            lines += ["", f"cursor: row {row} col {col}", f"pending: {len(self.pending)}"]
            shown = sorted(self.pending.items())[:PENDING_SHOWN]
            lines += [f"  row {c // self.columns} col {c % self.columns}: {self.labels[v]}"
                      for c, v in shown]
            if len(self.pending) > len(shown):
                lines += [f"  and {len(self.pending) - len(shown)} more"]
        if self.message:
            lines += ["", self.message]
        return lines


class Screen:
    """What the person sees and types on: ``draw(controls, note)`` and ``next_key()`` (a
    key name, a ``Click`` or None for nothing that matters), given by each screen."""
    clicks = False

    def turn(self, controls):
        """Show the position until the person has chosen; the seat's action."""
        controls.begin_turn()
        while True:
            self.draw(controls, "your turn")
            key = self.next_key()
            if key is not None:
                action = controls.handle(key)
                if action is not None:
                    return action

    def final(self, controls):
        """Show the last position until a key is pressed."""
        self.draw(controls, "game over: press a key")
        while self.next_key() is None:
            pass

    def close(self):
        pass


class HumanPlayer(Player):
    """The person playing ``seat`` (an arena ``Player``) at the screen that
    ``open_screen()`` opens when the game starts (after every player was made, so that a
    bad opponent is reported before a screen opens); ``close`` closes it."""
    untimed = True

    def __init__(self, seat, open_screen):
        super().__init__(PlayerSpec(HUMAN, None, HUMAN), seat, warn=None)
        self.open_screen = open_screen
        self.screen = None
        self.controls = None
        self.action = None

    def start(self, game, e=0):
        self.controls = Controls(game, self.seat)
        self.screen = self.open_screen()

    def request(self, game, e=0):
        self.action = self._timed(lambda: self.screen.turn(self.controls))

    def respond(self, game, e=0):
        return self.action

    def finish(self, game, e=0):
        self.screen.final(self.controls)

    def close(self):
        if self.screen is not None:
            self.screen.close()
            self.screen = None


# -- the pygame window ----------------------------------------------------------------------
HIGHLIGHT_RGB = (255, 0, 255)
CURSOR_PIXELS = 2                 # the cursor's frame line
PANEL_CHARS = 34                  # the help panel's width in characters
KEY_REPEAT_MS = (400, 120)        # a held key: first repeat, then every
UNDRAWABLE = "?"                  # shown for a character the bitmap font lacks (a key's)


class WindowScreen(Screen):
    """A pygame window: the game's rgb frame (cursor and pending commands drawn on it)
    beside the help.  ``next_event``: where events come from (``pygame.event.wait``; a
    test posts its own and reads them back)."""
    clicks = True

    def __init__(self, title, next_event=None):
        try:
            import pygame
        except ImportError:
            raise RuntimeError("the window needs pygame: pip install 'botarena[render]' "
                               "(or play in the terminal: --tui)") from None
        self.pygame = pygame
        pygame.display.init()
        pygame.display.set_caption(title)
        pygame.key.set_repeat(*KEY_REPEAT_MS)
        self.next_event = next_event or pygame.event.wait
        self.names = {pygame.K_UP: UP, pygame.K_DOWN: DOWN, pygame.K_LEFT: LEFT,
                      pygame.K_RIGHT: RIGHT, pygame.K_RETURN: ENTER, pygame.K_KP_ENTER: ENTER,
                      pygame.K_SPACE: SPACE, pygame.K_TAB: TAB, pygame.K_ESCAPE: ESCAPE}
        self.screen = None
        self.pixels = None

    def picture(self, controls, note):
        """The window's frame: the game's, the cursor and pending commands, the help."""
        from .core import frame
        board = controls.game.render_rgb(0)
        self.pixels = controls.game.cell_pixels
        if controls.per_cell:
            for cell, value in controls.pending.items():
                row, col = divmod(cell, controls.columns)
                key = next(b.keys[0] for b in controls.bindings if b.value == value)
                frame.draw_text(board, col * self.pixels + (self.pixels - frame.ADVANCE) // 2,
                                row * self.pixels + frame.DOT, key, HIGHLIGHT_RGB)
            row, col = controls.cursor
            box = board[row * self.pixels:(row + 1) * self.pixels,
                        col * self.pixels:(col + 1) * self.pixels]
            for edge in (box[:CURSOR_PIXELS], box[-CURSOR_PIXELS:], box[:, :CURSOR_PIXELS],
                         box[:, -CURSOR_PIXELS:]):
                edge[...] = HIGHLIGHT_RGB
        lines = [note, ""] + controls.help_lines(self.clicks)
        height = max(board.shape[0], frame.bar_height(len(lines)))
        picture = np.full((height, board.shape[1] + PANEL_CHARS * frame.ADVANCE, 3),
                          frame.BAR_RGB, dtype=np.uint8)
        picture[:board.shape[0], :board.shape[1]] = board
        for i, line in enumerate(lines):
            drawable = "".join(c if c.upper() in frame.FONT else UNDRAWABLE for c in line)
            frame.draw_text(picture, board.shape[1] + frame.PAD, frame.PAD + i * frame.LINE,
                            drawable, frame.TEXT_RGB)
        return picture

    def draw(self, controls, note):
        pygame = self.pygame
        picture = self.picture(controls, note)
        if self.screen is None or self.screen.get_size() != picture.shape[1::-1]:
            self.screen = pygame.display.set_mode(picture.shape[1::-1])
        pygame.surfarray.blit_array(self.screen, picture.transpose(1, 0, 2))
        pygame.display.flip()

    def next_key(self):
        pygame = self.pygame
        event = self.next_event()
        if event.type == pygame.QUIT:
            return QUIT_KEY
        if event.type == pygame.MOUSEBUTTONDOWN:
            x, y = event.pos
            return Click(y // self.pixels, x // self.pixels)
        if event.type == pygame.KEYDOWN:
            return self.names.get(event.key) or event.unicode or None
        return None

    def close(self):
        self.pygame.display.quit()


# -- the terminal --------------------------------------------------------------------------
CSI = "\x1b["
CLEAR = CSI + "H" + CSI + "2J"
HIDE_CURSOR, SHOW_CURSOR = CSI + "?25l", CSI + "?25h"
REVERSE, UNDERLINE, PLAIN = CSI + "7m", CSI + "4m", CSI + "0m"
ESCAPE_SEQUENCES = {"[A": UP, "[B": DOWN, "[C": RIGHT, "[D": LEFT, "OA": UP, "OB": DOWN,
                    "OC": RIGHT, "OD": LEFT}
CHAR_KEYS = {"\n": ENTER, "\r": ENTER, " ": SPACE, "\t": TAB}
ESCAPE_WAIT_S = 0.05              # an escape key alone: no sequence follows within this
COLUMN_GAP = 4                    # between the board and the help


class TerminalScreen(Screen):
    """The terminal: the game's ``ansi`` board, the help beside it, keys read one at a
    time (cbreak mode; the terminal is restored by ``close``)."""

    def __init__(self, fd_in=None, out=None):
        import termios
        import tty
        self.fd = sys.stdin.fileno() if fd_in is None else fd_in
        self.out = out or sys.stdout
        try:
            self.saved = termios.tcgetattr(self.fd)
        except termios.error:
            raise RuntimeError("--tui needs a terminal on stdin") from None
        self.termios = termios
        tty.setcbreak(self.fd)
        self.out.write(HIDE_CURSOR)

    @staticmethod
    def styled(lines, controls):
        """``lines`` of the ``ansi`` render, the cursor's cell reversed and the cells with
        a pending command underlined."""
        lines = list(lines)
        if controls.per_cell:
            marks = {divmod(cell, controls.columns): UNDERLINE for cell in controls.pending}
            marks[controls.cursor] = REVERSE
            for (row, col), style in marks.items():
                line = lines[row]
                lines[row] = line[:col] + style + line[col] + PLAIN + line[col + 1:]
        return lines

    def draw(self, controls, note):
        board = controls.game.render_ansi(0).rstrip("\n").split("\n")
        shown = self.styled(board, controls)
        width = max(len(line) for line in board) + COLUMN_GAP
        help_lines = [note, ""] + controls.help_lines(self.clicks)
        rows = []
        for i in range(max(len(board), len(help_lines))):
            left = shown[i] + " " * (width - len(board[i])) if i < len(board) else " " * width
            rows.append(left + (help_lines[i] if i < len(help_lines) else ""))
        self.out.write(CLEAR + "\n".join(rows) + "\n")
        self.out.flush()

    def _read(self):
        return os.read(self.fd, 1).decode(errors="replace")

    def next_key(self):
        char = self._read()
        if char != "\x1b":
            return CHAR_KEYS.get(char, char)
        sequence = ""
        while len(sequence) < 2 and select.select([self.fd], [], [], ESCAPE_WAIT_S)[0]:
            sequence += self._read()
        return ESCAPE_SEQUENCES.get(sequence, ESCAPE if not sequence else None)

    def close(self):
        self.out.write(SHOW_CURSOR)
        self.out.flush()
        self.termios.tcsetattr(self.fd, self.termios.TCSADRAIN, self.saved)


# -- the command ---------------------------------------------------------------------------
def opponents(vs, seats, seat):
    """The spec of every seat but ``seat`` from ``--vs`` (one for all, or one each)."""
    vs = vs or [DEFAULT_OPPONENT]
    others = [k for k in range(seats) if k != seat]
    if len(vs) == 1:
        vs = vs * len(others)
    if len(vs) != len(others):
        raise ValueError(f"this game has {seats} seats: give one --vs for all the other "
                         f"{len(others)}, or one each; got {len(vs)}")
    return dict(zip(others, vs))


def play(env_id, open_screen, vs=None, seat=0, seed=None, config=None, record=None):
    """Play ``env_id`` in ``seat`` at the ``Screen`` that ``open_screen()`` opens, against
    ``vs`` (player specs, see ``opponents``); the arena's match result, or ``Quit`` when
    the person quits.  ``record``: write the game as a replay there."""
    from .arena.match import play as play_match
    from .arena.players import env_game
    seats = env_game(env_id, config).num_agents
    if not 0 <= seat < seats:
        raise ValueError(f"seat {seat} is not one of this game's seats 0..{seats - 1}")
    others = opponents(vs, seats, seat)
    players = [HumanPlayer(k, open_screen) if k == seat else others[k] for k in range(seats)]
    warnings = io.StringIO()          # the arena's warnings, shown once the screen is closed
    try:
        return play_match(env_id, players, seed=seed, config=config, record=record,
                          err=warnings)
    finally:
        sys.stderr.write(warnings.getvalue())


def add_arguments(parser):
    """``botarena play``'s arguments (here and in the ``botarena`` console script)."""
    parser.add_argument("env", help="env id, e.g. paint_v0")
    parser.add_argument("--vs", action="append", metavar="PLAYER",
                        help=f"an arena player spec for the other seats (default "
                             f"{DEFAULT_OPPONENT}); once for all, or once per seat")
    parser.add_argument("--seat", type=int, default=0, help="the seat you play (0)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--config", nargs="*", default=[], metavar="K=V",
                        help="Config fields, values as JSON where they parse (max_turns=50)")
    parser.add_argument("--record", metavar="FILE", help="write the game as a replay")
    parser.add_argument("--tui", action="store_true",
                        help="play in the terminal instead of a pygame window")


def command(args):
    """Run ``botarena play`` with parsed ``args``; the exit status."""
    from .arena.match import format_result
    from .registry import env_module
    from .training.evaluate import parse_config
    try:
        env_module(args.env)
        open_screen = TerminalScreen if args.tui else lambda: WindowScreen(f"botarena {args.env}")
        result = play(args.env, open_screen, args.vs, args.seat, args.seed,
                      parse_config(args.config), args.record)
    except (Quit, KeyboardInterrupt):
        print("you quit the game")
        return 0
    except (SpecError, ValueError, TypeError, RuntimeError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(format_result(result))
    if args.record:
        print(f"replay: {args.record}")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="botarena play", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
