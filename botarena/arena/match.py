"""Matches: ``play(env_id, players, ...)`` plays one game, ``play_games`` several.

Each turn every seat still in the game is sent its message first, then each reply is
read (so programs think at the same time), then the game steps once on the actions.  A
late, garbled, oversized or missing reply is that seat's no-op for the turn, with a
warning; crashes, eliminations (ants) and game-limit breaches follow the protocol's rule
(``protocols``).  The match ends with the game, or at once when a player forfeits; every
process is closed and reaped in any case, also when the match itself fails.

With ``record``, the game is written as a replay (``botarena.replay``); the bots' stderr
logs go beside it (``<record stem>.seat<k>.log``), else into ``log_dir`` (by default a
new temporary folder, when some seat runs in a process).  A replay holds actions only:
when the arena eliminates an ants bot (changing the position outside the rules' step)
the replay ends there, its ``end`` line saying so.
"""
import os
import sys
import tempfile

from .. import replay as replay_module
from ..core import rng as rng_module
from .players import FORFEITED, Player, check_spec, env_game, make_player
from .spec import parse_spec

MAX_PRINTED_WARNINGS = 5        # per seat; the rest are counted


def _names(specs):
    """Display names, made distinct (``bot:greedy``, ``bot:greedy#2``)."""
    names = []
    for spec in specs:
        name, n = spec.name, 2
        while name in names:
            name, n = f"{spec.name}#{n}", n + 1
        names.append(name)
    return names


def outcome(game, forfeits):
    """The winner's seat (-1 for a draw): the forfeiting players lose; else the game's
    ``winner`` where its snapshot has one, else the single best score."""
    scores = game.scores[0].tolist()
    seats = [a for a in range(len(scores)) if a not in forfeits]
    if forfeits or "winner" not in game.snapshot(0):
        best = max(scores[a] for a in seats) if seats else None
        top = [a for a in seats if scores[a] == best]
        return top[0] if len(top) == 1 else -1
    return int(game.snapshot(0)["winner"])


def log_paths(record, log_dir, count):
    """Each seat's stderr log: beside the record, else in ``log_dir``."""
    if record:
        stem = os.path.splitext(os.path.abspath(record))[0]
        return [f"{stem}.seat{k}.log" for k in range(count)]
    return [os.path.join(log_dir, f"seat{k}.log") for k in range(count)]


def play(env_id, players, seed=None, config=None, record=None, log_dir=None, limits=None,
         in_process=False, deterministic=True, err=None):
    """Play one game of ``env_id`` between ``players`` (spec strings, one per seat; or a
    ``Player`` made for its seat, e.g. ``botarena.play``'s person at the keyboard).

    ``config``: Config fields; ``limits``: ``Limits`` fields over each protocol's
    defaults (e.g. ``{"turn_s": 2.0}``); ``in_process``: run python: agents inside this
    process (debugging only); warnings go to ``err`` (stderr).  Returns the result: ``env``,
    ``seed``, ``players``, ``scores``, ``winner`` (seat, -1 for a draw), ``turns``,
    ``over``, ``forfeit`` (seats), ``seats`` (each ``SeatStats.summary()``), ``record``,
    ``logs``."""
    err = err or sys.stderr
    specs = [p.spec if isinstance(p, Player) else parse_spec(p) for p in players]
    for spec in specs:
        check_spec(spec, env_id)
    for k, player in enumerate(players):
        if isinstance(player, Player) and player.seat != k:
            raise ValueError(f"player {player.spec.name!r} was made for seat {player.seat}, "
                             f"given for seat {k}")
    seed = int(rng_module.fresh_seed() if seed is None else seed)
    game = env_game(env_id, config)
    if len(specs) != game.num_agents:
        raise ValueError(f"{env_id} with this config has {game.num_agents} seats, "
                         f"{len(specs)} players given")
    game.reset(seed=seed)
    names = _names(specs)
    if not record and log_dir is None and not all(s.runs_in_process for s in specs):
        log_dir = tempfile.mkdtemp(prefix="botarena-match-")
    elif log_dir:
        os.makedirs(log_dir, exist_ok=True)
    logs = log_paths(record, log_dir or "", len(specs))

    def warn(seat, text):
        stats = seats[seat].stats
        stats.warnings += 1
        if stats.warnings <= MAX_PRINTED_WARNINGS:
            print(f"warning: seat {seat} ({names[seat]}), turn {int(game.state.steps[0])}: "
                  f"{text}", file=err, flush=True)
        if stats.warnings == MAX_PRINTED_WARNINGS:
            print(f"warning: seat {seat}: further warnings only counted", file=err, flush=True)

    seats = [player if isinstance(player, Player) else
             make_player(spec, env_id, game, k, seed, warn, logs[k], limits, in_process,
                         deterministic) for k, (player, spec) in enumerate(zip(players, specs))]
    recorder = None
    try:
        if record:
            recorder = replay_module.Recorder(record, env_id, game.config, seed, names,
                                              game.snapshot(0))
        for player in seats:
            player.start(game)
        for player in seats:
            player.ready(game)
        if _eliminate(game, seats, recorder):
            recorder = None
        while not game.over[0] and not any(p.forfeit for p in seats):
            live = game.live_agents(0)
            for a in sorted(live, key=lambda a: not seats[a].untimed):
                seats[a].request(game)
            actions = game.actions * 0
            for a in live:
                actions[0, a] = seats[a].respond(game)
            if any(p.forfeit for p in seats):
                break
            if _eliminate(game, seats, recorder):
                recorder = None
            if game.over[0]:
                break
            game.actions[...] = actions
            game.step()
            if recorder is not None:
                recorder.turn(int(game.state.steps[0]), game.actions[0], game.snapshot(0))
        for player in seats:
            player.finish(game)
    finally:
        for player in seats:
            player.close()
    forfeits = [k for k, p in enumerate(seats) if p.stats.status == FORFEITED]
    result = {"env": env_id, "seed": seed, "players": names,
              "scores": game.scores[0].tolist(), "winner": outcome(game, forfeits),
              "turns": int(game.state.steps[0]), "over": bool(game.over[0]),
              "forfeit": forfeits, "seats": [p.stats.summary() for p in seats],
              "record": record, "logs": os.path.dirname(logs[0]) or None}
    if recorder is not None:
        recorder.end(result)
    return result


def _eliminate(game, seats, recorder):
    """Apply the contest's eliminations decided this turn; the note a replay ends with."""
    note = None
    for player in seats:
        if player.eliminated:
            player.eliminated = False
            player.protocol.eliminate(game, 0)
            note = (f"seat {player.seat} eliminated by the arena at turn "
                    f"{int(game.state.steps[0])}: the replay stops here")
            if recorder is not None:
                recorder.end({"stopped": note})
    return note


def play_games(env_id, players, games=1, seed=None, record=None, **kwargs):
    """``games`` games (seeds ``seed``, ``seed + 1``, ...; records ``FILE-<i>.jsonl``
    when more than one); the list of their results."""
    seed = int(rng_module.fresh_seed() if seed is None else seed)
    results = []
    for i in range(games):
        path = record
        if record and games > 1:
            stem, ext = os.path.splitext(record)
            path = f"{stem}-{i}{ext}"
        results.append(play(env_id, players, seed=seed + i, record=path, **kwargs))
    return results


def format_result(result):
    """A few lines: each seat's score and status, and the outcome."""
    lines = [f"{result['env']} seed {result['seed']}: {result['turns']} turns"
             f"{'' if result['over'] else ' (stopped)'}"]
    for k, (name, score) in enumerate(zip(result["players"], result["scores"])):
        seat = result["seats"][k]
        extra = f", {seat['status']}" if seat["status"] != "playing" else ""
        issues = ", ".join(f"{seat[key]} {key}" for key in ("timeouts", "garbled") if seat[key])
        lines.append(f"  seat {k} {name}: score {score}{extra}{', ' + issues if issues else ''}")
    w = result["winner"]
    lines.append("result: draw" if w < 0 else f"winner: seat {w} ({result['players'][w]})")
    return "\n".join(lines)
