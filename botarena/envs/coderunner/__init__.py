"""coderunner_v0: a Lode Runner-like two-player game with enemies
(the ICPC Challenge 2013 contest game "CodeRunner"; this page and ``rules.py`` give its
rules, checked turn by turn against games recorded from the original engine).

Agents
    ``runner_0`` (red) and ``runner_1`` (blue).  Runners die and respawn 50 turns later;
    nobody leaves the game, which lasts ``max_turns`` (700) turns.

Actions
    ``Discrete(7)`` (``constants.Action``): 0 NONE, 1 LEFT, 2 RIGHT, 3 TOP, 4 BOTTOM,
    5 DIG_LEFT, 6 DIG_RIGHT.  The mask marks the moves the rules allow (a dead or falling
    runner: NONE only); other actions are accepted and do nothing.  With ``mirror=True``
    blue's actions and mask are mirrored left-right (as its observation).

Observations
    ``Box(11, 16, 25)``, planes ``obs[plane, row, col]`` from the runner's side
    (``constants.Plane``), ``obs_dtype="uint8"`` (default, 0..255) or ``"float32"`` (0..1):
    CELL (one code per cell: empty, brick, ladder, gold, removed brick, own or opponent
    respawn cell), TIMER (turns until a removed brick is restored or a collected gold
    reappears), OWN and OPPONENT (the runner, or while it is dead the respawn countdown on
    its respawn cell), ENEMY (free enemies: one, or more), TRAPPED, ENEMY_SPAWN (dead
    enemies' respawn countdowns), VISITED (cells a runner has stood on: no first-visit point
    left, the same for both), and three bars (a fraction x
    shown as the first ``ceil(400 x)`` cells, in reading order, full): own and opponent dig
    delay, turn.  With ``mirror=True`` all of blue's planes are mirrored left-right.  A
    step writes only what changed (``observe.py``).

Rules (``rules.py``, one function per phase, in the order of the contest's turn)
    plans (runners, enemies: fall, pursue, return, patrol), moves and swap kills, digs,
    timed events (brick restores killing, gold and respawns), gold, first visits, enemy
    contact.  Scores: gold +100, first visit +1, enemy killed by your brick +20, opponent
    killed by your brick +300.

Rewards
    ``reward="score"`` (default): change of the own score; ``"zero_sum"``; ``"win_loss"``
    (ranked by score).  Shaping: ``death_penalty`` (off by default).
    ``infos[agent]["score"]`` is the game score.

Maps (``maps.py``)
    The original format (16 rows, ``R``/``B`` respawns, enemy list with programs, mirrored);
    ``board=`` a bundled name, a path, the text, or ``"random"`` (a seeded pool of generated
    maps, one drawn per reset).  Bundled: ``tower`` (floors narrowing to a summit, many
    ladders), ``cavern`` (open ledges over pits and trenches) and ``maze`` (walled rooms
    linked by ladders), drawn by hand; ``alpha`` (the default), ``beta``, ``gamma``, made by
    the generator.

Other views
    ``env.unwrapped.snapshot()`` (see ``CodeRunnerGame.snapshot``, a stable format):
    ``board``, ``turn``, ``runners``, ``scores``, ``dig_delay``, ``visited``, ``enemies``,
    ``enemy_master``, ``enemy_next``, ``restore_turn``, ``gold_turn``, ...;
    ``env.unwrapped.restore(snapshot)`` puts the game into such a state (``rng`` optional)
    and returns the observations and infos.  ``env.state()``: float32 planes.  Render modes ``ansi``, ``rgb_array``, ``human``.

Scripted bots (``bots.py``): ``random``; ``greedy`` (to the nearest gold, avoiding
    enemies); ``trapper`` (greedy that digs when an enemy or the opponent is near on its
    row); ``racer`` (races for the gold it reaches before the opponent, visits new cells
    meanwhile, keeps out of dead ends, digs pits under the opponent's next step: the
    strongest, the teacher to clone).

Version history
    v0: first release (unreleased).  Before release the observation went from 16 planes
    (one meaning each, rewritten whole every step) to these 11 (cell codes, one timer
    plane, bars for the scalars), updated in place: the game itself did not change.
    Later (same game, same observations): the hand-drawn maps ``tower``, ``cavern``,
    ``maze``; the step prefetches the cache lines of the env it will step next
    (``prefetch.py``) and writes VISITED only for a first visit (``new_visit``).
    2026-11-25, replayed against 30 games recorded from the original engine (identical
    on every turn after these three fixes; 6 of 30 before): first-visit points come from
    ONE set of unvisited cells shared by both runners (both score a cell reached on the
    same turn; VISITED shows that set, ``state()`` lost its extra plane); an enemy killed
    on turn K reappears in turn K + 25's timed events (one turn later than before); a
    fall step counts as the enemy's move for its every-other-turn clock.  ``restore``.
"""
from ...core import cache

cache.configure("coderunner")  # before this game's kernels are defined

from ...core.parallel_env import BatchedParallelEnv, aec_env
from .config import Config
from .constants import Action, Plane
from .game import CodeRunnerGame

ENV_NAME = "coderunner_v0"
Game = CodeRunnerGame


def parallel_env(render_mode=None, **config):
    """The PettingZoo ParallelEnv; keyword arguments are ``Config`` fields."""
    return BatchedParallelEnv(CodeRunnerGame, Config(**config), ENV_NAME, render_mode)


raw_env = parallel_env


def env(render_mode=None, **config):
    """The PettingZoo AEC env of ``parallel_env`` (actions checked as they are given)."""
    return aec_env(parallel_env(render_mode, **config))


__all__ = ["Action", "Config", "CodeRunnerGame", "Game", "Plane", "env", "parallel_env", "raw_env"]
