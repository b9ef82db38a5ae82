"""ants_v0: colonies of ants (the AntWars 2024 contest game; this page and ``rules.py``
give its rules, checked turn by turn against games recorded from the original server): food,
hills, focus-split combat, razing.

Agents
    ``colony_0`` .. ``colony_{n-1}`` (2 to 4), each commanding all its ants.  An eliminated
    colony terminates (PettingZoo drops it); the game goes on while two colonies remain.

Actions
    ``MultiDiscrete([5] * H*W)``: a command per map cell (``constants.Command``: 0 stay,
    1 N (y - 1), 2 E (x + 1), 3 S (y + 1), 4 W (x - 1)) for the own ant standing there;
    entries on other cells are ignored.  Mask (``infos[agent]["action_mask"]``,
    ``env.action_mask(agent)``): flat int8 of length 5*H*W, ``mask[cell * 5 + command]``,
    ``cell = y * W + x``; 'stay' is always legal, a move where an own ant stands and its
    target is on the map and not water.  Illegal commands are accepted: the ant stays.
    ``UNIT_MOVES`` (``(dy, dx)`` per command) and ``UNITS_PLANE`` (the own ants' plane) let
    a per-cell policy keep two own ants from moving into one cell (``training.cells``).

Observations
    ``Box(12, H, W)``, planes ``obs[plane, y, x]`` from the colony's own side
    (``constants.Plane``): own ants, enemy ants by relative index (next colony, the one
    after, ...; 3 planes, zero beyond the game's colonies), food, own hills, enemy hills
    (full standing, half razed), water, constant planes of stored food (capped at 20),
    turn / max_turns and colonies still in / colonies, and the proximity of the nearest
    standing enemy hill over land (full on it, 1/64 less per step, 0 from 64 steps, cut
    off or water: a way to the enemy that the convolutions of a policy cannot see from
    afar; redrawn when a hill is razed).  ``obs_dtype="uint8"`` (default,
    0..255, full = 255) or ``"float32"`` (0..1).  A step updates the game's planes and
    masks in place (the front-ends hand out copies; nothing else may write them).

Rules (``rules.py``, one function per phase, in the order of the contest's turn)
    Simultaneous moves (every cell holding two or more ants kills them all; swaps pass),
    focus_split attack (squared radius 5), razing (every standing enemy hill under an
    ant), spawning on free standing hills in shuffled order while food lasts, gathering
    (squared radius 1, every food on a cell; contested food destroyed), food spawning
    floor((20 - food) / 2) new food, each on a uniformly random non-water cell (on ants,
    hills and other food too: a cell holds a count), elimination (no ants and no food or no
    standing hill: +1 to every colony still in per colony out), end at one colony left or
    after 300 turns.  Scores start at 1 per hill; a razed hill: owner -1, razer +2.
    Config switches reproduce the original engine where the rules file deliberately
    differs (all off by default): ``raze_one_hill_per_turn``, ``contested_food_credit``,
    ``sequential_elimination_points``; ``spawn_food_at_reset=False`` is its empty turn 0.

Rewards
    ``reward="score"`` (default): change of the own score; ``"zero_sum"``: change of the
    margin over the best opponent; ``"win_loss"``: +1 / 0 / -1 at the end, ranked by the
    turn of elimination (still in = best) and then the score.  ``infos[agent]["score"]``.

Maps (``maps.py``)
    ``board="default"`` (ours, 20 x 20, 2 hills), ``"quad"`` (20 x 20, 4 hills), a path to a
    contest PPM (``P3``: white land, blue water, red hill) or to an ASCII map, an ASCII map
    (``.`` land, ``%`` water, ``0``-``3`` a player's hill, ``*`` a hill dealt at random;
    top text row = y 0), or ``"random"``: the seeded symmetric generator (``width``,
    ``height``, ``water``, ``map_seed``).  ``hills_per_player`` hills are dealt to each
    colony at every reset (env RNG); each starts with one ant on each.

Snapshot and restore (a stable format: replays, the fidelity tests and users' tools read it)
    ``env.unwrapped.snapshot()`` / ``AntsGame.snapshot(e)`` returns a dict of copies;
    ``env.unwrapped.restore(snapshot)`` / ``AntsGame.restore(snapshot, env=e)`` puts an env
    into the state it describes (e.g. a position of a real game) and redraws its
    observations.  State keys (``restore`` reads them):

    - ``turn`` (int), ``steps`` (int, optional: default ``turn``), ``over`` (bool,
      optional: default False);
    - ``ants``: list of dicts ``owner``, ``id``, ``x``, ``y`` (oldest first; one ant a
      cell, on land); ``next_ant_id``: above every id (ids are never reused);
    - ``hills``: list of dicts ``owner``, ``x``, ``y``, ``razed``: the dealt hills, in
      hill-id order (``raze_one_hill_per_turn`` razes the first); each a hill of the map,
      once; the map's other hills are plain land;
    - ``food``: list of ``(x, y, count)``, count >= 1, one entry per cell holding food (on
      any land cell, under ants and on hills too);
    - ``stored_food``, ``scores``: int[A]; ``alive``: bool[A]; ``elim_turn``: int[A], the
      turn a colony went out (``max_turns + 1`` exactly while it is in);
    - ``rng`` (optional: without it the env's RNG carries on): uint64[2].

    Views (``restore`` ignores them): ``board`` (ASCII, see ``AntsGame.snapshot``),
    ``turns_left``, ``positions``, ``winner``.  A missing or inconsistent key (two ants on
    a cell, an ant in water, a hill not on the map, ...) raises ``ValueError`` naming it
    and the env is left as it was.  ``AntsGame.step_drawn(actions, env, food,
    spawn_hills)`` plays one turn with the turn's random draws given (the new food's cells,
    the hills colonies spawn on, in order), to replay a recorded game.

Other views
    ``env.state()``: float32 planes in absolute terms.  Render modes ``ansi``,
    ``rgb_array``, ``human``.

Scripted bots (``bots.py``): ``random``, ``greedy``, ``raider`` (forages like greedy, then
masses out of greedy's reach and storms the nearest enemy hill from turn ``RAID_TURN``); they
write a whole command grid.

Version history
    v0: first release (before it: the HILL_PROXIMITY plane added as plane 11).
    v0, 2026-11 (not released yet, so the id stays): food spawns on any non-water cell
    with replacement, as the seed says and the original engine does (it was on free land
    only: no food under ants, on hills or on food); food is a count per cell, every unit
    gathered and counted in the spawn formula.  ``restore`` and ``step_drawn``;
    ``snapshot()`` gained ``next_ant_id`` and gives ``food`` as ``(x, y, count)``; the
    engine switches ``raze_one_hill_per_turn``, ``contested_food_credit`` and
    ``sequential_elimination_points``.  Golden hashes regenerated.  Checked against 34
    games (4,626 turns) recorded from the original engine: every turn matches, the 118
    turns where the engine differs from the rules file with the switches on.
"""
from ...core import cache

cache.configure("ants")  # before this game's kernels are defined

from ...core.parallel_env import BatchedParallelEnv, aec_env
from .config import Config
from .constants import COMMAND_DELTAS, Command, Plane
from .game import AntsGame

ENV_NAME = "ants_v0"
Game = AntsGame
UNIT_MOVES = tuple((int(dy), int(dx)) for dx, dy in COMMAND_DELTAS)
UNITS_PLANE = int(Plane.OWN_ANTS)


def parallel_env(render_mode=None, **config):
    """The PettingZoo ParallelEnv; keyword arguments are ``Config`` fields."""
    return BatchedParallelEnv(AntsGame, Config(**config), ENV_NAME, render_mode)


raw_env = parallel_env


def env(render_mode=None, **config):
    """The PettingZoo AEC env of ``parallel_env`` (actions checked as they are given)."""
    return aec_env(parallel_env(render_mode, **config))


__all__ = ["AntsGame", "Command", "Config", "Game", "Plane", "UNIT_MOVES", "UNITS_PLANE", "env",
           "parallel_env", "raw_env"]
