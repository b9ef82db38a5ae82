"""What a game's scripted bots do to each other: win / draw / loss over many games.

``bot_matrix(env_id, bots, games=200, seed=..., **config)`` plays every ordered pair of
two-player bots on one batched core (``games`` envs a pair, the seats alternating: env
``e`` seats the row's bot as agent ``e % 2``) and returns ``{row: {column: counts}}`` with
the row's ``wins, draws, losses`` by the game's final ranking (its rank keys, the same
order as ``infos[agent]["outcome"]``).  Every env plays one whole game from its own seed.

CLI::

    python -m botarena.training.bot_matrix towers_v0 --bots random greedy defensive \\
        --games 200 [--config max_turns=500] [--json]
"""
import argparse
import json
import time

import numpy as np

from ..core import rewards
from ..registry import env_module
from .evaluate import parse_config

PLAYERS = 2                  # the matrix seats one bot against one other


def play_pair(env_id, first, second, games, seed, **config):
    """``(wins, draws, losses)`` of bot ``first`` against bot ``second`` over ``games``
    games, ``first`` in seat ``e % 2`` of env ``e``, each env's first game."""
    module = env_module(env_id)
    game = module.Game(module.Config(**config), games)
    if game.num_agents != PLAYERS:
        raise ValueError(f"{env_id} seats {game.num_agents} agents; the matrix needs "
                         f"{PLAYERS}")
    for name in (first, second):
        if name not in game.bots:
            raise ValueError(f"{env_id} has no bot {name!r}; its bots: {', '.join(game.bots)}")
    game.reset(seed=seed)
    envs = np.arange(games)
    seat = envs % PLAYERS
    out = np.zeros((games,) + game.action_shape(), dtype=np.int64)
    actions = np.zeros_like(game.actions)
    result = np.zeros(games)
    finished = np.zeros(games, dtype=bool)
    while not finished.all():
        for name, seats in ((first, seat), (second, 1 - seat)):
            game.bots[name](game.state, game.params, envs, seats, out)
            actions[envs, seats] = out
        game.step(actions, autoreset=True)   # an env that ends keeps its final ranking
        for e in np.flatnonzero((game.terminated | game.truncated).any(1) & ~finished):
            result[e] = rewards.outcome(game.final_rank_keys[e], int(seat[e]))
            finished[e] = True
    return int((result > 0).sum()), int((result == 0).sum()), int((result < 0).sum())


def bot_matrix(env_id, bots, games=200, seed=12345, **config):
    """``{row: {column: {"wins", "draws", "losses", "games"}}}`` for every pair of
    ``bots`` (the row's bot's outcomes)."""
    table = {}
    for row in bots:
        table[row] = {}
        for column in bots:
            wins, draws, losses = play_pair(env_id, row, column, games, seed, **config)
            table[row][column] = {"wins": wins, "draws": draws, "losses": losses,
                                  "games": games}
    return table


def format_matrix(table):
    """A Markdown table: the row's bot's win / draw / loss rates against each column."""
    names = list(table)
    lines = ["| row vs column | " + " | ".join(names) + " |",
             "|---|" + "---|" * len(names)]
    for row in names:
        cells = []
        for column in names:
            c = table[row][column]
            cells.append(f"{c['wins'] / c['games']:.2f}/{c['draws'] / c['games']:.2f}/"
                         f"{c['losses'] / c['games']:.2f}")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m botarena.training.bot_matrix",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("env", help="env id, e.g. towers_v0")
    parser.add_argument("--bots", nargs="+", required=True, help="the game's bot names")
    parser.add_argument("--games", type=int, default=200, help="games a pair")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                        help="env config (JSON values)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    start = time.perf_counter()
    try:
        table = bot_matrix(args.env, args.bots, args.games, args.seed,
                           **parse_config(args.config))
    except (KeyError, TypeError, ValueError) as err:
        parser.exit(1, f"error: {err}\n")
    print(json.dumps(table, indent=2) if args.json else format_matrix(table))
    print(f"({args.games} games a pair, win/draw/loss of the row's bot, "
          f"{time.perf_counter() - start:.0f} s)")
    return table


if __name__ == "__main__":
    main()
