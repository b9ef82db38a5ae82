"""Round robin tournaments: ``tournament(env_id, players, games, jobs=...)``.

Every pair of players meets in ``games`` games in each seating (seats swapped), with
seeds ``seed, seed + 1, ...`` per pairing so that both seatings play the same positions.
Matches run in ``jobs`` worker processes at once.  The results give a win/draw/loss
matrix (row player against column player) and ratings from OpenSkill (Plackett-Luce;
``pip install 'botarena[arena]'``), updated game by game in a fixed order so that a
tournament gives the same table whatever ``jobs`` is; players are listed by the
rating's ``ordinal`` (mu - 3 sigma).  ``out``: the folder for ``tournament.json``,
``tournament.csv`` and the bots' logs.
"""
import csv
import itertools
import json
import os
from concurrent.futures import ProcessPoolExecutor

from .match import play
from .spec import parse_spec

SEATS = 2
JSON_NAME, CSV_NAME = "tournament.json", "tournament.csv"


def _job(task):
    env_id, seats, seed, config, log_dir, limits = task
    with open(os.devnull, "w") as quiet:
        result = play(env_id, seats, seed=seed, config=config, log_dir=log_dir, limits=limits,
                      err=quiet)
    return {"seats": seats, "seed": seed, "winner": result["winner"],
            "scores": result["scores"], "turns": result["turns"],
            "status": [s["status"] for s in result["seats"]]}


def _ratings(players, games):
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ImportError("ratings need OpenSkill: pip install 'botarena[arena]'") from None
    model = PlackettLuce()
    ratings = {p: model.rating(name=p) for p in players}
    for game in games:
        a, b = game["seats"]
        ranks = [1, 1] if game["winner"] < 0 else ([1, 2] if game["winner"] == 0 else [2, 1])
        (ra,), (rb,) = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
    table = [{"player": p, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
             for p, r in ratings.items()]
    return sorted(table, key=lambda row: -row["ordinal"])


def tournament(env_id, players, games=1, jobs=1, seed=0, config=None, out="tournament",
               limits=None):
    """Play the round robin; returns ``players``, ``matrix`` ({row: {column: {wins,
    draws, losses}}}), ``ratings``, ``games`` (each game's seats, seed, winner, scores)
    and ``files`` (the JSON and CSV written into ``out``)."""
    for p in players:
        parse_spec(p)                          # a bad spec fails before any match
    if len(set(players)) != len(players) or len(players) < SEATS:
        raise ValueError("a tournament takes two or more distinct players")
    if games < 1 or jobs < 1:
        raise ValueError("--games and --jobs must be at least 1")
    os.makedirs(out, exist_ok=True)
    tasks = []
    for a, b in itertools.combinations(players, SEATS):
        for seats in ((a, b), (b, a)):
            for g in range(games):
                log_dir = os.path.join(out, "logs", f"game{len(tasks)}")
                tasks.append((env_id, list(seats), seed + g, config, log_dir, limits))
    if jobs == 1:
        played = [_job(t) for t in tasks]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            played = list(pool.map(_job, tasks))
    matrix = {p: {q: {"wins": 0, "draws": 0, "losses": 0} for q in players if q != p}
              for p in players}
    for game in played:
        a, b = game["seats"]
        if game["winner"] < 0:
            matrix[a][b]["draws"] += 1
            matrix[b][a]["draws"] += 1
        else:
            winner, loser = (a, b) if game["winner"] == 0 else (b, a)
            matrix[winner][loser]["wins"] += 1
            matrix[loser][winner]["losses"] += 1
    result = {"env": env_id, "players": list(players), "games_per_seating": games,
              "config": config or {}, "matrix": matrix, "ratings": _ratings(players, played),
              "games": played}
    result["files"] = {"json": os.path.join(out, JSON_NAME), "csv": os.path.join(out, CSV_NAME)}
    with open(result["files"]["json"], "w") as f:
        json.dump(result, f, indent=2)
    _write_csv(result, result["files"]["csv"])
    return result


def _cell(counts):
    return f"{counts['wins']}-{counts['draws']}-{counts['losses']}"


def _write_csv(result, path):
    order = [row["player"] for row in result["ratings"]]
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["player"] + order + ["mu", "sigma", "ordinal"])
        for row in result["ratings"]:
            p = row["player"]
            writer.writerow([p] + ["" if q == p else _cell(result["matrix"][p][q]) for q in order]
                            + [f"{row['mu']:.3f}", f"{row['sigma']:.3f}", f"{row['ordinal']:.3f}"])


def format_table(result):
    """The W-D-L matrix (row against column) and the ratings, as text."""
    order = [row["player"] for row in result["ratings"]]
    width = max(len(p) for p in order) + 2
    lines = ["".join(x.ljust(width) for x in ["W-D-L"] + order) + "mu      sigma   ordinal"]
    for row in result["ratings"]:
        p = row["player"]
        cells = ["-" if q == p else _cell(result["matrix"][p][q]) for q in order]
        lines.append("".join(x.ljust(width) for x in [p] + cells)
                     + f"{row['mu']:<8.2f}{row['sigma']:<8.2f}{row['ordinal']:.2f}")
    return "\n".join(lines)
