"""coderunner_v0 scripted bots beyond the shared checks in test_coderunner_env: the
``racer``'s decisions on small boards (format in ``test_coderunner_rules``), legal and
deterministic output, and a match against ``random``."""
import numpy as np
import pytest

from botarena.envs.coderunner.constants import DIG_RIGHT, LEFT, NONE, RIGHT
from botarena.envs.coderunner_v0 import CodeRunnerGame, Config

from test_coderunner_rules import play, scenario, view


def act(game, bot, a=0):
    out = np.zeros(1, dtype=np.int64)
    game.bots[bot](game.state, game.params, np.array([0]), np.array([a]), out)
    return int(out[0])


def test_racer_digs_a_pit_under_the_opponents_next_step():
    # blue (greedy) walks left to the gold past red: red digs the brick under the cell
    # blue steps onto; blue falls in, cannot climb out, and dies when it is restored
    g = scenario(["*..R.B",
                  "======"])
    assert act(g, "greedy", 1) == LEFT
    assert act(g, "racer") == DIG_RIGHT
    play(g, (DIG_RIGHT, LEFT))
    assert view(g) == ["*..rb.",
                       "====-="]
    play(g, (NONE, LEFT))                  # falling overrides blue's command
    assert view(g) == ["*..r..",
                       "====b="]
    for _ in range(g.config.brick_restore - 2):
        play(g, (NONE, NONE))
    snap = play(g, (NONE, NONE))
    assert not snap["runner_alive"][1]
    # red: its start cell and the kill; blue: three cells
    assert list(snap["scores"]) == [1 + g.config.opponent_kill_points, 3]


def test_racer_digs_no_trap_the_opponent_could_fall_through():
    # the same, but the dug cell has no floor: a fall, not a trap; red runs for its gold
    g = scenario(["*..R.B",
                  "======",
                  "......"])
    assert act(g, "racer") == LEFT


def test_racer_leaves_the_opponent_the_gold_it_reaches_first():
    # the nearest gold is blue's (1 step for blue, 3 for red): greedy runs for it, the
    # racer takes the far one it reaches before blue
    g = scenario(["*....R.B*",
                  "========="])
    assert act(g, "greedy") == RIGHT
    assert act(g, "racer") == LEFT


def test_racer_keeps_out_of_a_pit():
    # once red has its gold, the only cells it never stood on are a drop into a pit with
    # no way back to a gold cell: the racer stays by its gold (back in 150 turns)
    g = scenario(["*R.=B",
                  "==.==",
                  "=...=",
                  "====="])
    assert act(g, "racer") == LEFT
    play(g, LEFT)
    for _ in range(20):
        a = act(g, "racer")
        play(g, a)
        assert view(g)[0].index("r") <= 1


@pytest.mark.parametrize("mirror", [False, True])
def test_racer_plays_legal_actions(mirror):
    game = CodeRunnerGame(Config(board="random", mirror=mirror), 4)
    game.reset(0)
    env_ids, agents = np.repeat(np.arange(4), 2), np.tile([0, 1], 4)
    out = np.zeros(8, dtype=np.int64)
    for _ in range(150):
        game.bots["racer"](game.state, game.params, env_ids, agents, out)
        assert game.masks[env_ids, agents, out].all()
        game.actions[env_ids, agents] = out
        game.step(autoreset=True)


def match(seed, bots=("racer", "random"), games=16, **config):
    """Final scores [games, 2] of ``bots[0]`` in seat ``e % 2`` of env e against
    ``bots[1]`` (columns: the first bot, the second), and the actions played."""
    game = CodeRunnerGame(Config(**config), games)
    game.reset(seed)
    env_ids = np.arange(games)
    seat = env_ids % 2
    out = np.zeros(games, dtype=np.int64)
    played = []
    while not game.state.over.all():
        for bot, agents in zip(bots, (seat, 1 - seat)):
            game.bots[bot](game.state, game.params, env_ids, agents, out)
            game.actions[env_ids, agents] = out
        played.append(game.actions.copy())
        game.step()
    scores = game.state.scores
    return np.stack([scores[env_ids, seat], scores[env_ids, 1 - seat]], axis=1), played


def test_racer_is_deterministic_per_seed():
    a, acts_a = match(5, games=4, max_turns=120)
    b, acts_b = match(5, games=4, max_turns=120)
    c, acts_c = match(6, games=4, max_turns=120)
    assert np.array_equal(a, b) and np.array_equal(acts_a, acts_b)
    assert not np.array_equal(acts_a, acts_c)     # random's moves differ


def test_racer_beats_random_and_greedy():
    scores, _ = match(0, max_turns=300)
    assert (scores[:, 0] > scores[:, 1]).sum() >= 15
    scores, _ = match(0, bots=("racer", "greedy"), max_turns=300)
    assert (scores[:, 0] > scores[:, 1]).sum() >= 12
