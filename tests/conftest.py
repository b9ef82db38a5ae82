"""Shared configuration of the cross-cutting test suite.

Every cross-cutting test loops over ``botarena.ENV_IDS`` and the games' test cases in
``GAMES`` below: a new game joins the suite with one entry there (and its golden hashes,
``python tests/test_golden.py --regenerate <env_id>``).  ``test_conformance`` fails if an
env id lacks a kind of case.

Tests receive the cases through fixtures parametrised in ``pytest_generate_tests``
(so no test module needs to import this file):

``env_id``            every registered env id
``conformance_case``  (env_id, config) for every "conformance" config of ``GAMES``
``determinism_case``  (env_id, config) for every "determinism" config of ``GAMES``
``config_tables``     ``{kind: {env_id: cases}}`` for every kind of case
``random_config``     the env's config whose start position depends on the seed
``short_config``      the env's config whose games end naturally within a few dozen steps
``bot_names``         the scripted bots every game must offer

Parallel runs (``pytest -n N``, pytest-xdist): most of a cold run is numba compiling each
game's kernels (minutes for some games), and xdist's default ``load`` scheduling hands
neighbouring tests to different workers, so that every worker compiled every game at the
same time.  Each test of one game therefore carries ``xdist_group(<env id>)`` and, unless
``--dist`` is given, the run uses ``--dist loadgroup``: one worker runs all of a game's
tests and compiles its kernels once, the others meanwhile run other games.  A test's game
is the env id it is parametrized with, else the game of its file (``test_<game>_*.py``),
else the one env id named in the test's (or else its module's) source; tests of no single
game stay ungrouped and are handed out one by one after the games.  A game's kernels
compile once per observation dtype, so its tests of float32 observations (parametrized
with, or naming, ``"float32"``) form a group of their own (``<env id>:float32``), which
the other worker can run meanwhile.  xdist groups the tests by renaming their node ids,
which pytest 9.2 ignores (pytest-xdist issue 1386): the test extra keeps pytest below
9.2, and a worker whose tests lost their groups warns.

Slow tests (``@pytest.mark.slow``): the ones whose time goes to compiling what no other
test compiles (the threaded drivers, run at 1 and 2 numba threads) or to starting a
cluster.  The README's test command leaves them out (``-m "not slow"``); ``.ci/run`` runs
them after it (``python -m pytest -q -n 2 -m slow``).
"""
import inspect
import os
import re
import shlex
import tempfile
import warnings

import pytest

import botarena

# Each game's test cases, one entry per game (a new game adds its entry here, then its
# golden hashes: ``python tests/test_golden.py --regenerate <env_id>``):
# "conformance"  configs every conformance check runs on (keyword arguments of parallel_env)
# "determinism"  configs whose whole trajectories are compared for determinism and batch
#                equivalence (short games: the tests expect autoreset to cross several games)
# "random"       a config whose initial state depends on the seed (different seeds differ)
# "short"        a config whose games end naturally (not by max_steps) after a few steps
# "golden"       (config, seed) of the golden trajectories (test_golden.py)
# "viewer"       (players, config) of a short match whose scores change (test_viewer.py)
GAMES = {
    "paint_v0": {
        "conformance": [
            {},
            {"board": "5x11"},
            {"board": "random", "num_players": 4, "width": 9, "height": 7,
             "obstacle_density": 0.2, "symmetric": False},
            {"obs_dtype": "float32"},
            {"reward": "zero_sum"},
            {"max_steps": 30},
            {"view": "ego", "board": "7x13"},
        ],
        "determinism": [
            {},
            {"board": "random", "num_players": 4, "width": 9, "height": 7,
             "obstacle_density": 0.2, "symmetric": False, "view": "ego"},
        ],
        "random": {"board": "random", "num_players": 3, "width": 7, "height": 6,
                   "obstacle_density": 0.15, "symmetric": False},
        "short": {"board": "random", "num_players": 2, "width": 5, "height": 5,
                  "max_turns": 7},
        "golden": [
            ({}, 0),
            ({"board": "5x11"}, 1),
            ({"board": "random", "num_players": 4, "width": 9, "height": 7,
              "obstacle_density": 0.2, "symmetric": False}, 2),
            ({"obs_dtype": "float32", "reward": "zero_sum"}, 3),
            ({"reward": "win_loss", "max_steps": 30}, 4),
        ],
        "viewer": (["bot:greedy", "bot:random"], {"max_turns": 12}),
    },
    "dungeon_v0": {
        "conformance": [
            {},
            {"num_players": 4},
            {"board": "classic"},
            {"obs_dtype": "float32"},
            {"reward": "zero_sum", "num_players": 3},
            {"symmetric": True, "num_players": 3, "width": 13, "max_steps": 300},
        ],
        "determinism": [
            {"max_turns": 150},
            {"num_players": 4, "width": 9, "height": 9, "metal_blocks": 8,
             "wooden_blocks": 10, "ore_blocks": 3, "symmetric": True, "max_turns": 120},
        ],
        "random": {"num_players": 3},
        # no bomb can go off within 12 ticks (fuse 35): nobody dies, all end together
        "short": {"max_turns": 12},
        "golden": [
            ({}, 0),
            ({"board": "classic", "reward": "win_loss"}, 1),
            ({"num_players": 4, "obs_dtype": "float32", "reward": "zero_sum"}, 2),
            # short games with fast bombs: deaths, chains and autoresets within the 300 steps
            ({"width": 7, "height": 7, "metal_blocks": 4, "wooden_blocks": 6, "ore_blocks": 2,
              "bomb_fuse": 5, "max_turns": 60, "num_players": 3}, 3),
        ],
        # a short fuse: bombs go off (and score) within the game
        "viewer": (["bot:safe_bomber", "bot:aggressive"], {"max_turns": 16, "bomb_fuse": 3}),
    },
    "ants_v0": {
        "conformance": [
            {},
            {"board": "quad", "num_players": 4},
            {"obs_dtype": "float32"},
            {"reward": "zero_sum"},
            {"reward": "win_loss", "max_turns": 60},
            {"board": "random", "width": 12, "height": 10, "map_seed": 3, "max_steps": 40},
        ],
        # quad: neighbouring hills are 3 cells apart, so two colonies' only ants can trade on
        # turn 1; one food in store spares each colony that first loss (games still end early
        # by elimination, but not all within the 10 steps some tests play without a reset);
        # two in store on the default map (random play at seed 77 loses both of a colony's
        # first ants)
        "determinism": [
            {"max_turns": 40, "start_food": 2},
            {"board": "quad", "num_players": 4, "max_turns": 30, "start_food": 1},
        ],
        "random": {"board": "quad", "num_players": 3},
        # food in store: no colony runs out of ants (and is eliminated early) whatever is
        # played; a small 6 x 6 map (36 cells): the PPO smoke tests' MultiDiscrete of a
        # command per cell stays small (SB3 samples one Categorical per cell)
        "short": {"board": "random", "width": 6, "height": 6, "map_seed": 0, "max_turns": 12,
                  "start_food": 12},
        "golden": [
            # seed 3: the first case's first game must last >= 10 steps (with seed 0 a colony
            # is out after 9); its 300 steps cross three games
            ({}, 3),
            ({"board": "quad", "num_players": 4, "reward": "win_loss"}, 1),
            ({"obs_dtype": "float32", "reward": "zero_sum", "max_turns": 50}, 2),
            ({"board": "random", "width": 12, "height": 10, "map_seed": 3, "start_food": 2},
             4),
        ],
        # a 6 x 6 map: the raiders raze a hill within a dozen turns
        "viewer": (["bot:raider", "bot:raider"], {"board": "random", "width": 6, "height": 6,
                                                  "map_seed": 0, "max_turns": 30,
                                                  "start_food": 4}),
    },
    "coderunner_v0": {
        "conformance": [
            {},
            {"board": "random"},
            {"obs_dtype": "float32"},
            {"reward": "zero_sum", "mirror": True},
            {"max_steps": 30},
        ],
        "determinism": [
            {"max_turns": 120},
            {"board": "random", "max_turns": 100},
        ],
        "random": {"board": "random"},
        "short": {"max_turns": 20},
        "golden": [
            ({}, 0),
            ({"board": "random"}, 1),
            ({"obs_dtype": "float32", "reward": "zero_sum"}, 2),
        ],
        "viewer": (["bot:greedy", "bot:trapper"], {"max_turns": 12}),
    },
    "towers_v0": {
        # short games (a whole default game is 1000 turns)
        "conformance": [
            {"max_turns": 60},
            {"board": "random", "water": 0.2, "max_turns": 50},
            {"obs_dtype": "float32", "board": "islands", "max_turns": 50},
            {"reward": "zero_sum", "turn_score_weight": 0.01, "board": "lanes",
             "max_turns": 50},
            {"reward": "win_loss", "max_turns": 40},
            {"max_steps": 30},
        ],
        "determinism": [
            {"max_turns": 60},
            {"board": "random", "max_turns": 50, "map_size": 12, "flag_size": 2},
        ],
        "random": {"board": "random"},
        # a small map (64 tiles): the PPO smoke tests' MultiDiscrete of a command per tile
        "short": {"board": "random", "map_size": 8, "flag_size": 2, "max_turns": 12,
                  "num_bots_start": 4},
        "golden": [
            ({}, 0),
            ({"board": "random", "reward": "win_loss", "max_turns": 120}, 1),
            ({"obs_dtype": "float32", "reward": "zero_sum", "turn_score_weight": 0.01,
              "board": "islands"}, 2),
            ({"board": "random", "map_size": 10, "flag_size": 2, "max_turns": 70}, 3),
        ],
        "viewer": (["bot:greedy", "bot:random"], {"board": "random", "map_size": 8,
                                                  "flag_size": 2, "max_turns": 12,
                                                  "num_bots_start": 4}),
    },
}
CASE_KINDS = ("conformance", "determinism", "random", "short", "golden", "viewer")


def cases_of(kind):
    """``{env_id: GAMES[env_id][kind]}`` for the games that have that kind of case."""
    return {env_id: cases[kind] for env_id, cases in GAMES.items() if kind in cases}


CONFORMANCE_CONFIGS = cases_of("conformance")
DETERMINISM_CONFIGS = cases_of("determinism")
RANDOM_CONFIGS = cases_of("random")
SHORT_CONFIGS = cases_of("short")
GOLDEN_CASES = cases_of("golden")
VIEWER_MATCHES = cases_of("viewer")

# Scripted bots every game offers (``game.bots``), used as opponents.
BOT_NAMES = ("random", "greedy")


def config_id(config):
    if not config:
        return "default"
    return ",".join(f"{k}={v}" for k, v in sorted(config.items()))


def _cases(table):
    params = []
    for env_id in botarena.ENV_IDS:
        for config in table.get(env_id, ()):
            params.append(pytest.param((env_id, dict(config)), id=f"{env_id}[{config_id(config)}]"))
    return params


def _explicitly_parametrized(metafunc):
    names = set()
    for marker in metafunc.definition.iter_markers("parametrize"):
        argnames = marker.args[0] if marker.args else marker.kwargs.get("argnames", ())
        if isinstance(argnames, str):
            argnames = [n.strip() for n in argnames.split(",")]
        names.update(argnames)
    return names


def pytest_generate_tests(metafunc):
    # a test that parametrizes one of these names itself keeps its own values
    own = _explicitly_parametrized(metafunc)
    if "conformance_case" in metafunc.fixturenames and "conformance_case" not in own:
        metafunc.parametrize("conformance_case", _cases(CONFORMANCE_CONFIGS))
    if "determinism_case" in metafunc.fixturenames and "determinism_case" not in own:
        metafunc.parametrize("determinism_case", _cases(DETERMINISM_CONFIGS))
    if "env_id" in metafunc.fixturenames and "env_id" not in own:
        metafunc.parametrize("env_id", list(botarena.ENV_IDS))


@pytest.fixture(scope="session", autouse=True)
def temporary_files_in_pytest_folder(tmp_path_factory):
    """The temporary folders the library makes and keeps for the user (a match's and an
    opponent's bot logs) go under pytest's own temporary folder, which pytest prunes,
    instead of piling up in the system's."""
    saved = tempfile.tempdir
    tempfile.tempdir = str(tmp_path_factory.mktemp("tempfile"))
    yield
    tempfile.tempdir = saved


@pytest.fixture
def config_tables():
    return {kind: cases_of(kind) for kind in CASE_KINDS}


@pytest.fixture
def random_config(env_id):
    return dict(RANDOM_CONFIGS[env_id])


@pytest.fixture
def short_config(env_id):
    return dict(SHORT_CONFIGS[env_id])


@pytest.fixture
def bot_names():
    return BOT_NAMES


@pytest.fixture
def torch_one_thread():
    """torch on one thread for the test (the policies' tests: as the trainer runs them)."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


# -- xdist scheduling (see the module docstring) ----------------------------------------
GAME_FILE = re.compile(r"test_([a-z]+)_")
CASE_PARAMS = ("env_id", "conformance_case", "determinism_case")


def _named_env_ids(obj):
    try:
        source = inspect.getsource(obj)
    except (OSError, TypeError):
        return set()
    return {env_id for env_id in botarena.ENV_IDS if f'"{env_id}"' in source}


def game_of(item):
    """The env id whose kernels ``item`` runs, or None (several games, or none)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    for name in CASE_PARAMS:
        if name in params:
            value = params[name]
            return value if isinstance(value, str) else value[0]
    match = GAME_FILE.match(item.path.name)
    if match and f"{match.group(1)}_v0" in botarena.ENV_IDS:
        return f"{match.group(1)}_v0"
    for source in (getattr(item, "function", None), getattr(item, "module", None)):
        named = _named_env_ids(source)
        if named:
            return named.pop() if len(named) == 1 else None
    return None


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: compiles or starts what no other test does; "
                            "left out of the README's command, run by CI (see above)")
    # -n without --dist: xdist has just set "load"; group the tests by game instead
    args = [*config.invocation_params.args, *config.getini("addopts"),
            *shlex.split(os.environ.get("PYTEST_ADDOPTS", ""))]
    if getattr(config.option, "dist", "no") == "load" and not any(
            arg == "-d" or arg.startswith("--dist") for arg in args):
        config.option.dist = "loadgroup"
    # a worker parses the command line again: it learns the choice from its workerinput
    if getattr(config, "workerinput", {}).get("loadgroup"):
        config.option.loadgroup = True


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown without xdist
def pytest_configure_node(node):
    """(xdist, on the controller) tell each worker whether the tests are grouped."""
    node.workerinput["loadgroup"] = node.config.option.dist == "loadgroup"


def group_of(item):
    """``item``'s xdist group: its game (``game_of``), apart for float32 observations."""
    env_id = game_of(item)
    if env_id is None:
        return None
    params = getattr(getattr(item, "callspec", None), "params", {})
    try:
        source = inspect.getsource(getattr(item, "function", None))
    except (OSError, TypeError):
        source = ""
    float32 = "float32" in repr(params) or '"float32"' in source
    return f"{env_id}:float32" if float32 else env_id


@pytest.hookimpl(tryfirst=True)  # before xdist's hook reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            group = group_of(item)
            if group is not None:
                item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(trylast=True)  # after xdist's hook has put each group into the node ids
def pytest_collection_finish(session):
    """Warn when a worker's tests carry their groups but xdist did not group them: it
    does so by renaming the node ids, which pytest 9.2 no longer allows (pytest-xdist
    issue 1386; the test extra keeps pytest below 9.2): the suite then runs, compiling
    every game on both workers, minutes slower."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [item.nodeid for item in session.items
            if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        warnings.warn(pytest.PytestWarning(
            f"xdist did not group {len(lost)} tests (e.g. {lost[0]}) under pytest "
            f"{pytest.__version__}: install pytest<9.2 (pytest-xdist issue 1386)"))
