"""botarena games as RLlib multi-agent envs (new API stack), one game or a batch.

``GameEnv(env_id, opponent=None, learner_seat=None, **config)``: one game as an RLlib
``MultiAgentEnv`` (a batched core of one env).

- Observations are dicts ``{"observations": planes, "action_mask": int8 mask}`` (1 =
  legal; the keys of RLlib's own action-masking example), so the mask reaches the
  RLModule with every observation.  Actions are the game's (``Discrete`` or, for a
  command per cell, ``MultiDiscrete``).
- ``opponent=None``: every seat is an agent, named as the game names it
  (``player_0``, ``player_1``, ...); the ``policy_mapping_fn`` decides who plays them.
- ``opponent`` a list (or a comma-separated string) of bot specs (``"bot:greedy"`` or
  ``"greedy"``, a policy, an object with ``act``: see ``wrappers.opponents``) and
  ``"self"``: each episode draws one of them and a seat for the learner (or takes
  ``learner_seat``).  The learner's seat is the agent ``"learner"``; against a bot the
  bot plays the other seats inside the env (they are no agents); against ``"self"`` the
  other seats are the agents ``"opponent_1"``, ``"opponent_2"``, ... for the mapping to
  give to frozen snapshots.  ``infos[agent]["seat"]`` names the seat, and
  ``infos["learner"]["opponent"]`` (at the reset and at the end) the opponent drawn.
- An agent out of the game (a dungeon player killed, an ants colony eliminated) is
  terminated and leaves the episode; the episode ends with the game, and with
  ``opponent`` also when the learner is out (the other agents are terminated with it).  The last infos hold ``score`` and ``outcome`` (+1 win,
  0 draw, -1 loss against the best other seat; -1 for an agent that left early).  The
  last observation's mask allows every action (no action follows it).

``BatchedVectorEnv(env_id, num_envs, ...)``: ``num_envs`` such games in one batched core,
as RLlib's ``VectorMultiAgentEnv`` (its ``envs`` are ``GameEnv`` views of the batch's
games): one kernel call steps them all and each bot plays its seats of every game in one
call.  RLlib's multi-agent env runner builds its vector env itself, of separate env
copies; ``BatchedEnvRunner`` is that runner building this one instead
(``config.env_runners(env_runner_cls=BatchedEnvRunner)``).  It keeps RLlib's next-step
autoreset: a game that ends returns its last observation, and its next game's first
observation comes with the next ``step`` call, which does not play that game.
"""
import gymnasium
import numpy as np
from ray.rllib.callbacks.utils import make_callback
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv

from ..registry import ENV_IDS, env_module
from ..wrappers.opponents import make_opponent
from ..wrappers.slots import outcomes

OBS_KEY = "observations"
MASK_KEY = "action_mask"
LEARNER = "learner"
OPPONENT_PREFIX = "opponent_"
SELF = "self"
ALL_AGENTS = "__all__"      # the episode-wide key of terminateds and truncateds


def parse_opponents(opponent):
    """``opponent`` as a list: a comma-separated string split, a list kept, None kept."""
    if opponent is None:
        return None
    specs = [s.strip() for s in opponent.split(",")] if isinstance(opponent, str) \
        else list(opponent)
    if not specs or any(s == "" for s in specs):
        raise ValueError(f"opponent must name at least one opponent, got {opponent!r}")
    return specs


def make_opponents(opponent, game):
    """``[(label, opponent or None for "self")]`` of an ``opponent`` spec (None: None)."""
    specs = parse_opponents(opponent)
    if specs is None:
        return None
    return [(spec if isinstance(spec, str) else repr(spec),
             None if spec == SELF else make_opponent(spec, game)) for spec in specs]


def make_game(env_id, num_envs, config):
    module = env_module(env_id)
    return module.Game(module.Config(**config), num_envs)


class GameEnv(MultiAgentEnv):
    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(self, env_id, opponent=None, learner_seat=None, render_mode=None, **config):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} "
                             f"or None, got {render_mode!r}")
        game = make_game(env_id, 1, config)
        self._view_of(env_id, game, 0, make_opponents(opponent, game), learner_seat)
        self.render_mode = render_mode

    @classmethod
    def view(cls, env_id, game, index, opponents, learner_seat=None):
        """A ``GameEnv`` playing env ``index`` of the batched ``game`` (``BatchedVectorEnv``
        steps the batch; this view only starts and reads its episodes)."""
        env = cls.__new__(cls)
        MultiAgentEnv.__init__(env)
        env._view_of(env_id, game, index, opponents, learner_seat)
        env.render_mode = None
        return env

    def _view_of(self, env_id, game, index, opponents, learner_seat):
        seats = game.num_agents
        if learner_seat is not None and (isinstance(learner_seat, bool)
                                         or learner_seat not in range(seats)):
            raise ValueError(f"learner_seat must be an int in [0, {seats}), got {learner_seat!r}")
        self.env_id, self.game, self.index = env_id, game, index
        self.learner_seat = learner_seat
        self.opponents = opponents
        if opponents is None:
            self.possible_agents = list(game.possible_agents)
        else:
            self.possible_agents = [LEARNER] + [f"{OPPONENT_PREFIX}{k}" for k in range(1, seats)]
        agent_space = gymnasium.spaces.Dict({
            OBS_KEY: game.observation_space,
            MASK_KEY: gymnasium.spaces.Box(0, 1, (game.num_actions(),), np.int8)})
        self.observation_spaces = {agent: agent_space for agent in self.possible_agents}
        self.action_spaces = {agent: game.action_space for agent in self.possible_agents}
        self.agents = []
        self._seat = {}            # agent -> seat, this episode
        self.bot = None            # the opponent playing inside the env, this episode
        self.bot_seats = ()        # the seats it plays
        self._label = None         # the opponent drawn for this episode
        self.learner_out = False   # with opponents: the learner left a game that goes on
        self.game_restarted = False  # the game ended and the kernel started the next one

    # -- one game -------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Start an episode: a new game, or without a seed the one the kernel already
        started when the last game ended (so a ``GameEnv`` plays the games that env
        ``e`` of a ``BatchedVectorEnv`` seeded ``seed - e`` plays)."""
        super().reset(seed=seed)
        if seed is not None or not self.game_restarted:
            self.game.reset(seed, env_ids=[self.index])
        return self.start_episode()

    def step(self, action_dict):
        game = self.game
        self.write_actions(action_dict)
        if self.bot is not None:
            seats = np.array(self.bot_seats, dtype=np.int64)
            actions = np.zeros((len(seats),) + game.action_shape(), dtype=np.int64)
            self.bot.act(game, np.full(len(seats), self.index), seats, actions)
            game.write_actions((self.index, seats), actions)
        game.step(autoreset=True)      # an ended game restarts at once
        return self.collect()

    # -- the parts of a step, also driven by BatchedVectorEnv ----------------------------
    def start_episode(self):
        """Draw this episode's opponent and seats (the game has just started); the reset's
        observations and infos."""
        seats = list(range(self.game.num_agents))
        self.bot, self.bot_seats, self._label = None, (), None
        self.learner_out = self.game_restarted = False
        if self.opponents is None:
            self._seat = dict(zip(self.possible_agents, seats))
        else:
            self._label, opponent = self.opponents[self.np_random.integers(len(self.opponents))]
            seat = self.learner_seat if self.learner_seat is not None \
                else int(self.np_random.integers(len(seats)))
            others = tuple(s for s in seats if s != seat)
            self._seat = {LEARNER: seat}
            if opponent is None:
                self._seat.update(zip(self.possible_agents[1:], others))
            else:
                self.bot, self.bot_seats = opponent, others
        self.agents = list(self._seat)
        return ({agent: self._observe(seat) for agent, seat in self._seat.items()},
                {agent: self._info(agent) for agent in self._seat})

    def write_actions(self, action_dict):
        """Put the agents' actions into the batch's action buffer (checked: ``ValueError``
        or ``TypeError`` for an action that is not one)."""
        for agent, action in action_dict.items():
            if agent not in self.agents:
                raise ValueError(f"{agent!r} is not playing (agents: {self.agents})")
            self.game.write_actions((self.index, self._seat[agent]), action)

    def collect(self):
        """``(obs, rewards, terminateds, truncateds, infos)`` of the step just played."""
        game, e = self.game, self.index
        ended = self.game_restarted = bool(game.terminated[e].all() or game.truncated[e].all())
        self.learner_out = (self.opponents is not None and not ended
                            and bool(game.terminated[e, self._seat[LEARNER]]))
        obs, rewards, terminateds, truncateds, infos = {}, {}, {}, {}, {}
        for agent in self.agents:
            seat = self._seat[agent]
            obs[agent] = self._final_observation(seat) if ended else self._observe(seat)
            rewards[agent] = float(game.rewards[e, seat])
            truncateds[agent] = bool(game.truncated[e, seat]) and not self.learner_out
            terminateds[agent] = bool(game.terminated[e, seat]) or self.learner_out
            if ended:
                outcome = outcomes(game.final_rank_keys[e:e + 1], np.array([seat]))[0]
                infos[agent] = self._info(agent, score=int(game.final_scores[e, seat]),
                                          outcome=int(outcome))
            elif terminateds[agent]:
                infos[agent] = self._info(agent, score=int(game.scores[e, seat]), outcome=-1)
        self.agents = [a for a in self.agents if not (terminateds[a] or truncateds[a])]
        truncated = any(truncateds.values())
        terminateds[ALL_AGENTS] = (ended or self.learner_out) and not truncated
        truncateds[ALL_AGENTS] = ended and truncated
        return obs, rewards, terminateds, truncateds, infos

    def _info(self, agent, **extra):
        info = {"seat": self._seat[agent], **extra}
        if agent == LEARNER and self._label is not None:
            info["opponent"] = self._label
        return info

    def _observe(self, seat):
        return {OBS_KEY: self.game.obs[self.index, seat].copy(),
                MASK_KEY: self.game.masks[self.index, seat].copy()}

    def _final_observation(self, seat):
        return {OBS_KEY: self.game.final_obs[self.index, seat].copy(),
                MASK_KEY: np.ones(self.game.num_actions(), dtype=np.int8)}

    def render(self):
        if self.render_mode == "ansi":
            return self.game.render_ansi(self.index)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.index)
        return None


class BatchedVectorEnv(VectorMultiAgentEnv):
    """``num_envs`` games of ``env_id`` in one batched core, as RLlib's vector env (see the
    module docstring); ``opponent``, ``learner_seat`` and ``config`` as ``GameEnv``'s."""

    metadata = {"autoreset_mode": "next_step"}

    def __init__(self, env_id, num_envs, opponent=None, learner_seat=None, **config):
        self.game = game = make_game(env_id, num_envs, config)
        opponents = make_opponents(opponent, game)
        self.envs = [GameEnv.view(env_id, game, e, opponents, learner_seat)
                     for e in range(num_envs)]
        self.num_envs = num_envs
        first = self.envs[0]
        self.single_observation_spaces = first.observation_spaces
        self.single_action_spaces = first.action_spaces
        self.single_observation_space = gymnasium.spaces.Dict(first.observation_spaces)
        self.single_action_space = gymnasium.spaces.Dict(first.action_spaces)
        self._restarting = np.zeros(num_envs, dtype=bool)  # next step only starts them
        self._bot_groups = []      # (opponent, env ids, seats, action buffer)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.game.reset(seed)
        self._restarting[:] = False
        results = [self._start(e, None if seed is None else seed + e)
                   for e in range(self.num_envs)]
        self._group_bots()
        return [obs for obs, _ in results], [infos for _, infos in results]

    def step(self, actions):
        game, restarting = self.game, self._restarting
        for env, action_dict in zip(self.envs, actions):
            env.write_actions(action_dict)
        for opponent, env_ids, seats, buffer in self._bot_groups:
            opponent.act(game, env_ids, seats, buffer)
            game.write_actions((env_ids, seats), buffer)
        # the games waiting for RLlib's reset sit this step out: BatchedGame.step skips a
        # game that is over (those that ended already restarted in the kernel; a game
        # that the learner left goes on, and is started anew here)
        left = [e for e, env in enumerate(self.envs) if restarting[e] and env.learner_out]
        if left:
            game.reset(env_ids=left)
        waiting = np.flatnonzero(restarting)
        game.state.over[waiting] = True
        try:
            game.step(autoreset=True)
        finally:
            game.state.over[waiting] = False
        results = []
        for e, env in enumerate(self.envs):
            if restarting[e]:
                obs, infos = self._start(e)
                results.append((obs, {}, {ALL_AGENTS: False}, {ALL_AGENTS: False}, infos))
            else:
                results.append(env.collect())
        ended = [r[2][ALL_AGENTS] or r[3][ALL_AGENTS] for r in results]
        if len(waiting) or any(ended):
            restarting[:] = ended
            self._group_bots()
        return tuple(list(column) for column in zip(*results))

    def _start(self, e, seed=None):
        env = self.envs[e]
        if seed is not None:
            MultiAgentEnv.reset(env, seed=seed)    # the env's draws of opponents and seats
        return env.start_episode()

    def _group_bots(self):
        """Each bot's (env, seat) pairs over the batch, for one call per bot per step; not
        in the games waiting for their reset (a bot's draws would change them)."""
        pairs = {}
        for e, env in enumerate(self.envs):
            if env.bot is not None and not self._restarting[e]:
                group = pairs.setdefault(id(env.bot), (env.bot, []))[1]
                group.extend((e, seat) for seat in env.bot_seats)
        shape = self.game.action_shape()
        self._bot_groups = []
        for bot, group in pairs.values():
            env_ids, seats = (np.array(x, dtype=np.int64) for x in zip(*group))
            self._bot_groups.append((bot, env_ids, seats,
                                     np.zeros((len(env_ids),) + shape, dtype=np.int64)))


class BatchedEnvRunner(MultiAgentEnvRunner):
    """RLlib's multi-agent env runner with a ``BatchedVectorEnv`` of
    ``num_envs_per_env_runner`` games: the config's env must be one of ``RLLIB_IDS`` (or an
    env id), its ``env_config`` the game's config with ``opponent`` and ``learner_seat``."""

    def make_env(self):
        if self.env is not None:
            self.env.close()
        env_id = rllib_env_id(self.config.env)
        self.env = BatchedVectorEnv(env_id, self.config.num_envs_per_env_runner,
                                    **dict(self.config.env_config))
        self.num_envs = self.env.num_envs
        self._needs_initial_reset = True
        make_callback("on_environment_created", callbacks_objects=self._callbacks,
                      callbacks_functions=self.config.callbacks_on_environment_created,
                      kwargs={"env_runner": self, "metrics_logger": self.metrics,
                              "env": self.env, "env_context": self.config.env_config})


def rllib_env_id(name):
    """The env id of an RLlib env name (``"botarena/paint_v0"``, or ``"paint_v0"``)."""
    env_id = name.removeprefix("botarena/") if isinstance(name, str) else None
    if env_id not in ENV_IDS:
        raise ValueError(f"{name!r} is not a botarena env (botarena/<env id>, ids: "
                         f"{', '.join(ENV_IDS)})")
    return env_id

