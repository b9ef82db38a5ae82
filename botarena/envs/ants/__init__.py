"""ants_v0: colonies of ants (``../shared/seeds/ants.txt``, decisions in
``../shared/rules/ants.md``): food, hills, focus-split combat, razing.

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

Rules (``rules.py``, one function per phase, in the order of rules/ants.md)
    Simultaneous moves (every cell holding two or more ants kills them all; swaps pass),
    focus_split attack (squared radius 5), razing (every standing enemy hill under an
    ant), spawning on free standing hills in shuffled order while food lasts, gathering
    (squared radius 1; contested food destroyed), food spawning floor((20 - food) / 2) on
    random free land, elimination (no ants and no food or no standing hill: +1 to every
    colony still in per colony out), end at one colony left or after 300 turns.
    Scores start at 1 per hill; a razed hill: owner -1, razer +2.

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

Other views
    ``env.unwrapped.snapshot()`` (see ``AntsGame.snapshot``): ``board``, ``turn``,
    ``ants``, ``hills``, ``food``, ``stored_food``, ``scores``, ``alive``, ...
    ``env.state()``: float32 planes in absolute terms.  Render modes ``ansi``,
    ``rgb_array``, ``human``.

Scripted bots (``bots.py``): ``random``, ``greedy``, ``raider`` (forages like greedy, then
masses out of greedy's reach and storms the nearest enemy hill from turn ``RAID_TURN``); they
write a whole command grid.

Version history
    v0: first release (before it: the HILL_PROXIMITY plane added as plane 11).
"""
from ...core import cache

cache.configure("ants")  # before this game's kernels are defined

from pettingzoo.utils.conversions import parallel_to_aec

from ...core.parallel_env import BatchedParallelEnv
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
    """The PettingZoo AEC env (PettingZoo's conversion of ``parallel_env``)."""
    return parallel_to_aec(parallel_env(render_mode, **config))


__all__ = ["AntsGame", "Command", "Config", "Game", "Plane", "UNIT_MOVES", "UNITS_PLANE", "env",
           "parallel_env", "raw_env"]
