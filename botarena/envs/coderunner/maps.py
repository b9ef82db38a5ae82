"""CodeRunner maps: the original file format, validation, pursuit tables and a generator.

Map file (the original game's format)::

    16 lines of 25 characters: . empty, = brick, H ladder, * gold,
                               R / B the red / blue respawn cell (standing on an empty cell)
    a line with an integer k
    k lines ``row col PROGRAM``, PROGRAM a string of L R T B

Each listed enemy is mirrored to column ``24 - col`` with L and R swapped, so the map holds
2k enemies (listed enemy i is enemy 2i, its mirror 2i+1).  A map is rejected with a clear
``ValueError`` when a size is wrong, a character is unknown, R or B is missing or doubled,
the cells or the respawn cells are not left-right symmetric, an enemy starts in column 12
or inside a brick, or a program is not a closed circuit of legal moves (a falling enemy
must read ``B``; every other letter must be a legal move; the last letter brings it back).

Bundled maps (``BUNDLED``): ``tower`` (floors narrowing upwards to a summit, linked by
ladders, and one ladder from the bottom to the top), ``cavern`` (open ledges over a floor with pits into two trenches,
each with a ladder out) and ``maze`` (four full floors cut by walls into rooms, linked by
ladders that make the way between rooms wind), drawn by hand: every gold reachable by both
runners from every cell they can reach (no trap without a way out but digging); ``alpha``,
``beta``, ``gamma`` (the default ``alpha``) from the generator.

``Config.board`` takes a bundled name (``BUNDLED``), a path to a file, the text itself, or
``"random"``: a pool of maps from ``generate_map`` (plain numpy, seeded), one drawn per
reset from the env's GAME stream.

The pursuit graph (``pursuit_tables``, jitted): nodes are the non-brick cells where an
enemy stands without falling on the map as loaded (removed bricks count as brick); an
edge is a legal move between two nodes whose opposite move leads back (a reversible
move).  ``dist[a, b]`` is the length of the shortest reversible path (``UNREACHABLE``
if none); it never changes during a game, so it is computed once per map.
"""
import os
from dataclasses import dataclass

import numpy as np
from numba import njit

from ...core.grid import read_map_file
from .constants import (BOTTOM, BRICK, CHAR_BLUE, CHAR_CELLS, CHAR_RED, EMPTY, GOLD,
                        HEIGHT, LADDER, LEFT, LETTER_OF, MIDDLE, MOVE_DELTAS, OPPOSITE,
                        PROGRAM_LETTERS, RIGHT, TOP, UNREACHABLE, WIDTH, CELL_CHARS)

# maps/<name>.txt: three drawn by hand (a tower of ladders, an open cavern over pits, a maze
# of walled corridors) and three from ``generate_map`` (alpha, the default, beta, gamma)
HAND_MADE = ("tower", "cavern", "maze")
BUNDLED = ("alpha", "beta", "gamma") + HAND_MADE
ALLOWED = "".join(CHAR_CELLS) + CHAR_RED + CHAR_BLUE


@dataclass
class MapData:
    """A loaded map: ``cells`` uint8[16, 25], ``spawns`` [(row, col) red, blue], and the
    enemies (mirrors included) as ``(row, col, program)``, program a tuple of move codes."""
    cells: np.ndarray
    spawns: tuple
    enemies: list
    name: str = "map"

    def text(self):
        """The map file text (listed enemies only: the even ones)."""
        rows = [[CELL_CHARS[int(x)] for x in row] for row in self.cells]
        for ch, (r, c) in zip((CHAR_RED, CHAR_BLUE), self.spawns):
            rows[r][c] = ch
        lines = ["".join(row) for row in rows]
        listed = self.enemies[0::2]
        lines.append(str(len(listed)))
        for r, c, prog in listed:
            lines.append(f"{r} {c} {''.join(LETTER_OF[m] for m in prog)}")
        return "\n".join(lines) + "\n"


# -- static movement (the map as loaded: no removed bricks) ------------------------------

def _brick(cells, r, c):
    return not (0 <= r < HEIGHT and 0 <= c < WIDTH) or cells[r, c] == BRICK


def _empty_like(cells, r, c):
    return 0 <= r < HEIGHT and 0 <= c < WIDTH and cells[r, c] in (EMPTY, GOLD)


def static_falling(cells, r, c):
    """An enemy or runner at (r, c) falls on the map as loaded."""
    return r < HEIGHT - 1 and cells[r, c] != LADDER and _empty_like(cells, r + 1, c)


def static_move(cells, r, c, m):
    """Target (row, col) of move ``m`` from a non-falling (r, c), or None if illegal."""
    if m in (LEFT, RIGHT):
        nc = c + (-1 if m == LEFT else 1)
        return None if _brick(cells, r, nc) else (r, nc)
    if m == TOP:
        if cells[r, c] != LADDER or _brick(cells, r - 1, c):
            return None
        return (r - 1, c)
    if m == BOTTOM:
        if r >= HEIGHT - 1 or cells[r + 1, c] == BRICK:
            return None
        return (r + 1, c)
    return None


def walk_program(cells, row, col, program):
    """Positions before each letter of ``program`` (len + 1 entries, the last = the end).
    Raises ``ValueError`` at the first letter that is not legal."""
    path = [(row, col)]
    r, c = row, col
    for i, m in enumerate(program):
        if static_falling(cells, r, c):
            if m != BOTTOM:
                raise ValueError(f"enemy starting at ({row}, {col}): letter {i} "
                                 f"{LETTER_OF[m]!r} while falling at ({r}, {c}) (must be 'B')")
            r += 1
        else:
            target = static_move(cells, r, c, m)
            if target is None:
                raise ValueError(f"enemy starting at ({row}, {col}): letter {i} "
                                 f"{LETTER_OF[m]!r} is not a legal move at ({r}, {c})")
            r, c = target
        path.append((r, c))
    return path


# -- parsing --------------------------------------------------------------------------------

def parse_map(text, name="map"):
    """``MapData`` of a map file's text (see the module doc)."""
    lines = [line.rstrip() for line in str(text).splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) < HEIGHT + 1:
        raise ValueError(f"{name}: a map needs {HEIGHT} rows of {WIDTH} characters and an "
                         f"enemy count, got {len(lines)} lines")
    rows = lines[:HEIGHT]
    cells = np.zeros((HEIGHT, WIDTH), dtype=np.uint8)
    spawns = {}
    for r, row in enumerate(rows):
        if len(row) != WIDTH:
            raise ValueError(f"{name}: row {r} has {len(row)} characters, a row has {WIDTH}")
        for c, ch in enumerate(row):
            if ch not in ALLOWED:
                raise ValueError(f"{name}: unknown character {ch!r} at row {r}, column {c}; "
                                 f"allowed: {ALLOWED}")
            if ch in (CHAR_RED, CHAR_BLUE):
                if ch in spawns:
                    raise ValueError(f"{name}: {ch} appears twice")
                spawns[ch] = (r, c)
            else:
                cells[r, c] = CHAR_CELLS[ch]
    for ch in (CHAR_RED, CHAR_BLUE):
        if ch not in spawns:
            raise ValueError(f"{name}: no {ch} respawn cell")
    try:
        k = int(lines[HEIGHT].strip())
    except ValueError:
        raise ValueError(f"{name}: line {HEIGHT} must be the number of enemies, got "
                         f"{lines[HEIGHT]!r}") from None
    body = [line for line in lines[HEIGHT + 1:] if line.strip()]
    if k < 0 or len(body) != k:
        raise ValueError(f"{name}: {k} enemies announced, {len(body)} enemy lines follow")
    listed = []
    for i, line in enumerate(body):
        parts = line.split()
        if len(parts) != 3 or not parts[0].lstrip("-").isdigit() or not parts[1].lstrip("-").isdigit():
            raise ValueError(f"{name}: enemy line {i} must be 'row col PROGRAM', got {line!r}")
        r, c, letters = int(parts[0]), int(parts[1]), parts[2]
        bad = set(letters) - set(PROGRAM_LETTERS)
        if bad:
            raise ValueError(f"{name}: enemy {i} program has letters {sorted(bad)}; only L R T B")
        listed.append((r, c, tuple(PROGRAM_LETTERS[x] for x in letters)))
    return build_map(cells, (spawns[CHAR_RED], spawns[CHAR_BLUE]), listed, name)


def build_map(cells, spawns, listed, name="map"):
    """Validate and mirror: ``listed`` enemies (row, col, program) -> ``MapData``."""
    if not np.array_equal(cells, cells[:, ::-1]):
        r, c = np.argwhere(cells != cells[:, ::-1])[0]
        raise ValueError(f"{name}: the map is not left-right symmetric: ({r}, {c}) holds "
                         f"{CELL_CHARS[int(cells[r, c])]!r}, ({r}, {WIDTH - 1 - c}) holds "
                         f"{CELL_CHARS[int(cells[r, WIDTH - 1 - c])]!r}")
    (rr, rc), (br, bc) = spawns
    if (br, bc) != (rr, WIDTH - 1 - rc) or rc == MIDDLE:
        raise ValueError(f"{name}: the respawn cells R {spawns[0]} and B {spawns[1]} are not "
                         f"mirror images in different columns")
    if cells[rr, rc] != EMPTY:
        raise ValueError(f"{name}: respawn cell {spawns[0]} is not empty")
    enemies = []
    for i, (r, c, prog) in enumerate(listed):
        if not (0 <= r < HEIGHT and 0 <= c < WIDTH):
            raise ValueError(f"{name}: enemy {i} at ({r}, {c}) is off the map")
        if c == MIDDLE:
            raise ValueError(f"{name}: enemy {i} starts in column {MIDDLE} (it would be its own mirror)")
        if cells[r, c] == BRICK:
            raise ValueError(f"{name}: enemy {i} starts inside a brick at ({r}, {c})")
        if len(prog) == 0:
            raise ValueError(f"{name}: enemy {i} has an empty program")
        try:
            path = walk_program(cells, r, c, prog)
        except ValueError as err:
            raise ValueError(f"{name}: enemy {i}'s program is not a legal circuit: {err}") from None
        if path[-1] != (r, c):
            raise ValueError(f"{name}: enemy {i}'s program is not a closed circuit: it ends at "
                             f"{path[-1]}, not at its start ({r}, {c})")
        mirror = tuple({LEFT: RIGHT, RIGHT: LEFT}.get(m, m) for m in prog)
        enemies.append((r, c, tuple(prog)))
        enemies.append((r, WIDTH - 1 - c, mirror))
    return MapData(cells.copy(), (tuple(spawns[0]), tuple(spawns[1])), enemies, name)


def bundled_text(name):
    from importlib import resources
    return resources.files(__package__).joinpath("maps", f"{name}.txt").read_text()


def load_map(spec):
    """``MapData`` of a bundled name, a path, or a map's text."""
    if isinstance(spec, MapData):
        return spec
    if isinstance(spec, str) and spec in BUNDLED:
        return parse_map(bundled_text(spec), spec)
    if isinstance(spec, (str, os.PathLike)) and "\n" not in str(spec):
        if os.path.isfile(spec):
            return parse_map(read_map_file(spec), str(spec))
        raise ValueError(f"map {str(spec)!r} is not 'random', a bundled map "
                         f"({', '.join(BUNDLED)}), an existing file nor a map's text")
    if not isinstance(spec, str):
        raise TypeError(f"map must be 'random', a map name, a path or a map's text, got "
                        f"{type(spec).__name__}")
    return parse_map(spec)


# -- pursuit tables -------------------------------------------------------------------------

@njit(cache=True)
def _stable(cells, r, c):
    if cells[r, c] == BRICK:
        return False
    if cells[r, c] == LADDER or r == HEIGHT - 1:
        return True
    below = cells[r + 1, c]
    return below == BRICK or below == LADDER


@njit(cache=True)
def _static_target(cells, r, c, m):
    """Flat target of move m from the stable (r, c) on the static map, or -1."""
    nr, nc = r + MOVE_DELTAS[m, 0], c + MOVE_DELTAS[m, 1]
    if nr < 0 or nr >= HEIGHT or nc < 0 or nc >= WIDTH:
        return -1
    if cells[nr, nc] == BRICK:
        return -1
    if m == TOP and cells[r, c] != LADDER:
        return -1
    return nr * WIDTH + nc


@njit(cache=True)
def pursuit_tables(cells, nbr, dist):
    """Fill ``nbr[cell, move]`` (flat target of a reversible move, -1 if none; moves 1..4)
    and ``dist[a, b]`` (shortest reversible path) of the static map ``cells``."""
    n = HEIGHT * WIDTH
    for i in range(n):
        for m in range(5):
            nbr[i, m] = -1
    for r in range(HEIGHT):
        for c in range(WIDTH):
            if not _stable(cells, r, c):
                continue
            for m in range(1, 5):
                t = _static_target(cells, r, c, m)
                if t < 0:
                    continue
                tr, tc = t // WIDTH, t % WIDTH
                if not _stable(cells, tr, tc):
                    continue
                if _static_target(cells, tr, tc, OPPOSITE[m]) == r * WIDTH + c:
                    nbr[r * WIDTH + c, m] = t
    queue = np.empty(n, dtype=np.int64)
    for src in range(n):
        row = dist[src]
        for i in range(n):
            row[i] = UNREACHABLE
        r, c = src // WIDTH, src % WIDTH
        if not _stable(cells, r, c):
            continue
        row[src] = 0
        head, tail = 0, 1
        queue[0] = src
        while head < tail:
            i = queue[head]
            head += 1
            for m in range(1, 5):
                t = nbr[i, m]
                if t >= 0 and row[t] == UNREACHABLE:
                    row[t] = row[i] + 1
                    queue[tail] = t
                    tail += 1


# -- reachability and the generator ---------------------------------------------------------

def reachable(cells, start):
    """Cells a runner reaches from ``start`` by moves and falls on the static map."""
    seen = {tuple(start)}
    todo = [tuple(start)]
    while todo:
        r, c = todo.pop()
        if static_falling(cells, r, c):
            nexts = [(r + 1, c)]
        else:
            nexts = [t for t in (static_move(cells, r, c, m) for m in (LEFT, RIGHT, TOP, BOTTOM))
                     if t is not None]
        for t in nexts:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


FLOOR_ROWS = (3, 7, 11)     # brick floors of the generated maps (row 15 is solid)


def generate_map(seed, max_tries=200):
    """A playable symmetric ``MapData`` from ``seed``: brick floors with gaps, ladders
    linking every floor, gold every runner can reach, patrolling enemies on valid
    circuits, runners apart on the top floor."""
    rng = np.random.default_rng(seed)
    for _ in range(max_tries):
        data = _try_generate(rng, f"random-{seed}")
        if data is not None:
            return data
    raise RuntimeError(f"no playable map generated from seed {seed}")


def _mirror_set(cells, r, c, value):
    cells[r, c] = value
    cells[r, WIDTH - 1 - c] = value


def _try_generate(rng, name):
    cells = np.zeros((HEIGHT, WIDTH), dtype=np.uint8)
    cells[HEIGHT - 1, :] = BRICK
    stands = [f - 1 for f in FLOOR_ROWS] + [HEIGHT - 2]
    for f in FLOOR_ROWS:
        cells[f, :] = BRICK
        for g in rng.choice(np.arange(0, MIDDLE), size=rng.integers(0, 3), replace=False):
            _mirror_set(cells, f, g, EMPTY)
    # ladders between consecutive standing rows, through the floor between them
    for upper, lower in zip(stands[:-1], stands[1:]):
        count = rng.integers(1, 3)
        cols = rng.choice(np.arange(1, MIDDLE), size=count, replace=False)
        if rng.random() < 0.3:
            cols = list(cols) + [MIDDLE]
        for col in cols:
            for r in range(upper, lower + 1):
                _mirror_set(cells, r, col, LADDER)
    # a few bricks as obstacles on the standing rows
    for s in stands[1:]:
        if rng.random() < 0.5:
            col = rng.integers(0, MIDDLE)
            if cells[s, col] == EMPTY and cells[s - 1, col] != LADDER:
                _mirror_set(cells, s, col, BRICK)
    # gold on the standing rows
    for s in stands:
        for col in rng.choice(np.arange(0, MIDDLE), size=rng.integers(1, 3), replace=False):
            if cells[s, col] == EMPTY and not static_falling(cells, s, col):
                _mirror_set(cells, s, col, GOLD)
    # runners on the top floor, apart
    candidates = [c for c in range(1, MIDDLE - 2) if cells[stands[0], c] == EMPTY
                  and not static_falling(cells, stands[0], c)]
    if not candidates:
        return None
    rc = int(rng.choice(candidates))
    spawns = ((stands[0], rc), (stands[0], WIDTH - 1 - rc))
    # enemies: walk right along a supported stretch and back
    listed = []
    for s in stands[1:]:
        if rng.random() < 0.25:
            continue
        starts = [c for c in range(0, MIDDLE) if cells[s, c] in (EMPTY, LADDER)
                  and not static_falling(cells, s, c)]
        if not starts:
            continue
        c0 = int(rng.choice(starts))
        k = 0
        limit = int(rng.integers(3, 10))
        while k < limit:
            nxt = static_move(cells, s, c0 + k, RIGHT)
            if nxt is None or static_falling(cells, s, c0 + k + 1):
                break
            k += 1
        if k >= 2:
            listed.append((s, c0, (RIGHT,) * k + (LEFT,) * k))
    if not listed:
        return None
    try:
        data = build_map(cells, spawns, listed, name)
    except ValueError:
        return None
    reach = reachable(cells, spawns[0]) | reachable(cells, spawns[1])
    gold = {(int(r), int(c)) for r, c in np.argwhere(cells == GOLD)}
    if not gold or not gold <= reachable(cells, spawns[0]) or not gold <= reachable(cells, spawns[1]):
        return None
    # every floor must be reachable (the ladders link the floors)
    if not all(any((s, c) in reach for c in range(WIDTH)) for s in stands):
        return None
    for r, c, _ in data.enemies:
        if (r, c) in spawns:
            return None
    return data
