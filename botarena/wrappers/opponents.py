"""Opponents: who plays the agent slots that the learner does not.

An opponent has ``act(game, env_ids, agent_ids, out)``: write into ``out[i]`` the action of
agent ``agent_ids[i]`` in env ``env_ids[i]`` of the batched ``game``, from the state and the
observations the game already holds.

- ``ScriptedOpponent("greedy")``: one of the game's jitted bots (``game.bots``).
- ``PolicyOpponent(policy)``: anything with ``predict(obs, ...)`` like an SB3 model
  (``action_masks`` are passed when its ``predict`` takes them), or a function
  ``f(obs, masks) -> actions``.  ``set_policy`` swaps the policy (self-play snapshots).

``make_opponent(spec, game)`` turns a player spec string of the arena (``"bot:greedy"`` or
just ``"greedy"``, ``"policy:model.zip"``, ``"rllib:checkpoint/"``, ``"python:agent.py[:Class]"``, ``"cmd:./mybot"``;
see ``botarena.arena.spec``), an opponent or a policy into an opponent.  ``python:`` and
``cmd:`` opponents run in processes of their own (``botarena.arena.opponent``); their
``close()`` ends them, and the vector env's ``close()`` calls it (``AgentSlots.close``).
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
        actions = np.asarray(self._predict(game.obs[env_ids, agent_ids], game.masks[env_ids, agent_ids]))
        if actions.dtype.kind not in "iu":     # floats, bools, ints beyond int64 (object)
            raise TypeError(f"{self!r} returned actions of dtype {actions.dtype}, not integers")
        out[:] = actions

    def __repr__(self):
        return f"PolicyOpponent({type(self.policy).__name__})"


BOT_PREFIX = "bot:"


def _env_id(game):
    from ..registry import ENV_IDS, env_module
    return next(env_id for env_id in ENV_IDS if isinstance(game, env_module(env_id).Game))


def make_opponent(spec, game):
    """An opponent from ``spec``: a player spec string (a bare name is a bot), an object
    with ``act`` (used as it is), or a policy (see ``PolicyOpponent``)."""
    if isinstance(spec, str):
        if ":" not in spec:
            return ScriptedOpponent(spec, game)
        from ..arena.spec import parse_spec
        parsed = parse_spec(spec)
        if parsed.kind == "bot":
            return ScriptedOpponent(parsed.target, game)
        if parsed.kind == "policy":
            from ..training.evaluate import load_model
            return PolicyOpponent(load_model(parsed.target), deterministic=True)
        if parsed.kind == "rllib":
            from ..rllib import load_policy
            return PolicyOpponent(load_policy(parsed.target))
        from ..arena.opponent import ArenaOpponent
        return ArenaOpponent(parsed, _env_id(game))
    if hasattr(spec, "act"):
        return spec
    return PolicyOpponent(spec)
