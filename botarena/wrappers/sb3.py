"""A Stable-Baselines3 ``VecEnv`` over agent slots (needs ``pip install botarena[train]``).

``botarena.vector_env(env_id, num_envs, opponent=None, seed=None, **config)``: the learner
slots of ``AgentSlots`` (see ``wrappers.slots``) as SB3 envs, so one policy plays every
learner seat.  SB3's auto-reset semantics: a done slot's ``infos[i]`` holds
``terminal_observation``, ``TimeLimit.truncated`` (True only for time-outs, never for a
game's own end), ``score`` and ``outcome`` (+1/0/-1 against the best opponent) of the
finished episode.  ``action_masks()`` serves MaskablePPO.  The infos list and its dicts are
reused from step to step (only done slots carry keys): copy what you keep.  The observation,
mask, reward and done arrays are buffers that alternate (``wrappers.slots``): valid
through the next step, then reused.
"""
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .slots import AgentSlots


class BotarenaVecEnv(VecEnv):
    def __init__(self, env_id, num_envs, opponent=None, seed=None, learner_seat=None,
                 threads=None, render_mode=None, **config):
        self.slots = AgentSlots(env_id, num_envs, opponent, learner_seat, threads, **config)
        self.render_mode = render_mode
        super().__init__(self.slots.num_slots, self.slots.observation_space,
                         self.slots.action_space)
        self._seed = seed
        self._actions = None
        self._infos = [{} for _ in range(self.num_envs)]
        self._dirty = []

    @property
    def game(self):
        return self.slots.game

    def reset(self):
        obs = self.slots.reset(self._seed)
        self._seed = None
        for i in self._dirty:
            self._infos[i].clear()
        self._dirty = []
        return obs

    def seed(self, seed=None):
        """Seed the next reset: env ``e`` gets ``seed + e``; returns each slot's env seed."""
        self._seed = seed
        return [None if seed is None else seed + int(e) for e in self.slots.learner_env]

    def step_async(self, actions):
        self._actions = actions

    def step_wait(self):
        obs, rewards, terminated, truncated = self.slots.step(self._actions)
        dones = terminated | truncated
        for i in self._dirty:
            self._infos[i].clear()
        ended = np.flatnonzero(dones)
        self._dirty = ended.tolist()
        if self._dirty:     # each done slot's info, from a few array operations
            final_obs = self.slots.final_obs(ended)
            scores, outcomes = self.slots.final_results(ended)
            time_outs = (truncated & ~terminated)[ended]
            # keys set one by one: half the time of update() with a new dict (at 4,096
            # games all 8,192 slots of paint_v0 end on one step)
            for i, last, score, outcome, time_out in zip(
                    self._dirty, final_obs, scores.tolist(), outcomes.tolist(),
                    time_outs.tolist()):
                info = self._infos[i]
                info["terminal_observation"] = last
                info["TimeLimit.truncated"] = time_out
                info["score"] = score
                info["outcome"] = outcome
        return obs, rewards, dones, self._infos

    def action_masks(self):
        return self.slots.action_masks()

    def close(self):
        self.slots.close()

    def render(self, mode=None):
        mode = mode or self.render_mode
        if mode == "ansi":
            return self.game.render_ansi(0)
        return self.game.render_rgb(0)

    def get_images(self):
        return [self.game.render_rgb(e) for e in range(self.game.num_envs)]

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name, value, indices=None):
        setattr(self, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        """Per-slot results; ``"action_masks"`` gives each slot its own mask row (what
        sb3-contrib's MaskablePPO asks for)."""
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        method = getattr(self, method_name)
        return [method(*method_args, **method_kwargs) for _ in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices


def make_vec_env(env_id, num_envs, **kwargs):
    return BotarenaVecEnv(env_id, num_envs, **kwargs)
