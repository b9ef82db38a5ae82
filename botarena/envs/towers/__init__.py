"""towers_v0: bots, towers and flags (Delta's Code Character 2020, the contest's rules
with every gap decided as documented here).

Agents
    ``player_0`` (base tile (0, 0)) and ``player_1`` (base tile (N - 1, N - 1)), each
    commanding all its bots and towers.  Both play to the end (``max_turns``).

Coordinates
    As the seed: position ``(x, y)``, ``x`` DOWN (row), ``y`` RIGHT (column); tile
    ``(floor(x), floor(y))``, flat index ``x * N + y``.  Every player sees and commands as
    if it were player 0 at the top-left: player 1's view of tile ``(x, y)`` is the absolute
    tile ``(N - 1 - x, N - 1 - y)`` and its directions are turned by half a turn, so one
    policy serves both seats.  ``snapshot()`` and the renders are absolute (player 0's).

Actions
    ``MultiDiscrete([11] * N*N)``: a command per tile of the player's view
    (``constants.Command``): 0 no-op (units carry on with their current command), 1-8
    move to the centre of the neighbouring tile N, NE, E, SE, S, SW, W, NW (N = x - 1,
    E = y + 1), 9 blast, 10 transform.  A tile's command goes to ONE unit: the oldest
    living own bot on the tile (the others carry on, so a stack splits one bot a turn),
    or, for blast, the own tower there.  Mask (``infos[agent]["action_mask"]``): flat
    int8 of length 11*N*N, ``mask[tile * 11 + command]``; no-op is always legal; where an
    own bot stands, a move whose step is possible (``paths.step_ok``), blast, and
    transform unless the tile is a base or the player has ``max_num_towers`` towers; on
    an own tower old enough, blast.  Masked commands are accepted and act as the rules
    say (a move into water keeps trying forever; a transform on a base never happens).

Observations
    ``Box(15, N, N)``, planes ``obs[plane, x, y]`` of the player's mirrored view
    (``constants.Plane``): 0 own bots (count on the tile / 16, capped), 1 their mean HP /
    max_bot_hp, 2 enemy bots, 3 their mean HP, 4 own towers (full), 5 their HP /
    max_tower_hp, 6 own towers ready to blast (age >= tower_min_blast_age), 7-9 the same
    for enemy towers, 10 water, 11 flag, 12 constant turn / max_turns, 13 constant
    1/2 + (own - enemy game points) / 200 (clipped to [0, 1]), 14 constant 1/2 + (own -
    enemy last turn score) / 500 (clipped).  ``obs_dtype="uint8"`` (default, full = 255)
    or ``"float32"`` (full = 1.0).  A step updates them in place (the tiles of the units
    before and after the turn, the constant planes whose value changed): the same values
    as written whole.

Rules (``rules.py``, one function per paragraph of the turn, in the rules file's order)
    Apply commands; remove the units that died last turn; bots then towers act (blasts:
    damage floor(D * (R - d) / R) to every enemy unit within R, summed, using positions
    from before the moves; the blaster dies; a tower may blast from age
    ``tower_min_blast_age``); apply damage and deaths; moves (``bot_speed`` of path a
    turn); transforms (the bot alone on its tile, no tower, not a base: a tower of
    floor(3 * HP)); score (bots on flags * 10 + towers on flags * 25; the higher turn
    score gets a game point, none on a tie); spawn (one bot per player at its base, caps
    150 bots / 100 towers, a unit that died this turn counting until it leaves).
    1000 turns.  Every constant is a ``Config`` field.

Pathing (``paths.py``)
    8-connected tiles, no corner cutting, water and towers impassable; shortest paths in
    steps (a diagonal step counts one), walked tile centre to tile centre, the last leg
    straight to the destination.  Distance fields per destination tile, computed by a
    breadth-first search when first asked, kept (``FIELD_SLOTS`` per env) until a tower
    appears or dies.  A bot whose destination is unreachable stays and keeps trying.

Rewards
    ``reward="score"`` (default): game points gained this turn (0 or 1); ``"zero_sum"``:
    the change of the point margin; ``"win_loss"``: +1 / 0 / -1 at the end by game
    points.  Shaping: ``turn_score_weight`` (default 0) times (own - enemy turn score),
    added every turn.  ``infos[agent]["score"]`` = game points.

Maps (``maps.py``)
    ``board="default"`` (the water cross with the central 4 x 4 flag), ``"islands"``,
    ``"lanes"``, a path or the text of a map (``N`` lines of ``N`` space-separated
    letters ``L`` land, ``W`` water, ``F`` flag, line 0 = row x = 0), or ``"random"``: a
    new point-symmetric connected map at every reset from the env's RNG (``water``,
    ``flag_size``; ``maps.generate_map(seed)`` gives a seed's map).  Bad maps raise
    ``ValueError`` naming the problem (size, letter, a base in water, no flag, bases cut
    apart).

Snapshot and restore
    ``env.unwrapped.snapshot()`` / ``TowersGame.snapshot(e)``: ``map`` (N strings),
    ``turn``, ``steps``, ``over``, ``scores``, ``turn_scores``, ``next_id``, ``bots``
    (dicts owner, id, x, y, hp, command, target_x, target_y, dead), ``towers`` (dicts
    owner, id, x, y (tile), hp, age, dead), ``rng``; views ``board``, ``turns_left``,
    ``positions`` (the bases), ``winner`` (see ``TowersGame.snapshot``).
    ``restore(snapshot)`` checks the whole dict (a bad key raises ``ValueError`` naming
    it; the env is left as it was) and puts the env into that state.  ``TowersGame.set_position(board)`` builds a position from
    an ASCII board (scenario tests).

Other views
    ``env.state()``: float32 planes in absolute terms.  Render modes ``ansi``,
    ``rgb_array``, ``human``.

Scripted bots (``bots.py``)
    ``random``, ``greedy`` (rush the flags, transform on them, blast enemy groups),
    ``defensive`` (greedy that also sets guard towers two tiles from the flags on its own
    half, which blast enemy groups near them).  On the default map defensive beats
    greedy in every game (the docs page's bot matrix, ``training.bot_matrix``); on random
    maps (``board="random"``, 40 games, 250 turns) it loses 0.07/0.05/0.88: its guard
    posts pay off where the flag sits behind water as on the default map.
    ``striped`` (greedy whose towers stand only on every other row of the flag, the even
    rows of its own view, its bots on the rows between; ties broken by direction, so that
    every choice is a function of the board) beats random, greedy and defensive in every
    game on the default map; it is the trainer's teacher (``training.ppo``'s recipe).

Version history
    v0: first release.
"""
from ...core import cache

cache.configure("towers")  # before this game's kernels are defined

from ...core.parallel_env import BatchedParallelEnv, aec_env
from .config import Config
from .constants import BotCommand, Command, Plane
from .game import TowersGame

ENV_NAME = "towers_v0"
Game = TowersGame
UNITS_PLANE = int(Plane.OWN_BOTS)


def parallel_env(render_mode=None, **config):
    """The PettingZoo ParallelEnv; keyword arguments are ``Config`` fields."""
    return BatchedParallelEnv(TowersGame, Config(**config), ENV_NAME, render_mode)


raw_env = parallel_env


def env(render_mode=None, **config):
    """The PettingZoo AEC env of ``parallel_env`` (actions checked as they are given)."""
    return aec_env(parallel_env(render_mode, **config))


__all__ = ["BotCommand", "Command", "Config", "Game", "Plane", "TowersGame", "UNITS_PLANE",
           "env", "parallel_env", "raw_env"]
