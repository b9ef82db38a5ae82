"""One game as a single-agent Gymnasium env: the learner takes one seat, the others are
played by an opponent (``gymnasium.make("botarena/Paint-v0", opponent="bot:greedy",
**config)``; the ids are in ``botarena.GYMNASIUM_IDS``).

``SingleAgentEnv(env_id, opponent="random", learner_seat=None, render_mode=None, **config)``:

- ``opponent``: a bot name (``"greedy"`` or ``"bot:greedy"``), a policy with ``predict``
  (e.g. an SB3 model), a callable ``f(obs, masks) -> actions`` or an object with ``act``
  (see ``wrappers.opponents``); it plays every seat but the learner's.
- The learner's seat alternates per episode (seat ``k % A`` in the k-th episode since the
  last seeded reset), so one policy learns every side; ``learner_seat`` fixes it.
  ``info["seat"]`` names it.
- Spaces are the game's per-agent spaces; ``info["action_mask"]`` (int8, flat: what
  ``Discrete.sample(mask=...)`` takes) and ``action_masks()`` (bool, for MaskablePPO) give
  the legal actions; ``info["score"]`` the game score.  An illegal action is legal to send: the game plays it as its rules say.
- The episode ends when the game does, or when the learner leaves it (a dungeon player
  killed, an ants colony eliminated: terminated).  ``step`` after that, or before
  ``reset``, raises ``RuntimeError``; an action outside the space raises ``ValueError``
  before anything changes.  The opponents' actions are checked as the learner's are.
- Render modes ``ansi`` and ``rgb_array``.
"""
import gymnasium
import numpy as np

from ..registry import env_module
from .opponents import make_opponent


class SingleAgentEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 8}

    def __init__(self, env_id, opponent="random", learner_seat=None, render_mode=None,
                 **config):
        module = env_module(env_id)
        self.game = module.Game(module.Config(**config), 1)
        agents = self.game.num_agents
        if learner_seat is not None and (isinstance(learner_seat, bool) or
                                         learner_seat not in range(agents)):
            raise ValueError(f"learner_seat must be an int in [0, {agents}), got {learner_seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} "
                             f"or None, got {render_mode!r}")
        self.env_id = env_id
        self.render_mode = render_mode
        self.learner_seat = learner_seat
        self.opponent = make_opponent(opponent, self.game)
        self.observation_space = self.game.observation_space
        self.action_space = self.game.action_space
        self.seat = None            # the learner's seat in this episode (None: not reset)
        self._episodes = 0
        self._playing = False

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        game = self.game
        game.reset(seed)
        if seed is not None:        # a seed replays the same episodes, seats included
            self._episodes = 0
        agents = game.num_agents
        self.seat = self.learner_seat if self.learner_seat is not None else self._episodes % agents
        self._episodes += 1
        others = np.array([a for a in range(agents) if a != self.seat], dtype=np.int64)
        self._others = others
        self._other_envs = np.zeros(len(others), dtype=np.int64)
        self._other_actions = np.zeros((len(others),) + game.action_shape(), dtype=np.int64)
        self._playing = True
        return game.obs[0, self.seat].copy(), self._info()

    def step(self, action):
        if not self._playing:
            raise RuntimeError("step() on an episode that has ended (or was never reset): "
                               "call reset() first")
        game = self.game
        action, shape, values = np.asarray(action), game.action_shape(), game.action_values()
        if (action.dtype.kind not in "iu" or action.shape != shape or action.size == 0
                or action.min() < 0 or action.max() >= values):
            kind = f"an int array of shape {shape}" if shape else "an int"
            raise ValueError(f"the action must be {kind} in [0, {values}), got {action!r}")
        game.actions[0, self.seat] = action
        if len(self._others):
            self.opponent.act(game, self._other_envs, self._others, self._other_actions)
            game.write_actions((0, self._others), self._other_actions)   # checked
        game.step()
        seat = self.seat
        terminated = bool(game.terminated[0, seat])
        truncated = bool(game.truncated[0, seat]) and not terminated
        self._playing = not (terminated or truncated)
        return (game.obs[0, seat].copy(), float(game.rewards[0, seat]), terminated, truncated,
                self._info())

    def _info(self):
        mask = self.game.masks[0, self.seat].copy()   # int8: what Discrete.sample(mask=) takes
        return {"action_mask": mask, "score": int(self.game.scores[0, self.seat]),
                "seat": self.seat}

    def action_masks(self):
        """The learner's legal actions (flat, as MaskablePPO takes them)."""
        if self.seat is None:
            raise RuntimeError("action_masks() before reset()")
        return self.game.masks[0, self.seat].astype(bool)

    def render(self):
        if self.render_mode == "ansi":
            return self.game.render_ansi(0)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(0)
        return None
