"""Write the docs site's generated pages: one per game (``docs/games/<env id>.md``) from
the env module's docstring (its documentation: agents, spaces, rules, rewards, snapshot
keys, version history) and its ``Config`` (every field with its type, default and allowed
range), so the site cannot drift from the code.

    python docs/gen_pages.py          # rewrite the pages
    python docs/gen_pages.py --check  # exit 1 if a page is out of date (the tests run it)
"""
import argparse
import dataclasses
import re
import sys
import typing
from pathlib import Path

import botarena

PAGES = Path(__file__).resolve().parent / "games"


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
    return re.sub(r"``([^`]+)``", r"`\1`", "\n".join(out)) + "\n"


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


def page(env_id):
    module = botarena.env_module(env_id)
    bots = ", ".join(f"`{name}`" for name in module.Game.bots)
    gym_id = botarena.GYMNASIUM_IDS.get(env_id)
    return (markdown_of_docstring(module.__doc__)
            + f"\n## Config fields\n\n`botarena.parallel_env(\"{env_id}\", **fields)`; "
              f"Gymnasium: `gymnasium.make(\"{gym_id}\", opponent=\"bot:NAME\", **fields)`.\n\n"
            + config_table(module.Config)
            + f"\nScripted bots (`game.bots`, opponents `bot:NAME`): {bots}.\n")


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="only check the pages are current")
    args = parser.parse_args(argv)
    stale = []
    PAGES.mkdir(exist_ok=True)
    for env_id in botarena.ENV_IDS:
        path, text = PAGES / f"{env_id}.md", page(env_id)
        if not path.exists() or path.read_text() != text:
            stale.append(path.name)
            if not args.check:
                path.write_text(text)
    if args.check and stale:
        print(f"out of date: {', '.join(stale)} (run python docs/gen_pages.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
