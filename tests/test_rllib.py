"""RLlib (issue 24): every game as an RLlib multi-agent env, one game or a batch of them in
one core (the batch plays the same games as separate envs), agents leaving, the masks
reaching the RLModule, and the trainer on a real two-node Ray cluster: env runners on
both nodes, finite losses, a win-rate metric, a checkpoint that loads back and plays
legal actions, and the evaluation."""
import io
import json
import math

import numpy as np
import pytest
import ray
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.utils.pre_checks.env import check_multiagent_environments
from ray.tune.registry import ENV_CREATOR, _global_registry

import botarena
import botarena.arena
import botarena.rllib
from botarena.rllib import (ALL_AGENTS, LEARNER, MASK_KEY, OBS_KEY, BatchedVectorEnv,
                            CellsCategorical, GameEnv, module_spec)
from botarena.training import rllib as trainer
from conftest import SHORT_CONFIGS

NUM_ENVS = 3
STEPS = 60
SEED = 5


def legal_actions(obs, action_space, rng):
    """A random legal action per agent, drawn from its mask."""
    actions = {}
    for agent, o in obs.items():
        space, mask = action_space[agent], o[MASK_KEY].astype(bool)
        if hasattr(space, "nvec"):
            rows = mask.reshape(len(space.nvec), -1)
            actions[agent] = np.array([rng.choice(np.flatnonzero(row)) for row in rows])
        else:
            actions[agent] = int(rng.choice(np.flatnonzero(mask)))
    return actions


def assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], dict):
            assert_same(a[key], b[key])
        else:
            np.testing.assert_array_equal(a[key], b[key])


def test_every_game_is_registered_with_ray():
    botarena.rllib.register_envs()
    for env_id, name in botarena.rllib.RLLIB_IDS.items():
        make = _global_registry.get(ENV_CREATOR, name)
        env = make({"opponent": "random", **SHORT_CONFIGS[env_id]})
        assert isinstance(env, GameEnv) and env.env_id == env_id


@pytest.mark.parametrize("opponent", [None, "bot:random,self"])
def test_rllib_checks_every_game(env_id, opponent):
    env = GameEnv(env_id, opponent=opponent, **SHORT_CONFIGS[env_id])
    check_multiagent_environments(env)
    obs, infos = env.reset(seed=0)
    for agent, o in obs.items():
        assert env.observation_spaces[agent].contains(o)
        assert infos[agent]["seat"] in range(env.game.num_agents)


@pytest.mark.parametrize("value", [-1, 2 ** 40 + 1])
def test_an_action_out_of_range_is_refused_before_the_game_changes(env_id, value):
    """2 ** 40 + 1 would land in the game's int8 action buffer as 1: checked first."""
    env = GameEnv(env_id, **SHORT_CONFIGS[env_id])
    obs, _ = env.reset(seed=0)
    before = [field.copy() for field in env.game.state]
    shape = env.game.action_shape()
    actions = {agent: np.zeros(shape, dtype=np.int64) for agent in obs}
    actions[next(iter(obs))] = np.full(shape, value, dtype=np.int64)
    with pytest.raises(ValueError, match="outside"):
        env.step(actions)
    assert all(np.array_equal(a, b) for a, b in zip(before, env.game.state))


def test_the_batch_plays_the_games_of_separate_envs(env_id):
    """Env ``e`` of a batch seeded ``s`` and a ``GameEnv`` seeded ``s + e`` play the same
    games, opponents and seats, under RLlib's next-step autoreset."""
    config = SHORT_CONFIGS[env_id]
    batch = BatchedVectorEnv(env_id, NUM_ENVS, opponent="random,greedy,self", **config)
    singles = [GameEnv(env_id, opponent="random,greedy,self", **config) for _ in range(NUM_ENVS)]
    obs, infos = batch.reset(seed=SEED)
    for e, env in enumerate(singles):
        single_obs, single_infos = env.reset(seed=SEED + e)
        assert_same(obs[e], single_obs)
        assert infos[e] == single_infos
    rng = np.random.default_rng(0)
    restarting = [False] * NUM_ENVS
    episodes = 0
    for _ in range(STEPS):
        actions = [{} if restarting[e] else legal_actions(obs[e], batch.single_action_spaces, rng)
                   for e in range(NUM_ENVS)]
        obs, rewards, terminateds, truncateds, infos = batch.step(actions)
        for e, env in enumerate(singles):
            if restarting[e]:
                single_obs, single_infos = env.reset()
                assert_same(obs[e], single_obs)
                assert infos[e] == single_infos and not terminateds[e][ALL_AGENTS]
                continue
            single = env.step(actions[e])
            assert_same(obs[e], single[0])
            assert (rewards[e], terminateds[e], truncateds[e], infos[e]) == single[1:]
        restarting = [terminateds[e][ALL_AGENTS] or truncateds[e][ALL_AGENTS]
                      for e in range(NUM_ENVS)]
        for e in np.flatnonzero(restarting):
            episodes += 1
            assert infos[e][LEARNER]["outcome"] in (-1, 0, 1)
            assert infos[e][LEARNER]["opponent"] in ("random", "greedy", "self")
    assert episodes >= NUM_ENVS


class Scenario:
    """tests/test_leaving_agents.py's dungeon: player 1 bombs and walks away, player 2
    (one HP) dies on the third tick, players 0 and 1 play on to the sixth."""
    config = dict(board="0..1.2\n......", player_hp=1, bomb_fuse=2, treasure_min=10_000,
                  treasure_max=10_000, max_turns=6)
    moves = [5, 2, 3]

    def act(self, game, env_ids, agent_ids, out):
        for i, (e, a) in enumerate(zip(env_ids, agent_ids)):
            tick = int(game.state.tick[e])
            out[i] = self.moves[tick] if a == 1 and tick < len(self.moves) else 0


def test_a_player_killed_leaves_and_the_game_goes_on():
    env = GameEnv("dungeon_v0", **Scenario.config)
    env.reset(seed=0)
    script = Scenario()
    for tick in range(6):
        actions = np.zeros(3, dtype=np.int64)
        script.act(env.game, np.zeros(3, dtype=np.int64), np.arange(3), actions)
        obs, rewards, terminateds, truncateds, infos = env.step(
            {agent: actions[seat] for seat, agent in enumerate(env.game.possible_agents)
             if agent in env.agents})
        if tick == 2:
            assert terminateds["player_2"] and not terminateds[ALL_AGENTS]
            assert infos["player_2"]["outcome"] == -1
            assert env.agents == ["player_0", "player_1"]
    assert terminateds[ALL_AGENTS] and set(obs) == {"player_0", "player_1"}


def test_the_learner_killed_ends_its_episode_and_the_batch_restarts_that_game():
    batch = BatchedVectorEnv("dungeon_v0", 2, opponent=[Scenario()], learner_seat=2,
                             **Scenario.config)
    batch.reset(seed=0)
    for tick in range(3):
        obs, rewards, terminateds, truncateds, infos = batch.step([{LEARNER: 0}] * 2)
    for e in range(2):
        assert terminateds[e] == {LEARNER: True, ALL_AGENTS: True}
        assert infos[e][LEARNER]["outcome"] == -1
    obs, rewards, terminateds, truncateds, infos = batch.step([{}, {}])
    assert batch.game.state.tick.tolist() == [0, 0]          # new games, not played yet
    assert all(set(o) == {LEARNER} for o in obs) and rewards == [{}, {}]


def test_the_module_masks_illegal_actions(env_id):
    """Sampled from the masked logits of an untrained module, every action is legal."""
    batch = BatchedVectorEnv(env_id, NUM_ENVS, opponent="random", **SHORT_CONFIGS[env_id])
    obs, _ = batch.reset(seed=SEED)
    spec = module_spec()
    spec.observation_space = batch.single_observation_spaces[LEARNER]
    spec.action_space = batch.single_action_spaces[LEARNER]
    module = spec.build()
    masks = np.stack([o[LEARNER][MASK_KEY] for o in obs])
    planes = np.stack([o[LEARNER][OBS_KEY] for o in obs])
    batch_in = {Columns.OBS: {OBS_KEY: torch.as_tensor(planes), MASK_KEY: torch.as_tensor(masks)}}
    logits = module.forward_exploration(batch_in)[Columns.ACTION_DIST_INPUTS]
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    for _ in range(20):
        assert_legal(dist.sample().numpy(), masks, batch.game)
    values = module.compute_values(batch_in)
    assert values.shape == (NUM_ENVS,) and torch.isfinite(values).all()


def assert_legal(actions, masks, game):
    values = game.action_values()
    flat = np.asarray(actions).reshape(len(masks), -1)
    picked = np.arange(flat.shape[1]) * values + flat if game.action_shape() else flat
    assert np.take_along_axis(masks, picked, axis=1).all()


@pytest.fixture(scope="module")
def two_node_cluster():
    from ray.cluster_utils import Cluster
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()


@pytest.mark.slow
def test_training_on_a_two_node_cluster(two_node_cluster, tmp_path):
    """A short run: one env runner on each node, two iterations against a bot and a
    league snapshot, finite losses, the win rate logged, the checkpoint loaded back for
    the evaluation and for legal play."""
    out = tmp_path / "run"
    results = trainer.main([
        "--env", "paint_v0", "--address", two_node_cluster.address, "--iterations", "2",
        "--num-env-runners", "2", "--envs-per-runner", "2", "--fragment", "50",
        "--opponent", "random,self", "--league-every", "1", "--eval-games", "4",
        "--hidden", "16", "--config", "max_turns=20", "--out", str(out)])
    nodes = {node.node_id for node in two_node_cluster.list_all_nodes()}
    assert len(nodes) == 2 and set(results["env_runner_nodes"]) == nodes
    assert results["iterations"] == 2 and results["env_steps"] >= 2 * 2 * 2 * 50
    last = results["history"][-1]
    assert last["losses"] and all(math.isfinite(v) for v in last["losses"].values())
    assert set(last["win_rate"]) <= {"random", "self"} and last["win_rate"]
    assert results["league"] == ["snapshot_0", "snapshot_1", "snapshot_2"]
    assert {k: r["games"] for k, r in results["eval"].items()} == {"random": 4, "greedy": 4}
    assert json.loads((out / "results.json").read_text())["env_runner_nodes"] == \
        results["env_runner_nodes"]
    policy = botarena.rllib.load_policy(out / "checkpoint")
    game = botarena.game("paint_v0", num_envs=8, view="ego")
    game.reset(seed=1)
    for _ in range(10):
        actions = np.stack([policy(game.obs[:, a], game.masks[:, a]) for a in range(2)], axis=1)
        for a in range(2):
            assert_legal(actions[:, a], game.masks[:, a], game)
        game.step(actions)
    # the checkpoint as a player of the arena (the trained view comes from results.json)
    spec = f"rllib:{out / 'checkpoint'}"
    match = botarena.arena.play("paint_v0", [spec, "bot:random"], seed=3,
                                config={"max_turns": 20}, err=io.StringIO())
    assert match["turns"] == 20 and match["seats"][0]["warnings"] == 0
    assert match["seats"][0]["moves"] == 20
    vec = botarena.vector_env("paint_v0", 2, opponent=spec, seed=0, view="ego", max_turns=20)
    vec.reset()
    vec.step(np.zeros(vec.num_envs, dtype=np.int64))
    vec.close()
    with pytest.raises(ValueError, match="checkpoint folder"):
        botarena.arena.play("paint_v0", [f"rllib:{tmp_path / 'nothing'}", "bot:random"])


def test_cells_categorical_is_one_categorical_per_cell():
    cells, values = 4, 3
    logits = torch.randn(2, cells * values)
    dist = CellsCategorical.get_partial_dist_cls(values=values).from_logits(logits)
    actions = dist.sample()
    assert actions.shape == (2, cells)
    per_cell = torch.log_softmax(logits.reshape(2, cells, values), dim=-1)
    expected = per_cell.gather(-1, actions[..., None]).squeeze(-1).sum(-1)
    torch.testing.assert_close(dist.logp(actions), expected)
    torch.testing.assert_close(dist.entropy(), -(per_cell.exp() * per_cell).sum((-1, -2)))
    assert torch.allclose(dist.kl(dist), torch.zeros(2), atol=1e-6)
    best = dist.to_deterministic().sample()
    assert torch.equal(best, logits.reshape(2, cells, values).argmax(-1))


def test_the_trainer_reads_its_opponents_and_refuses_bad_arguments():
    assert trainer.opponent_names("paint_v0", "bot:greedy, self,random") == \
        ["greedy", "self", "random"]
    with pytest.raises(SystemExit, match="unknown opponent 'champion'"):
        trainer.opponent_names("paint_v0", "greedy,champion")
    with pytest.raises(SystemExit):
        trainer.parse_args(["--league-every", "0"])
    args = trainer.parse_args(["--env", "dungeon_v0"])
    assert args.minutes == trainer.DEFAULT_MINUTES and args.out.endswith("dungeon_v0")


def test_the_league_mapping_gives_each_episode_one_snapshot():
    class Episode:
        def __init__(self, id_):
            self.id_ = id_

    mapping = trainer.LeagueMapping(["snapshot_0", "snapshot_1", "snapshot_2"])
    picks = {mapping("opponent_1", Episode(str(k))) for k in range(30)}
    assert picks == {"snapshot_0", "snapshot_1", "snapshot_2"}
    episode = Episode("same")
    assert mapping("opponent_1", episode) == mapping("opponent_2", episode)
    assert mapping(LEARNER, episode) == LEARNER
    with pytest.raises(RuntimeError, match="league"):
        trainer.LeagueMapping([])("opponent_1", episode)


def test_against_self_the_learner_killed_ends_the_episode_for_every_agent():
    env = GameEnv("dungeon_v0", opponent="self", learner_seat=2, **Scenario.config)
    env.reset(seed=0)
    assert env.agents == [LEARNER, "opponent_1", "opponent_2"]
    for move in Scenario.moves:            # opponent_2 sits in seat 1, the bomber's
        obs, rewards, terminateds, truncateds, infos = env.step(
            {LEARNER: 0, "opponent_1": 0, "opponent_2": move})
    assert all(terminateds.values()) and not any(truncateds.values())
    assert infos[LEARNER]["outcome"] == -1 and env.agents == []
