"""Text on rgb frames without a font library: a 3 x 5 bitmap font of our own, in numpy.

Every game's ``render_rgb`` is its board picture above a status bar (``status_frame``):
the turn, a line per player in the player's colour (a swatch, the score and what else
the game counts: HP, ammo, ants, towers, ...), and a legend of the board's colours, each
after a swatch of the colour.  ``botarena.play`` writes its help panel with the same font.

Sizes: a font dot is ``DOT`` (2) pixels, so a capital is 6 x 10 pixels and a character
takes ``ADVANCE`` (8) pixels of a line ``LINE`` (14) pixels high.  The boards draw a cell
in 16 to 24 pixels, so a capital is half a cell to two thirds of one high: the text reads
at the frame's own size, and stays as legible as the board when a frame is scaled up by
an integer factor (a GIF, a window).  The bar is as wide as the board; a line longer
than that is cut at its edge, so a game's frames all have one shape.

``draw_text(frame, x, y, text, colour)`` draws capitals (lower case letters are drawn as
capitals), digits and ``GLYPHS``' symbols; any other character raises ``ValueError``.
The character ``SWATCH`` in a status line draws a legend swatch: a square of the colour
outlined in the text colour.
"""
import numpy as np

GLYPH_COLUMNS, GLYPH_ROWS = 3, 5
DOT = 2                                   # pixels a font dot, in both directions
ADVANCE = (GLYPH_COLUMNS + 1) * DOT       # one dot between characters
LINE_GAP = 2 * DOT                        # between two lines
LINE = GLYPH_ROWS * DOT + LINE_GAP
PAD = 2 * DOT                             # around the bar's text
BAR_RGB = (250, 250, 250)
TEXT_RGB = (30, 30, 30)
SWATCH = "\u25a0"                         # a filled square
LEGEND_GAP = "  "                         # between two legend entries on a line

# each glyph: GLYPH_ROWS strings of GLYPH_COLUMNS dots, top row first ("#" on)
GLYPHS = {
    " ": ("...", "...", "...", "...", "..."),
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "G": (".##", "#..", "#.#", "#.#", ".##"),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "J": ("..#", "..#", "..#", "#.#", ".#."),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"),
    "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."),
    "P": ("##.", "#.#", "##.", "#..", "#.."),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": (".##", "#..", ".#.", "..#", "##."),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"),
    "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "Z": ("###", "..#", ".#.", "#..", "###"),
    ":": ("...", ".#.", "...", ".#.", "..."),
    "/": ("..#", "..#", ".#.", "#..", "#.."),
    "-": ("...", "...", "###", "...", "..."),
    "+": ("...", ".#.", "###", ".#.", "..."),
    ".": ("...", "...", "...", "...", ".#."),
    ",": ("...", "...", "...", ".#.", "#.."),
    "=": ("...", "###", "...", "###", "..."),
    "(": ("..#", ".#.", ".#.", ".#.", "..#"),
    ")": ("#..", ".#.", ".#.", ".#.", "#.."),
    "?": ("###", "..#", ".##", "...", ".#."),
    "_": ("...", "...", "...", "...", "###"),
    SWATCH: ("###", "###", "###", "###", "###"),
}
FONT = {char: np.array([[dot == "#" for dot in row] for row in rows])
        for char, rows in GLYPHS.items()}


def glyph(char):
    """The ``bool[GLYPH_ROWS, GLYPH_COLUMNS]`` dots of ``char`` (lower case as capitals)."""
    try:
        return FONT[char.upper()]
    except KeyError:
        raise ValueError(f"no glyph for {char!r} in botarena's bitmap font (capitals, "
                         f"digits and {''.join(c for c in GLYPHS if not c.isalnum())})") from None


def text_width(text):
    """Pixels ``text`` takes on a line."""
    return len(text) * ADVANCE


def draw_text(frame, x, y, text, colour):
    """Draw ``text`` with its top-left corner at pixel ``(x, y)`` of ``frame``
    (``uint8[H, W, 3]``, changed in place), cut at the frame's edges; returns the x after
    it.  A ``SWATCH`` is a square of ``colour`` outlined in ``TEXT_RGB``."""
    height, width = frame.shape[:2]
    for char in text:
        dots = np.kron(glyph(char), np.ones((DOT, DOT), dtype=bool))
        rows, cols = min(dots.shape[0], height - y), min(dots.shape[1], width - x)
        if rows > 0 and cols > 0:
            box = frame[y:y + rows, x:x + cols]
            box[dots[:rows, :cols]] = TEXT_RGB if char == SWATCH else colour
            if char == SWATCH:
                box[1:-1, 1:-1] = colour
        x += ADVANCE
    return x


def legend_lines(entries, width):
    """The legend ``entries`` (``(label, colour)``; colour None: the label alone) as
    status lines of at most ``width`` pixels, an entry never split."""
    lines, line, used = [], [], PAD
    for label, colour in entries:
        parts = [(label, TEXT_RGB)]
        if colour is not None:
            parts = [(SWATCH, colour), (" " + label, TEXT_RGB)]
        size = sum(text_width(text) for text, _ in parts)
        if line and used + text_width(LEGEND_GAP) + size > width - PAD:
            lines.append(line)
            line, used = [], PAD
        if line:
            line.append((LEGEND_GAP, TEXT_RGB))
            used += text_width(LEGEND_GAP)
        line.extend(parts)
        used += size
    if line:
        lines.append(line)
    return lines


def bar_height(count):
    """Pixels of a status bar of ``count`` lines."""
    return 2 * PAD + count * LINE - LINE_GAP


def with_status_bar(board, lines):
    """``board`` (``uint8[H, W, 3]``) above a bar of ``lines``: each a list of ``(text,
    colour)`` parts drawn one after the other on one line (cut at the edge)."""
    height, width = board.shape[:2]
    frame = np.empty((height + bar_height(len(lines)), width, 3), dtype=np.uint8)
    frame[:height] = board
    frame[height:] = BAR_RGB
    for i, parts in enumerate(lines):
        x, y = PAD, height + PAD + i * LINE
        for text, colour in parts:
            x = draw_text(frame, x, y, text, colour)
    return frame


def player_line(name, colour, score, counts=()):
    """A player's status line in its colour: a swatch, the name, ``SCORE`` and
    ``counts`` (``(label, value)`` pairs, or a label alone such as ``OUT``)."""
    words = [name, "SCORE", str(int(score))]
    for item in counts:
        words.extend([item] if isinstance(item, str) else [item[0], str(int(item[1]))])
    return [(SWATCH, colour), (" " + " ".join(words), colour)]


def status_frame(board, turn, max_turns, over, players, legend):
    """``board`` above the game's status bar: ``TURN t/T`` (and ``OVER`` once the game
    ended), ``players`` (``player_line``'s lines) and the ``legend`` (``legend_lines``)."""
    head = f"TURN {int(turn)}/{int(max_turns)}" + (" OVER" if over else "")
    lines = [[(head, TEXT_RGB)]] + list(players) + legend_lines(legend, board.shape[1])
    return with_status_bar(board, lines)
