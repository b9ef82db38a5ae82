"""One PettingZoo ``ParallelEnv`` for every game: a ``BatchedGame`` with a single env.

Per step it validates the actions, calls the game's step kernel once and builds the
dicts.  Observations and masks are views of one fresh copy per step (safe to keep).
``infos[agent]`` holds ``score`` (the game's own score) and ``action_mask`` (int8, 1 =
legal): an array for ``Discrete`` actions; for ``MultiDiscrete`` commands per cell, a
``CellMasks``: a tuple of one row per cell as Gymnasium's ``MultiDiscrete.sample(mask)``
takes it, made from one ``[cells, commands]`` array without a row object per cell
(``action_mask(agent)`` gives the flat array that MaskablePPO takes).
An agent that sends no action plays action 0 (the games' no-op).  Stepping after the
game ended raises ``RuntimeError``; unknown agents and bad actions raise ``ValueError``
or ``TypeError`` before anything changes.
"""
import operator

import numpy as np
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec_wrapper
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .window import HumanWindow

RENDER_MODES = ("human", "ansi", "rgb_array")


class CellMasks(tuple):
    """The mask of a command-per-cell action: a tuple of one int8 row per cell to Python
    and Gymnasium (``len``, indexing, iteration; ``MultiDiscrete.sample(mask)`` takes it),
    held as the one ``[cells, commands]`` array ``array`` (``np.asarray`` gives it back):
    ants_v0's 400 rows cost a tuple of 400 arrays a step before."""

    def __new__(cls, array):
        masks = tuple.__new__(cls)     # super() costs a third of a mask's making
        masks.array = array
        return masks

    def __getnewargs__(self):
        return (self.array,)

    def __len__(self):
        return len(self.array)

    def __iter__(self):
        return iter(self.array)

    def __getitem__(self, index):
        return self.array[index]

    def __array__(self, dtype=None, copy=None):
        return self.array if dtype is None else self.array.astype(dtype)

    def __eq__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return len(other) == len(self) and all(np.array_equal(a, b) for a, b in zip(self, other))

    __hash__ = None

    def __repr__(self):
        return f"CellMasks({self.array!r})"


class BatchedParallelEnv(ParallelEnv):
    """``BatchedParallelEnv(game_cls, name, render_mode=None, **config)``."""

    def __init__(self, game_cls, config, name, render_mode=None):
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}")
        self.game = game_cls(config, num_envs=1)
        self.metadata = {"name": name, "render_modes": list(RENDER_MODES),
                         "is_parallelizable": True, "render_fps": 8}
        self.render_mode = render_mode
        self.possible_agents = list(self.game.possible_agents)
        self.agents = []
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._obs_space = self.game.observation_space
        self._act_space = self.game.action_space
        self._action_values = self.game.action_values()
        self._action_shape = self.game.action_shape()
        # commands per cell are staged at int64, then checked as they are narrowed into
        # the game's buffer (``BatchedGame.narrowing``)
        self._staged = np.zeros(self.game.actions.shape, dtype=np.int64)
        self._window = None
        self._bind_buffers()

    def _bind_buffers(self):
        """What a step reads and writes, taken once: the game's env-0 rows (obs, masks,
        rewards, terminated, truncated, scores: indexing six buffers cost ~1 us a step) and
        the narrowing of the staged commands, bound to the flat buffers.  Views, so taken
        again on unpickling (a pickled view is a copy)."""
        game = self.game
        self._rows = tuple(array[0] for array in (game.obs, game.masks, game.rewards,
                                                  game.terminated, game.truncated,
                                                  game.scores))
        # (compiled only where commands per cell are staged: a Discrete game's first env
        # would compile it for nothing)
        self._narrow_staged = game.narrowing(self._staged) if self._action_shape else None

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_rows"], state["_narrow_staged"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._bind_buffers()

    @property
    def config(self):
        return self.game.config

    def observation_space(self, agent):
        self._check_agent(agent)
        return self._obs_space

    def action_space(self, agent):
        self._check_agent(agent)
        return self._act_space

    @property
    def state_space(self):
        return self.game.global_state_space

    def state(self):
        return self.game.global_state(0)

    def _check_agent(self, agent):
        if agent not in self._index:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")

    def action_mask(self, agent):
        self._check_agent(agent)
        return self.game.masks[0, self._index[agent]].copy()

    def _infos(self):
        scores, masks = self._rows[5].tolist(), self._info_masks()
        index = self._index
        return {agent: {"score": scores[index[agent]], "action_mask": masks[index[agent]]}
                for agent in self.agents}

    def reset(self, seed=None, options=None):
        self.game.reset(seed)
        self.agents = list(self.possible_agents)
        obs = self.game.obs[0]
        if self.render_mode == "human":
            self.render()
        obs = obs.copy()
        return {agent: obs[i] for i, agent in enumerate(self.agents)}, self._infos()

    def _action_index(self, agent, action):
        """The checked int action of a ``Discrete`` game."""
        try:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            value = operator.index(action)
        except TypeError:
            raise TypeError(f"action for {agent!r} must be an int, got {action!r}") from None
        if not 0 <= value < self._action_values:
            raise ValueError(f"action for {agent!r} must be in [0, {self._action_values}), got {value}")
        return value

    def _info_masks(self):
        """Every agent's ``infos`` action mask, from one fresh copy of the game's masks: a
        row each, or for a command per cell a ``CellMasks`` each."""
        masks = self._rows[1].copy()
        if self._action_shape:
            cells = masks.reshape(len(masks), -1, self._action_values)
            # indexing, not iterating: iterating a numpy array costs ~0.5 us more a row
            return [CellMasks(cells[a]) for a in range(len(cells))]
        return masks

    def check_action(self, agent, action):
        """Raise ``ValueError`` (unknown agent, value out of range) or ``TypeError`` (not an
        int, or an int array of the action shape) unless ``action`` is one ``agent`` may
        send; changes nothing."""
        self._check_agent(agent)
        if self._action_shape:
            self._action_array(agent, action)
        else:
            self._action_index(agent, action)

    def _set_array_actions(self, actions):
        """Commands of array-action games, staged and then checked as they are written
        into the game's action buffer, in one compiled pass, before the step; agents that
        send nothing play 0, the no-op, everywhere."""
        row, index = self._staged[0], self._index
        if len(actions) < len(row):    # else every row is written below
            row[...] = 0
        for agent, action in actions.items():
            i = index.get(agent)
            if i is None:
                self._check_agent(agent)
            row[i] = self._shaped(agent, action)
        i = self._narrow_staged()
        if i >= 0:
            self._raise_entries(self.possible_agents[i // row[0].size])

    def _shaped(self, agent, action):
        """``action`` as an int array of the action shape, else ``TypeError``."""
        array = np.asarray(action)
        if array.dtype.kind not in "iu" or array.shape != self._action_shape:
            raise TypeError(f"action for {agent!r} must be an int array of shape "
                            f"{self._action_shape}, got {array.dtype} {array.shape}")
        return array

    def _raise_entries(self, agent):
        raise ValueError(f"action entries for {agent!r} must be in [0, {self._action_values})")

    def _action_array(self, agent, action):
        array = self._shaped(agent, action)
        if array.size and (array.min() < 0 or array.max() >= self._action_values):
            self._raise_entries(agent)
        return array

    def step(self, actions):
        if not self.agents:
            raise RuntimeError("step() called on an env whose game has ended (or was never "
                               "reset): call reset() first")
        game, index = self.game, self._index
        if self._action_shape:
            self._set_array_actions(actions)
        else:
            limit = self._action_values
            chosen = [0] * len(index)  # agents that send nothing play 0, the no-op
            for agent, action in actions.items():
                i = index.get(agent)
                if i is None:
                    self._check_agent(agent)
                if type(action) is not int or not 0 <= action < limit:  # fast path: valid int
                    action = self._action_index(agent, action)
                chosen[i] = action
            game.actions[0] = chosen
        game._advance(game.actions)        # every action was checked above
        # one fresh copy per step, handed out as per-agent views (safe to keep); tolist()
        # gives Python floats and bools without a numpy scalar each
        obs_row, _, rew_row, term_row, trunc_row, score_row = self._rows
        obs, masks = obs_row.copy(), self._info_masks()
        rew, term, trunc = rew_row.tolist(), term_row.tolist(), trunc_row.tolist()
        scores = score_row.tolist()
        observations, rewards, terminations, truncations, infos = {}, {}, {}, {}, {}
        still_playing = []
        for agent in self.agents:
            i = index[agent]
            observations[agent] = obs[i]
            rewards[agent] = rew[i]
            terminations[agent] = term[i]
            truncations[agent] = trunc[i]
            infos[agent] = {"score": scores[i], "action_mask": masks[i]}
            if not (term[i] or trunc[i]):
                still_playing.append(agent)
        self.agents = still_playing
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self.game.render_ansi(0)
        frame = self.game.render_rgb(0)
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            self._window = HumanWindow(self.metadata["name"], self.metadata["render_fps"])
        self._window.show(frame)
        return None

    def close(self):
        if self._window is not None:
            self._window.close()
            self._window = None

    def snapshot(self):
        """Copies of the raw state (the game's documented snapshot keys)."""
        return self.game.snapshot(0)

    def restore(self, snapshot):
        """Put the game into the state ``snapshot`` describes (see ``snapshot``) and return
        ``(observations, infos)`` as ``reset`` does; the agents are those still playing
        in it.  A bad snapshot raises ``ValueError`` naming the key, and nothing changes."""
        self.game.restore(snapshot, 0)
        self.agents = [self.possible_agents[a] for a in self.game.live_agents(0)]
        obs = self.game.obs[0].copy()
        if self.render_mode == "human":
            self.render()
        return {agent: obs[self._index[agent]] for agent in self.agents}, self._infos()


class CheckedAEC(parallel_to_aec_wrapper):
    """PettingZoo's AEC view of a ``BatchedParallelEnv`` that checks each action when it is
    given: a rejected action raises at once and leaves the env as it was, the same agent
    still to act (PettingZoo's conversion stored it and failed only at the turn's last
    agent, after which every ``step`` raised again until ``reset``)."""

    def step(self, action):
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            self.env.check_action(agent, action)
        super().step(action)


def aec_env(parallel):
    """The AEC env of a ``BatchedParallelEnv`` (``CheckedAEC`` under PettingZoo's
    order-enforcing wrapper, as ``pettingzoo.utils.parallel_to_aec`` builds it)."""
    return OrderEnforcingWrapper(CheckedAEC(parallel))
