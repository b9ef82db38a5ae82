"""A Gymnasium ``VectorEnv`` over agent slots (``botarena.gymnasium_vector_env``).

Same slots as the SB3 VecEnv (``wrappers.slots``), with Gymnasium's same-step autoreset
(``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``): when a slot's episode ends,
the returned observation already starts the next one, and ``infos["final_obs"]`` (with
the mask ``infos["_final_obs"]``) holds the last one.  ``infos["action_mask"]`` holds
every slot's action mask.  The observation, mask, reward, end-flag and final-observation
arrays are buffers that alternate (``wrappers.slots``): valid through the next step, then
reused.  With
``copy=False`` (as Gymnasium's ``SyncVectorEnv``) and no opponents, the observations and
masks are the game's own buffers, valid until the next step: no copy at all, for loops
that store what they keep before stepping again; so is ``infos["final_obs"]``, whose rows
count only where ``infos["_final_obs"]`` is set.
"""
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .slots import AgentSlots


class SlotVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array", "ansi"]}

    def __init__(self, env_id, num_envs, opponent=None, learner_seat=None, threads=None,
                 render_mode=None, copy=True, **config):
        self.slots = AgentSlots(env_id, num_envs, opponent, learner_seat, threads, copy,
                                **config)
        self.num_envs = self.slots.num_slots
        self.single_observation_space = self.slots.observation_space
        self.single_action_space = self.slots.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = render_mode

    def reset(self, *, seed=None, options=None):
        obs = self.slots.reset(seed)
        return obs, {"action_mask": self.slots.action_masks()}

    def step(self, actions):
        obs, rewards, terminated, truncated = self.slots.step(np.asarray(actions))
        infos = {"action_mask": self.slots.action_masks()}
        done = terminated | truncated
        if done.any():
            infos["final_obs"], infos["_final_obs"] = self.slots.final_obs_of(done), done.copy()
        return obs, rewards, terminated, truncated, infos

    def close_extras(self, **kwargs):
        self.slots.close()

    def render(self):
        game = self.slots.game
        return game.render_ansi(0) if self.render_mode == "ansi" else game.render_rgb(0)


def make_vector(num_envs, env_id, opponent="random", **kwargs):
    """The vector entry point of the Gymnasium ids (``gymnasium.make_vec``): ``num_envs``
    games, one learner slot each, the other seats played by ``opponent`` (as the
    single-agent env's), the learner's seat alternating between envs."""
    return SlotVectorEnv(env_id, num_envs, opponent=opponent, **kwargs)
