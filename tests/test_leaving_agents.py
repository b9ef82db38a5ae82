"""Agents that leave a game before it ends (a dungeon player killed), in every front-end.

The scenario: on ``0..1.2`` with 1 HP and a 2-tick fuse, player 1 bombs its cell and walks
away; the fire hits player 2 (two cells away) during tick 2, while players 0 and 1 play on.
"""
import numpy as np
import pytest

import botarena
from botarena.core.rewards import REWARD_MODES, finish_step

BOARD = "0..1.2\n......"
SCENARIO = dict(board=BOARD, player_hp=1, bomb_fuse=2, treasure_min=10_000,
                treasure_max=10_000, max_turns=6)
PLAYER_1_MOVES = [5, 2, 3]  # p (bomb), d, l: the fire hits player 2 on the third tick


def test_finish_step_after_leaving_gives_zero_and_stays_terminated():
    rewards, terminated, truncated = np.zeros(3), np.zeros(3, bool), np.zeros(3, bool)
    alive = np.array([True, True, False])
    prev_alive = np.array([True, True, False])  # player 2 left on an earlier step
    scores, prev_scores = np.array([5, 3, 9]), np.array([1, 3, 2])
    done = finish_step(REWARD_MODES["score"], 0, 10, False, alive, prev_alive, scores,
                       prev_scores, scores.astype(float), rewards, terminated, truncated)
    assert not done
    assert rewards.tolist() == [4.0, 0.0, 0.0]
    assert terminated.tolist() == [False, False, True] and not truncated.any()
    assert prev_scores.tolist() == [5, 3, 9]


def test_finish_step_win_loss_pays_minus_one_on_leaving_while_others_play_on():
    rewards, terminated, truncated = np.zeros(3), np.zeros(3, bool), np.zeros(3, bool)
    alive, prev_alive = np.array([True, True, False]), np.array([True, True, True])
    scores = np.array([0, 0, 50])
    finish_step(REWARD_MODES["win_loss"], 0, 3, False, alive, prev_alive, scores,
                scores.copy(), scores.astype(float), rewards, terminated, truncated)
    assert rewards.tolist() == [0.0, 0.0, -1.0]
    assert terminated.tolist() == [False, False, True]
    assert prev_alive.tolist() == [True, True, False]


def test_parallel_env_drops_the_agent_that_leaves():
    env = botarena.parallel_env("dungeon_v0", reward="win_loss", **SCENARIO)
    env.reset(seed=0)
    for t, move in enumerate(PLAYER_1_MOVES):
        obs, rewards, terms, truncs, infos = env.step({"player_0": 0, "player_1": move, "player_2": 0})
    assert terms == {"player_0": False, "player_1": False, "player_2": True}
    assert rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}
    assert env.agents == ["player_0", "player_1"]
    obs, rewards, terms, truncs, infos = env.step({"player_0": 0, "player_1": 0})
    assert set(rewards) == {"player_0", "player_1"}
    while env.agents:
        obs, rewards, terms, truncs, infos = env.step({a: 0 for a in env.agents})
    # at the time limit the survivors rank by score: player 1 has the +25 of its hit
    assert rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.snapshot()["alive"].tolist() == [True, True, False]


@pytest.mark.parametrize("reward", ["score", "win_loss"])
def test_vector_env_all_learners_black_death(reward):
    venv = botarena.vector_env("dungeon_v0", 1, reward=reward, seed=0, **SCENARIO)
    venv.reset()
    log = []
    for move in PLAYER_1_MOVES:
        obs, rewards, dones, infos = venv.step(np.array([0, move, 0]))
        log.append((rewards.copy(), dones.copy()))
    rewards, dones = log[-1]
    assert not dones.any()                      # the game goes on: no slot's episode ends
    assert rewards[2] == (-1.0 if reward == "win_loss" else 0.0)
    if reward == "score":
        assert rewards[1] == 25.0               # player 1's bomb hit player 2
    for t in range(3, 6):                       # player 2's slot: zero until the game ends
        obs, rewards, dones, infos = venv.step(np.array([0, 0, 3]))
        assert rewards[2] == 0.0
        assert dones.tolist() == ([True] * 3 if t == 5 else [False] * 3)
    assert [infos[i]["outcome"] for i in range(3)] == [-1, 1, -1]
    assert [infos[i]["score"] for i in range(3)] == [0, 25, 0]
    assert venv.game.snapshot(0)["tick"] == 0   # auto-reset


def test_vector_env_learner_out_ends_its_episode_and_restarts_the_game():
    moves = iter(PLAYER_1_MOVES)

    def opponents(obs, masks):                  # players 0 and 1 of env 0
        return np.array([0, next(moves)])

    venv = botarena.vector_env("dungeon_v0", 1, opponent=opponents, learner_seat=2,
                               reward="win_loss", seed=0, **SCENARIO)
    venv.reset()
    for t in range(3):
        obs, rewards, dones, infos = venv.step(np.array([0]))
        assert dones.tolist() == [t == 2]
    assert rewards.tolist() == [-1.0]
    assert infos[0]["outcome"] == -1 and infos[0]["TimeLimit.truncated"] is False
    terminal = infos[0]["terminal_observation"]
    assert terminal.shape == obs.shape[1:]
    snap = venv.game.snapshot(0)
    assert snap["tick"] == 0 and snap["alive"].all()   # a new game started at once
    assert np.array_equal(obs[0], venv.game.obs[0, 2])
