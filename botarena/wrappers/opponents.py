"""Opponents: who plays the agent slots that the learner does not.

An opponent has ``act(game, env_ids, agent_ids, out)``: write into ``out[i]`` the action of
agent ``agent_ids[i]`` in env ``env_ids[i]`` of the batched ``game``, from the state and the
observations the game already holds.

- ``ScriptedOpponent("greedy")``: one of the game's jitted bots (``game.bots``).
- ``PolicyOpponent(policy)``: anything with ``predict(obs, ...)`` like an SB3 model
  (``action_masks`` are passed when its ``predict`` takes them), or a function
  ``f(obs, masks) -> actions``.  ``set_policy`` swaps the policy (self-play snapshots).

``make_opponent(spec, game)`` turns a bot name (``"greedy"`` or ``"bot:greedy"``), an opponent
or a policy into an opponent.
"""
import inspect

import numpy as np


class ScriptedOpponent:
    def __init__(self, name, game):
        if name not in game.bots:
            raise ValueError(f"unknown bot {name!r} for this game; bots: {', '.join(game.bots)}")
        self.name = name
        self.bot = game.bots[name]

    def act(self, game, env_ids, agent_ids, out):
        self.bot(game.state, game.params, env_ids, agent_ids, out)

    def __repr__(self):
        return f"ScriptedOpponent({self.name!r})"


class PolicyOpponent:
    def __init__(self, policy, deterministic=False):
        self.deterministic = deterministic
        self.set_policy(policy)

    def set_policy(self, policy):
        self.policy = policy
        predict = getattr(policy, "predict", None)
        if predict is None:
            if not callable(policy):
                raise TypeError("a policy opponent needs predict(obs, ...) or to be callable f(obs, masks)")
            self._predict = lambda obs, masks: policy(obs, masks)
        elif "action_masks" in inspect.signature(predict).parameters:
            self._predict = lambda obs, masks: predict(
                obs, action_masks=masks, deterministic=self.deterministic)[0]
        else:
            self._predict = lambda obs, masks: predict(obs, deterministic=self.deterministic)[0]

    def act(self, game, env_ids, agent_ids, out):
        out[:] = np.asarray(self._predict(game.obs[env_ids, agent_ids], game.masks[env_ids, agent_ids]))

    def __repr__(self):
        return f"PolicyOpponent({type(self.policy).__name__})"


BOT_PREFIX = "bot:"


def make_opponent(spec, game):
    """An opponent from ``spec``: a bot name (``"greedy"`` or ``"bot:greedy"``), an object
    with ``act`` (used as it is), or a policy (see ``PolicyOpponent``)."""
    if isinstance(spec, str):
        return ScriptedOpponent(spec.removeprefix(BOT_PREFIX), game)
    if hasattr(spec, "act"):
        return spec
    return PolicyOpponent(spec)
