"""``botarena`` (also ``python -m botarena.arena``): matches, tournaments and contest bots.

::

    botarena match ENV_ID PLAYER PLAYER... [--seed S] [--games N] [--config K=V ...]
                   [--record FILE] [--log-dir DIR] [--turn-limit S] [--game-limit S]
                   [--memory-mb M] [--in-process] [--json]
    botarena tournament ENV_ID PLAYER... --games N [--jobs J] [--out DIR] [--seed S]
    botarena export-bot MODEL --env ENV_ID --out DIR [--config K=V ...]
    botarena check-bot DIR --env ENV_ID [--opponent PLAYER] [--games N] [--config K=V ...]
    botarena replay FILE [--gif OUT.gif] [--mp4 OUT.mp4] [--html OUT.html]
    botarena play ENV_ID [--vs PLAYER ...] [--seat K] [--seed S] [--config K=V ...]
                  [--record FILE] [--tui]

PLAYER is a spec (``bot:NAME``, ``policy:PATH``, ``python:FILE[:CLASS]``,
``cmd:"PROGRAM ARGS"``; see ``spec``).  ``--config`` values are JSON where they parse as
JSON (``max_turns=50``, ``board='"5x11"'``), else strings.  ``replay`` verifies a replay
and writes it as a GIF, an MP4 video or the web viewer (``botarena.replay.command``, which
``python -m botarena.replay`` runs too).  Exit status 0, 1 for a bad player, path or
config or a replay that does not verify, 2 for bad arguments.
"""
import argparse
import json
import sys

from .. import play, replay
from ..training.evaluate import parse_config
from .spec import SpecError


def _limits(args):
    return {"turn_s": args.turn_limit, "game_s": args.game_limit, "memory_mb": args.memory_mb}


def cmd_match(args):
    from .match import format_result, play_games
    results = play_games(args.env, args.players, games=args.games, seed=args.seed,
                         record=args.record, config=parse_config(args.config),
                         log_dir=args.log_dir, limits=_limits(args), in_process=args.in_process)
    for result in results:
        print(format_result(result))
        if result["record"]:
            print(f"replay: {result['record']}")
        if result["logs"]:
            print(f"bot logs: {result['logs']}")
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


def cmd_tournament(args):
    from .tournament import format_table, tournament
    result = tournament(args.env, args.players, games=args.games, jobs=args.jobs,
                        seed=args.seed, config=parse_config(args.config), out=args.out,
                        limits=_limits(args))
    print(format_table(result))
    print(f"written: {result['files']['json']}, {result['files']['csv']}")
    return 0


def cmd_export(args):
    from .export import export_bot
    from .export import program
    path = export_bot(args.model, args.env, args.out, config=parse_config(args.config))
    print(f"bot written to {path} ({program(args.env)})")
    return 0


def cmd_check(args):
    from .export import check_bot, format_check
    print(format_check(check_bot(args.dir, args.env, opponent=args.opponent, games=args.games,
                                 seed=args.seed, config=parse_config(args.config))))
    return 0


def _add_limits(p):
    p.add_argument("--turn-limit", type=float, default=None, metavar="S",
                   help="seconds a reply (default: the contest's)")
    p.add_argument("--game-limit", type=float, default=None, metavar="S",
                   help="seconds of replies a game (default: the contest's, or none)")
    p.add_argument("--memory-mb", type=int, default=None, metavar="M",
                   help="address space of a bot process in MiB (default 2048)")


def build_parser():
    parser = argparse.ArgumentParser(prog="botarena", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("match", help="play games between players")
    p.add_argument("env", help="env id, e.g. paint_v0")
    p.add_argument("players", nargs="+", help="player specs, one per seat")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--config", nargs="*", default=[], metavar="K=V")
    p.add_argument("--record", metavar="FILE", help="write the replay (JSON lines)")
    p.add_argument("--log-dir", metavar="DIR", help="bots' stderr logs (default: beside "
                                                     "the record, else a temporary folder)")
    p.add_argument("--in-process", action="store_true",
                   help="run python: agents inside this process (debugging only)")
    p.add_argument("--json", action="store_true", help="also print the results as JSON")
    _add_limits(p)
    p.set_defaults(run=cmd_match)
    p = sub.add_parser("tournament", help="round robin, seats swapped, ratings")
    p.add_argument("env")
    p.add_argument("players", nargs="+")
    p.add_argument("--games", type=int, required=True, help="games per pair and seating")
    p.add_argument("--jobs", type=int, default=1, help="matches played at once")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", nargs="*", default=[], metavar="K=V")
    p.add_argument("--out", default="tournament", metavar="DIR",
                   help="folder for the JSON and CSV tables and the logs (tournament/)")
    _add_limits(p)
    p.set_defaults(run=cmd_tournament)
    p = sub.add_parser("export-bot", help="a standalone contest bot from a trained policy")
    p.add_argument("model", help="an SB3 model zip")
    p.add_argument("--env", required=True)
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--config", nargs="*", default=[], metavar="K=V",
                   help="game settings over the trained ones (e.g. ants' max_turns)")
    p.set_defaults(run=cmd_export)
    p = sub.add_parser("check-bot", help="play an exported bot under the contest's limits")
    p.add_argument("dir")
    p.add_argument("--env", required=True)
    p.add_argument("--opponent", default="bot:random")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", nargs="*", default=[], metavar="K=V",
                   help="the games' config (default: the contest's)")
    p.set_defaults(run=cmd_check)
    p = sub.add_parser("replay", help="verify a replay; write it as a GIF, MP4 or web page")
    replay.add_arguments(p)
    p.set_defaults(run=replay.command)
    p = sub.add_parser("play", help="play a game yourself (a window, or --tui)")
    play.add_arguments(p)
    p.set_defaults(run=play.command)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (SpecError, ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
