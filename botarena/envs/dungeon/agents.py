"""The contest agent API of dungeon (the original contest's "Agent" and "Game State").

An agent is a class ``Agent(player_num, env)`` with ``next_move(game_state, player_state)``
returning one of ``'' u d l r p``.  ``game_state`` (``GameState``) and ``player_state``
(``PlayerState``) are read-only views built from ``DungeonGame.snapshot()``; coordinates are
``(x, y)`` (x = column, y = row, y = 0 the bottom row, ``u`` is y + 1).

- ``load_agent(spec)``: an ``AgentSpec`` from a Python file (``my_agent.py``), a module name
  (``my_package.my_agent``) or a builtin bot (``bot:safe_bomber``, ``bot:random``,
  ``bot:aggressive``).  ``spec.make(player_num, env)`` builds the agent; ``spec.reload()``
  re-reads a file (``--watch``).
- ``BotAgent(name)``: one of the game's jitted bots (``bots.py``) as an agent; it plays on a
  private copy of the state that ``game_state`` carries, with its own random stream.
- ``PolicyAgent(model)``: a trained policy (SB3 ``predict`` with ``action_masks`` or a
  function ``f(obs, mask) -> action``) as an agent, on the game's observation for that
  player, deterministic, masked.
- ``AgentOpponent(agent_cls_or_factory)``: such agents as opponents in
  ``botarena.vector_env`` / ``AgentSlots`` (the ``act(game, env_ids, agent_ids, out)``
  interface of ``botarena.wrappers.opponents``).
"""
import importlib
import importlib.util
import inspect
import itertools
import os
import sys
from types import SimpleNamespace

import numpy as np

from ...core import rng as rng_module
from ...core.rng import AGENT
from .constants import (ACTION_NAMES, AMMO, METAL, NUM_ACTIONS, ORE, TREASURE, WOOD)

ACTIONS = ACTION_NAMES                      # '' u d l r p, index = the game's action
ACTION_INDEX = {name: i for i, name in enumerate(ACTION_NAMES)}

# the seed's tags
TAG_METAL, TAG_WOOD, TAG_ORE, TAG_BOMB, TAG_AMMO, TAG_TREASURE = "ib", "sb", "ob", "b", "a", "t"
_TILE_TAGS = {METAL: TAG_METAL, WOOD: TAG_WOOD, ORE: TAG_ORE, AMMO: TAG_AMMO,
              TREASURE: TAG_TREASURE}


class _ReadOnly:
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is read-only")


def _cells(ys, xs):
    return tuple(sorted((int(x), int(y)) for y, x in zip(ys, xs)))


class GameState(_ReadOnly):
    """The seed's ``game_state``: a read-only view of one moment of the game.

    Fields: ``is_over``, ``tick_number``, ``size`` ((columns, rows)), ``bombs``, ``ammo``,
    ``treasure``, ``all_blocks``, ``soft_blocks``, ``ore_blocks``, ``indestructible_blocks``
    (lists of (x, y), fresh copies at each access); extras: ``fire`` (cells fire hits
    during the next tick), ``num_players``, ``snapshot`` (a deep copy of the snapshot dict).
    Methods: ``entity_at``, ``is_in_bounds``, ``is_occupied``, ``opponents``; extras:
    ``observation(pid)`` and ``action_mask(pid)`` (the game's own, for policies).
    """
    __slots__ = ("_snap", "_entities", "_lists", "_obs", "_masks", "_raw", "_params")

    def __init__(self, snapshot, obs=None, masks=None, raw=None, params=None):
        s = snapshot
        tiles = s["tiles"]
        H, W = tiles.shape
        ents = {}
        for y, x in zip(*np.nonzero(tiles)):
            ents[(int(x), int(y))] = _TILE_TAGS[int(tiles[y, x])]
        for a, p in enumerate(s["players"]):          # bodies stay: solid, shown as their id
            ents[(p["x"], p["y"])] = a
        for b in s["bombs"]:                          # a player on its bomb shows as the bomb
            ents[(b["x"], b["y"])] = TAG_BOMB
        ys, xs = np.nonzero(tiles)
        kinds = tiles[ys, xs]
        lists = {
            "bombs": tuple((b["x"], b["y"]) for b in s["bombs"]),
            "ammo": _cells(ys[kinds == AMMO], xs[kinds == AMMO]),
            "treasure": _cells(ys[kinds == TREASURE], xs[kinds == TREASURE]),
            "soft_blocks": _cells(ys[kinds == WOOD], xs[kinds == WOOD]),
            "ore_blocks": _cells(ys[kinds == ORE], xs[kinds == ORE]),
            "indestructible_blocks": _cells(ys[kinds == METAL], xs[kinds == METAL]),
            "fire": tuple(tuple(c) for c in s["fire"]),
        }
        block = (kinds == METAL) | (kinds == WOOD) | (kinds == ORE)
        lists["all_blocks"] = _cells(ys[block], xs[block])
        set_ = object.__setattr__
        set_(self, "_snap", s)
        set_(self, "_entities", ents)
        set_(self, "_lists", lists)
        set_(self, "_obs", obs)
        set_(self, "_masks", masks)
        set_(self, "_raw", raw)
        set_(self, "_params", params)

    # -- the seed's fields --------------------------------------------------------------
    @property
    def is_over(self):
        return bool(self._snap["over"])

    @property
    def tick_number(self):
        return int(self._snap["tick"])

    @property
    def size(self):
        H, W = self._snap["tiles"].shape
        return (int(W), int(H))

    @property
    def bombs(self):
        return list(self._lists["bombs"])

    @property
    def ammo(self):
        return list(self._lists["ammo"])

    @property
    def treasure(self):
        return list(self._lists["treasure"])

    @property
    def all_blocks(self):
        return list(self._lists["all_blocks"])

    @property
    def soft_blocks(self):
        return list(self._lists["soft_blocks"])

    @property
    def ore_blocks(self):
        return list(self._lists["ore_blocks"])

    @property
    def indestructible_blocks(self):
        return list(self._lists["indestructible_blocks"])

    # -- extras ---------------------------------------------------------------------------
    @property
    def fire(self):
        return list(self._lists["fire"])

    @property
    def num_players(self):
        return len(self._snap["players"])

    @property
    def snapshot(self):
        import copy
        return copy.deepcopy(self._snap)

    def observation(self, pid):
        """The game's observation of player ``pid`` (``None`` if the runner gave none)."""
        return None if self._obs is None else self._obs[pid].copy()

    def action_mask(self, pid):
        """The game's action mask of player ``pid`` (``None`` if the runner gave none)."""
        return None if self._masks is None else self._masks[pid].copy()

    # -- the seed's methods ---------------------------------------------------------------
    def entity_at(self, location):
        """A player's number (int), a tag ('ib', 'sb', 'ob', 'b', 'a', 't') or None."""
        return self._entities.get((int(location[0]), int(location[1])))

    def is_in_bounds(self, location):
        W, H = self.size
        return 0 <= int(location[0]) < W and 0 <= int(location[1]) < H

    def is_occupied(self, location):
        """Whether the cell holds anything: block, bomb, ammo, treasure, player or body."""
        return self.entity_at(location) is not None

    def opponents(self, excluding_player_pid):
        """Locations of the other living players."""
        return [(p["x"], p["y"]) for a, p in enumerate(self._snap["players"])
                if a != excluding_player_pid and p["alive"]]

    def player_state(self, pid):
        return PlayerState(self._snap, pid)

    def __repr__(self):
        return f"GameState(tick={self.tick_number}, over={self.is_over})"


class PlayerState(_ReadOnly):
    """The seed's ``player_state``: ``id``, ``ammo``, ``hp``, ``location`` ((x, y)),
    ``reward`` (the score), ``power`` (blast reach); extra: ``alive``."""
    __slots__ = ("_p", "_id")

    def __init__(self, snapshot, pid):
        object.__setattr__(self, "_p", dict(snapshot["players"][pid]))
        object.__setattr__(self, "_id", int(pid))

    id = property(lambda self: self._id)
    ammo = property(lambda self: self._p["ammo"])
    hp = property(lambda self: self._p["hp"])
    location = property(lambda self: (self._p["x"], self._p["y"]))
    reward = property(lambda self: self._p["score"])
    power = property(lambda self: self._p["power"])
    alive = property(lambda self: self._p["alive"])

    def __repr__(self):
        return (f"PlayerState(id={self.id}, location={self.location}, hp={self.hp}, "
                f"ammo={self.ammo}, reward={self.reward})")


def raw_copy(game, e=0):
    """A one-env copy of env ``e``'s state arrays (what ``BotAgent`` plays on)."""
    return game.copy_state([e])


def make_states(game, e=0, with_raw=True):
    """(game_state, [player_state per player]) of env ``e`` of a ``DungeonGame``."""
    snap = game.snapshot(e)
    gs = GameState(snap, obs=game.obs[e].copy(), masks=game.masks[e].copy(),
                   raw=raw_copy(game, e) if with_raw else None, params=game.params)
    return gs, [PlayerState(snap, a) for a in range(game.num_agents)]


def action_index(move):
    """The game's action index of an agent's answer, or None if it is not one of
    ``'' u d l r p`` (ints 0..5 and None, meaning '', are accepted too)."""
    if move is None:
        return 0
    if isinstance(move, str):
        return ACTION_INDEX.get(move)
    if isinstance(move, (int, np.integer)) and not isinstance(move, bool) \
            and 0 <= int(move) < NUM_ACTIONS:
        return int(move)
    return None


# -- builtin bots and policies as agents ---------------------------------------------------
class BotAgent:
    """A builtin jitted bot (``bots.BOTS``) as an ``Agent``: ``BotAgent(name)(player_num, env)``
    or ``BotAgent(player_num, env, name=...)``.  It needs a ``game_state`` made by the runner
    (which carries a private copy of the raw state)."""

    def __init__(self, player_num, env=None, name="safe_bomber", seed=None):
        from .bots import BOTS
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
        self.player_num = int(player_num)
        self.name = name
        self.bot = BOTS[name]
        rows = np.zeros((1, rng_module.NUM_STREAMS), dtype=np.uint64)
        rng_module.seed_rows(rows, np.array([0]), [rng_module.fresh_seed() if seed is None
                                                   else int(seed) + 7919 * self.player_num])
        self._rng = rows[0, AGENT]
        self._env = np.zeros(1, dtype=np.int64)
        self._agent = np.full(1, self.player_num, dtype=np.int64)
        self._out = np.zeros(1, dtype=np.int64)

    def next_move(self, game_state, player_state):
        raw = game_state._raw
        if raw is None:
            raise RuntimeError("BotAgent needs a game_state made by the runner (with raw state)")
        state = type(raw)(*[np.array(f) for f in raw])     # the bot writes scratch and rng
        state.rng[0, AGENT] = self._rng
        self.bot(state, game_state._params, self._env, self._agent, self._out)
        self._rng = state.rng[0, AGENT]
        return ACTIONS[int(self._out[0])]


def bot_agent_class(name):
    """An ``Agent`` class (``cls(player_num, env)``) playing builtin bot ``name``."""
    from .bots import BOTS
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")

    class Agent(BotAgent):
        def __init__(self, player_num, env=None):
            seed = getattr(env, "seed", None) if env is not None else None
            super().__init__(player_num, env, name=name, seed=seed)

    Agent.__name__ = Agent.__qualname__ = f"BotAgent_{name}"
    return Agent


class PolicyAgent:
    """A trained policy as an ``Agent``: ``PolicyAgent(model)`` is a factory
    ``(player_num, env) -> agent`` (and ``PolicyAgent(model, player_num)`` an agent).

    ``model``: an SB3(-contrib) model (``predict(obs, action_masks=..., deterministic=True)``
    is used when ``predict`` takes masks, else ``predict(obs, deterministic=True)``) or a
    function ``f(obs, mask) -> action``.  It plays the game's observation of its player."""

    def __init__(self, model, player_num=None, env=None):
        self.model = model
        self.player_num = player_num
        predict = getattr(model, "predict", None)
        if predict is None:
            if not callable(model):
                raise TypeError("PolicyAgent needs a model with predict() or a function f(obs, mask)")
            self._predict = lambda obs, mask: model(obs, mask)
        elif "action_masks" in inspect.signature(predict).parameters:
            self._predict = lambda obs, mask: predict(obs, action_masks=mask, deterministic=True)[0]
        else:
            self._predict = lambda obs, mask: predict(obs, deterministic=True)[0]

    def __call__(self, player_num, env=None):
        return PolicyAgent(self.model, player_num, env)

    def next_move(self, game_state, player_state):
        pid = player_state.id if self.player_num is None else self.player_num
        obs, mask = game_state.observation(pid), game_state.action_mask(pid)
        if obs is None:
            raise RuntimeError("PolicyAgent needs a game_state carrying observations")
        action = int(np.asarray(self._predict(obs, mask.astype(bool))).reshape(-1)[0])
        if not mask[action]:
            action = 0
        return ACTIONS[action]


class AgentOpponent:
    """Contest agents as opponents of ``AgentSlots`` / ``botarena.vector_env``.

    ``AgentOpponent(factory)``: ``factory(player_num, env)`` builds an agent (an ``Agent``
    class, ``PolicyAgent(model)``, ``bot_agent_class(name)``, or a spec string for
    ``load_agent``).  One agent per (env, player) seat is kept (and rebuilt after the env's
    game restarts); each ``act`` builds the env's game_state / player_state and calls
    ``next_move``.  An answer that raises or is not an action counts as ''."""

    def __init__(self, agent_cls_or_factory):
        if isinstance(agent_cls_or_factory, str):
            agent_cls_or_factory = load_agent(agent_cls_or_factory).make
        self.factory = agent_cls_or_factory
        self._agents = {}
        self.errors = 0

    def act(self, game, env_ids, agent_ids, out):
        cache = {}
        for i, (e, a) in enumerate(zip(env_ids.tolist(), agent_ids.tolist())):
            if e not in cache:
                cache[e] = make_states(game, e)
            gs, players = cache[e]
            key = (e, a)
            entry = self._agents.get(key)
            if entry is None or gs.tick_number < entry[1]:
                env = SimpleNamespace(config=game.config, num_players=game.num_agents,
                                      size=gs.size, player_num=a, seed=None)
                entry = [self.factory(a, env), 0]
                self._agents[key] = entry
            entry[1] = gs.tick_number
            try:
                move = action_index(entry[0].next_move(gs, players[a]))
            except Exception:
                move = None
            if move is None:
                self.errors += 1
                move = 0
            out[i] = move

    def __repr__(self):
        return f"AgentOpponent({getattr(self.factory, '__name__', type(self.factory).__name__)})"


# -- loading ---------------------------------------------------------------------------------
class AgentLoadError(Exception):
    """An agent file or module that can't be loaded, or holds no ``Agent`` class."""


_counter = itertools.count()


class AgentSpec:
    """What an agent argument names: ``kind`` 'file', 'module' or 'bot'; ``make(player_num,
    env)`` builds an agent; ``path`` (files) and ``reload()`` / ``changed()`` for --watch."""

    def __init__(self, text):
        self.text = text
        self.path = None
        self.mtime = None
        if text.startswith("bot:"):
            self.kind = "bot"
            try:
                self.cls = bot_agent_class(text[4:])
            except ValueError as err:
                raise AgentLoadError(str(err)) from None
            self.name = text
        elif text.endswith(".py") or os.sep in text or os.path.exists(text):
            self.kind = "file"
            self.path = os.path.abspath(text)
            self.name = os.path.splitext(os.path.basename(text))[0]
            self.cls = self._load_file()
        else:
            self.kind = "module"
            self.name = text.rsplit(".", 1)[-1]
            try:
                module = importlib.import_module(text)
            except ImportError as err:
                raise AgentLoadError(f"agent {text!r}: no such file or module ({err})") from None
            except Exception as err:
                raise AgentLoadError(f"agent module {text!r} failed to import: "
                                     f"{type(err).__name__}: {err}") from None
            self.cls = _agent_class(module, text)

    def _load_file(self):
        if not os.path.isfile(self.path):
            raise AgentLoadError(f"agent file {self.text!r} not found")
        self.mtime = os.stat(self.path).st_mtime_ns
        name = f"_botarena_dungeon_agent_{next(_counter)}"
        spec = importlib.util.spec_from_file_location(name, self.path)
        module = importlib.util.module_from_spec(spec)
        directory = os.path.dirname(self.path)
        added = directory not in sys.path
        if added:
            sys.path.insert(0, directory)           # let the file import its neighbours
        try:
            spec.loader.exec_module(module)
        except Exception as err:
            raise AgentLoadError(f"agent file {self.text!r} failed to load: "
                                 f"{type(err).__name__}: {err}") from None
        finally:
            if added:
                sys.path.remove(directory)
        return _agent_class(module, self.text)

    def changed(self):
        """Whether the agent's file changed since it was loaded (files only)."""
        if self.kind != "file":
            return False
        try:
            return os.stat(self.path).st_mtime_ns != self.mtime
        except OSError:
            return False

    def reload(self):
        """Re-read the file; on failure keep the old class and raise ``AgentLoadError``."""
        if self.kind != "file":
            return
        try:
            self.cls = self._load_file()
        except AgentLoadError:
            try:
                self.mtime = os.stat(self.path).st_mtime_ns   # don't retry until it changes
            except OSError:
                pass
            raise

    def make(self, player_num, env=None):
        return self.cls(player_num, env)

    def __repr__(self):
        return f"AgentSpec({self.text!r})"


def _agent_class(module, text):
    cls = getattr(module, "Agent", None)
    if cls is None or not callable(cls):
        raise AgentLoadError(f"agent {text!r} defines no class Agent")
    if not callable(getattr(cls, "next_move", None)):
        raise AgentLoadError(f"agent {text!r}: class Agent has no next_move method")
    return cls


def load_agent(text):
    """An ``AgentSpec`` for a file, a module name or ``bot:NAME``."""
    return AgentSpec(str(text))
