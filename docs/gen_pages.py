"""Write the docs site's generated pages: one per game (``docs/games/<env id>.md``) from
the env module's docstring (its documentation: agents, spaces, rules, rewards, snapshot
keys, version history), its ``Config`` (every field with its type, default and allowed
range), its scripted bots' win matrix and a picture of each bundled map, so the site
cannot drift from the code.

    python docs/gen_pages.py             # rewrite the pages (and the Games
                                         # section of mkdocs.yml's nav)
    python docs/gen_pages.py --check     # exit 1 if a page is out of date (the tests run it)
    python docs/gen_pages.py --pictures  # also draw every bundled map (docs/img/maps/)
    python docs/gen_pages.py --matrices  # also play the bots' matrices (minutes; written
                                         # to docs/bot_matrices.json, which the pages read)

The map pictures are each game's ``render_rgb`` of a reset on that map (its status bar
and legend below the board); the matrices come from ``botarena.training.bot_matrix`` with
``MATRIX_GAMES`` games a pair (``MORE_MATRIX_GAMES`` for some games) at each game's
default config.
"""
import argparse
import dataclasses
import datetime
import importlib
import inspect
import json
import re
import sys
import typing
from pathlib import Path

import botarena

DOCS = Path(__file__).resolve().parent
PAGES = DOCS / "games"
PICTURES = DOCS / "img" / "maps"
MATRICES = DOCS / "bot_matrices.json"
MATRIX_GAMES = 100                                       # games a pair, except:
MORE_MATRIX_GAMES = {"paint_v0": 200, "towers_v0": 200}   # games a pair of these games
MKDOCS = DOCS.parent / "mkdocs.yml"
NAV_GAMES = "  - Games:\n"      # the nav's section of game pages, one line per env id below
MATRIX_SEED = 12345


def markdown_of_docstring(doc):
    """The module docstring as markdown: an unindented line followed by an indented
    block is a section heading; ``literal`` becomes `literal`."""
    lines = doc.strip("\n").splitlines()
    out = [f"# {lines[0].split(':')[0]}", "", lines[0].split(":", 1)[1].strip()]
    for i, line in enumerate(lines[1:], start=1):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if line and not line.startswith(" ") and following.startswith("    "):
            out += ["", f"## {line}", ""]
        elif line.startswith("    "):
            out.append(line[4:])
        else:
            out.append(line)
    return literal("\n".join(out)) + "\n"


def literal(text):
    """reST ``literal`` as markdown `literal`."""
    return re.sub(r"``([^`]+)``", r"`\1`", text)


def type_name(kind):
    if typing.get_origin(kind) is typing.Union:
        inner = [k for k in typing.get_args(kind) if k is not type(None)]
        return f"{type_name(inner[0])} or None"
    return getattr(kind, "__name__", str(kind))


def config_table(config_cls):
    hints = typing.get_type_hints(config_cls)
    rows = ["| field | type | default | allowed |", "|---|---|---|---|"]
    for f in dataclasses.fields(config_cls):
        low, high = f.metadata.get("low"), f.metadata.get("high")
        allowed = "" if low is None and high is None else \
            f"{'' if low is None else low} .. {'' if high is None else high}"
        default = f.default if f.default is not dataclasses.MISSING else ""
        rows.append(f"| `{f.name}` | {type_name(hints[f.name])} | `{default!r}` | {allowed} |")
    return "\n".join(rows) + "\n"


MEMBER = re.compile(r"^    (\w+) = (\d+)\s*(?:#\s*(.*))?$")
CONTINUED = re.compile(r"^\s+#\s*(.*)$")


def plane_rows(env_id):
    """``(index, name, meaning)`` of every observation plane: the members of the game's
    ``constants.Plane`` with the comments written beside them (one source, so the table
    cannot drift from the code)."""
    package = botarena.env_module(env_id).Game.__module__.rpartition(".")[0]
    constants = importlib.import_module(f"{package}.constants")
    plane = constants.Plane
    rows = []
    for line in inspect.getsource(plane).splitlines():
        member, continued = MEMBER.match(line), CONTINUED.match(line)
        if member:
            rows.append([int(member[2]), member[1], member[3] or ""])
        elif continued and rows:
            rows[-1][2] += " " + continued[1]
    if [index for index, _, _ in rows] != [int(p) for p in plane]:
        raise ValueError(f"{env_id}: constants.Plane's source does not list its members")
    undocumented = [name for _, name, meaning in rows if not meaning]
    if undocumented:
        raise ValueError(f"{env_id}: planes without a comment in constants.py: {undocumented}")
    return [(index, name, with_values(meaning, constants)) for index, name, meaning in rows]


def with_values(text, constants):
    """``text`` with each named constant of the game followed by its value (once)."""
    seen = set()

    def value(match):
        number = getattr(constants, match[0], None)
        is_number = isinstance(number, (int, float)) and not isinstance(number, bool)
        if not is_number or match[0] in seen:
            return match[0]
        seen.add(match[0])
        return f"{match[0]} (= {number})"
    return re.sub(r"\b[A-Z][A-Z0-9_]{2,}\b", value, text)


def planes_table(env_id):
    rows = ["| plane | `Plane.` | value |", "|---|---|---|"]
    rows += [f"| {index} | `{name}` | {literal(meaning)} |"
             for index, name, meaning in plane_rows(env_id)]
    return "\nEvery plane (`constants.Plane`):\n\n" + "\n".join(rows) + "\n"


def with_planes(env_id, text):
    """The page's text with the plane table at the end of its Observations section."""
    start = text.index("\n## Observations\n")
    end = text.find("\n## ", start + 1)
    end = len(text) if end < 0 else end
    return text[:end].rstrip("\n") + "\n" + planes_table(env_id) + text[end:]


def bundled_maps(env_id):
    """The names of the maps bundled with the game (its ``maps/*.txt``)."""
    folder = Path(inspect.getfile(botarena.env_module(env_id).Game)).parent / "maps"
    return sorted(path.stem for path in folder.glob("*.txt"))


def picture_path(env_id, name):
    return PICTURES / f"{env_id}-{name}.png"


def draw_maps(env_id):
    """A PNG of every bundled map: the board of a game reset on it."""
    from PIL import Image
    PICTURES.mkdir(parents=True, exist_ok=True)
    module = botarena.env_module(env_id)
    for name in bundled_maps(env_id):
        game = module.Game(module.Config(board=name), 1)
        game.reset(seed=MATRIX_SEED)
        Image.fromarray(game.render_rgb(0)).save(picture_path(env_id, name))


def maps_section(env_id):
    names = bundled_maps(env_id)
    lines = ["\n## Bundled maps\n", f"`board=` one of {', '.join(f'`{n}`' for n in names)} "
             "(drawn at a reset; `python docs/gen_pages.py --pictures` draws them again):\n"]
    for name in names:
        lines.append(f"`{name}`:\n\n![{env_id} map {name}](../img/maps/"
                     f"{picture_path(env_id, name).name})\n")
    return "\n".join(lines)


def play_matrices():
    """Every game's bot matrix, as ``bot_matrix`` plays it, into ``MATRICES``."""
    from botarena.training.bot_matrix import bot_matrix
    tables = {}
    for env_id in botarena.ENV_IDS:
        games = MORE_MATRIX_GAMES.get(env_id, MATRIX_GAMES)
        bots = list(botarena.env_module(env_id).Game.bots)
        tables[env_id] = {"games": games, "seed": MATRIX_SEED,
                          "date": datetime.date.today().isoformat(),
                          "table": bot_matrix(env_id, bots, games, MATRIX_SEED)}
        print(f"{env_id}: done", flush=True)
    MATRICES.write_text(json.dumps(tables, indent=1) + "\n")


def bots_section(env_id, matrices):
    from botarena.training.bot_matrix import format_matrix
    module = botarena.env_module(env_id)
    bots = ", ".join(f"`{name}`" for name in module.Game.bots)
    text = f"\n## Scripted bots\n\n`game.bots`, opponents `bot:NAME`: {bots}.\n"
    entry = matrices.get(env_id)
    if entry is None or set(entry["table"]) != set(module.Game.bots):
        return text
    return (text + f"\nWhat they do to each other: win/draw/loss of the row's bot against the "
            f"column's over {entry['games']} games a pair, seats alternating, the default "
            f"config (`python -m botarena.training.bot_matrix {env_id} --bots "
            f"{' '.join(entry['table'])} --games {entry['games']}`; played {entry['date']}).\n\n"
            + format_matrix(entry["table"]) + "\n")


def page(env_id, matrices):
    module = botarena.env_module(env_id)
    gym_id = botarena.GYMNASIUM_IDS.get(env_id)
    return (with_planes(env_id, markdown_of_docstring(module.__doc__))
            + f"\n## Config fields\n\n`botarena.parallel_env(\"{env_id}\", **fields)`; "
              f"Gymnasium: `gymnasium.make(\"{gym_id}\", opponent=\"bot:NAME\", **fields)`.\n\n"
            + config_table(module.Config)
            + bots_section(env_id, matrices)
            + maps_section(env_id))


def with_games_nav(mkdocs):
    """``mkdocs.yml``'s text with its Games section listing every env id's page."""
    start = mkdocs.index(NAV_GAMES) + len(NAV_GAMES)
    end = start
    lines = mkdocs[start:].splitlines(keepends=True)
    for line in lines:
        if not line.startswith("      - "):
            break
        end += len(line)
    nav = "".join(f"      - {env_id}: games/{env_id}.md\n" for env_id in botarena.ENV_IDS)
    return mkdocs[:start] + nav + mkdocs[end:]


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="only check the pages are current")
    parser.add_argument("--pictures", action="store_true", help="draw the bundled maps too")
    parser.add_argument("--matrices", action="store_true", help="play the bot matrices too")
    args = parser.parse_args(argv)
    if args.matrices:
        play_matrices()
    matrices = json.loads(MATRICES.read_text()) if MATRICES.exists() else {}
    stale = []
    PAGES.mkdir(exist_ok=True)
    for env_id in botarena.ENV_IDS:
        if args.pictures:
            draw_maps(env_id)
        path, text = PAGES / f"{env_id}.md", page(env_id, matrices)
        missing = [name for name in bundled_maps(env_id)
                   if not picture_path(env_id, name).exists()]
        if missing:
            stale.append(f"{env_id}'s map pictures {missing}")
        if not path.exists() or path.read_text() != text:
            stale.append(path.name)
            if not args.check:
                path.write_text(text)
    mkdocs = MKDOCS.read_text()
    if with_games_nav(mkdocs) != mkdocs:
        stale.append(f"{MKDOCS.name}'s Games section")
        if not args.check:
            MKDOCS.write_text(with_games_nav(mkdocs))
    if args.check and stale:
        print(f"out of date: {', '.join(stale)} (run python docs/gen_pages.py [--pictures])")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
