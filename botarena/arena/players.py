"""Players: what plays one seat of a match, made from a spec (``spec.py``).

``make_player(spec, env_id, game, seat, names, ...)`` gives:

- ``ScriptedPlayer`` (``bot:``): the game's jitted bot, on a copy of the position with a
  random stream of its own (the match's state and its random numbers stay the game's);
- ``PolicyPlayer`` (``policy:``): an SB3 model, masked, deterministic by default; where
  the model was trained with other observation settings than the match's config
  (``OBS_FIELDS``: ``obs_dtype``, ``view``, dungeon's ``shield``, coderunner's
  ``mirror``), it plays its own copy of the game put into the match's position (blue's
  move mirrored back where the two ``mirror`` settings differ);
- ``ProcessPlayer`` (``cmd:``, and ``python:`` through ``host``): a ``BotProcess``
  driven by a protocol, under ``Limits``;
- ``InProcessAgentPlayer`` (``python:`` with ``in_process=True``): the agent class run in
  the match process, for debugging only (no limits, no isolation).

A player has ``untimed`` (a person, who thinks without a clock: asked before the others
each turn, so that no program's clock runs meanwhile), ``start(game, e)`` and ``ready(game, e)`` (every player is started before
any is waited for), ``request(game, e)`` (send the turn's message: every
player is asked before any reply is read, so programs think at the same time),
``respond(game, e)`` (the seat's action), ``finish(game, e)`` and ``close()``, and keeps
its ``stats`` (``SeatStats``).  ``warn(seat, text)`` reports every skipped move.
"""
import dataclasses
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ..core import rng as rng_module
from ..registry import env_module
from . import host
from .process import CLOSED, LINE, OK, OVERSIZE, BotProcess, Limits
from .protocols import ELIMINATE, FORFEIT, Garbled, JsonReady, Protocol, Stale, protocol_class
from .spec import SpecError, parse_spec

HOST_START_S = 60.0        # a python: host imports botarena and compiles the game first
DUNGEON_TICK_S = 0.1       # the seed's tick: a later answer is used on the next tick
SEAT_SEED_STRIDE = 7919    # scripted bots' random streams: the match seed + seat * this
# config fields a policy may have been trained with otherwise than the match plays
OBS_FIELDS = ("obs_dtype", "view", "shield", "mirror")
# A python: host computes on one thread, as a contest bot on its core: OpenBLAS left to
# itself starts a thread per core, which spin against each other on a busy machine.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
PLAYING, CRASHED, ELIMINATED, FORFEITED, STOPPED = (
    "playing", "crashed", "eliminated", "forfeit", "stopped")


@dataclass
class SeatStats:
    """What happened to one seat: ``status`` (playing, crashed, eliminated, forfeit,
    stopped), counts of ``warnings``, ``timeouts``, ``garbled`` replies and ``moves``
    answered, reply ``latencies`` (seconds), the process' ``exit_code`` and ``log``."""
    name: str
    kind: str
    status: str = PLAYING
    warnings: int = 0
    timeouts: int = 0
    garbled: int = 0
    moves: int = 0
    latencies: list = field(default_factory=list)
    exit_code: int = None
    log: str = None

    def summary(self):
        out = {k: v for k, v in dataclasses.asdict(self).items() if k != "latencies"}
        out["latency_ms"] = latency_percentiles(self.latencies)
        out["latency_s"] = [round(x, LATENCY_DIGITS) for x in self.latencies]
        return out


PERCENTILES = (50, 90, 99)
LATENCY_DIGITS = 6          # microseconds


def latency_percentiles(latencies):
    """``{"p50", "p90", "p99", "max"}`` in milliseconds (empty without replies)."""
    if not latencies:
        return {}
    ms = np.asarray(latencies) * 1000.0
    out = {f"p{q}": round(float(np.percentile(ms, q)), 3) for q in PERCENTILES}
    out["max"] = round(float(ms.max()), 3)
    return out


def check_action(game, seat, action):
    """``action`` as the game takes it for ``seat``; ``Garbled`` if it is not one."""
    try:
        array = np.asarray(action)
    except (TypeError, ValueError):
        raise Garbled(f"action {action!r} is not a number or a list of numbers") from None
    shape = game.actions[0, seat].shape
    if array.dtype.kind not in "iu" or array.shape != shape:
        raise Garbled(f"action must be integers of shape {shape}, got {array.dtype} {array.shape}")
    if array.size and (array.min() < 0 or array.max() >= game.action_values()):
        raise Garbled(f"action values must be in [0, {game.action_values()})")
    return int(array) if not shape else array


class Player:
    eliminated = False        # set when the contest takes the seat out (apply once)
    forfeit = False
    untimed = False

    def __init__(self, spec, seat, warn):
        self.spec, self.seat, self.warn = spec, seat, warn
        self.stats = SeatStats(spec.name, spec.kind)

    def start(self, game, e=0):
        pass

    def ready(self, game, e=0):
        pass

    def request(self, game, e=0):
        pass

    def respond(self, game, e=0):
        raise NotImplementedError

    def finish(self, game, e=0):
        pass

    def close(self):
        pass

    def _timed(self, compute):
        started = time.monotonic()
        action = compute()
        self.stats.latencies.append(time.monotonic() - started)
        self.stats.moves += 1
        return action


class ScriptedPlayer(Player):
    def __init__(self, spec, seat, warn, game, seed):
        super().__init__(spec, seat, warn)
        _check_bot(spec, game.bots)
        self.bot = game.bots[spec.target]
        rows = np.zeros((1, rng_module.NUM_STREAMS), dtype=np.uint64)
        rng_module.seed_rows(rows, np.array([0]), [int(seed) + SEAT_SEED_STRIDE * (seat + 1)])
        self.stream = rows[0, rng_module.AGENT]
        self.env_ids = np.zeros(1, dtype=np.int64)
        self.agent_ids = np.full(1, seat, dtype=np.int64)

    def _act(self, game, e):
        state = game.copy_state([e])              # the bot writes scratch and its stream
        state.rng[0, rng_module.AGENT] = self.stream
        out = np.zeros((1,) + game.actions.shape[2:], dtype=np.int64)  # as every bot's caller
        self.bot(state, game.params, self.env_ids, self.agent_ids, out)
        self.stream = state.rng[0, rng_module.AGENT]
        return out[0] if out.ndim > 1 else int(out[0])

    def start(self, game, e=0):
        stream = self.stream
        self._act(game, e)                        # compiles the bot before turn 0
        self.stream = stream

    def respond(self, game, e=0):
        return self._timed(lambda: self._act(game, e))


class PolicyPlayer(Player):
    def __init__(self, spec, seat, warn, game, seed, deterministic=True):
        super().__init__(spec, seat, warn)
        import torch
        from ..training.evaluate import as_act_fn, load_model, trained_config
        torch.set_num_threads(1)
        rllib = spec.kind == "rllib"
        try:
            if rllib:
                from ..rllib import load_policy
                model = load_policy(spec.target, deterministic=deterministic)
            else:
                model = load_model(spec.target)
        except Exception as err:                  # noqa: BLE001 - any unreadable model
            what = "an RLlib checkpoint" if rllib else "an SB3 model"
            raise SpecError(f"player {spec.text!r}: not {what}: {err}") from None
        self.act = as_act_fn(model, deterministic)
        self.own = None
        self.mirrored = None            # the moves to mirror back (seat 1 of coderunner)
        space = model.observation_space
        _, trained = trained_config(spec.target)
        changes = {k: trained[k] for k in OBS_FIELDS
                   if k in trained and getattr(game.config, k, trained[k]) != trained[k]}
        changes["obs_dtype"] = "float32" if space.dtype == np.float32 else "uint8"
        if changes["obs_dtype"] != game.config.obs_dtype or len(changes) > 1 \
                or space.shape != game.observation_space.shape:
            config = dataclasses.replace(game.config, **changes)
            if "mirror" in changes and seat == 1:
                from ..envs.coderunner.constants import MIRRORED
                self.mirrored = MIRRORED
            self.own = type(game)(config, 1)
            self.own.reset(seed=seed)
            if self.own.observation_space.shape != space.shape:
                raise SpecError(f"player {spec.text!r}: the model reads observations of shape "
                                f"{space.shape}, this game gives {game.observation_space.shape}")

    def _act(self, game, e):
        if self.own is not None:
            self.own.restore(game.snapshot(e), 0)
            game, e = self.own, 0
        action = np.asarray(self.act(game.obs[e, self.seat][None],
                                     game.masks[e, self.seat][None]))[0]
        if self.mirrored is not None:
            action = self.mirrored[action]
        return check_action(game, self.seat, action)

    def respond(self, game, e=0):
        return self._timed(lambda: self._act(game, e))


class InProcessAgentPlayer(Player):
    def __init__(self, spec, seat, warn, env_id, seed):
        super().__init__(spec, seat, warn)
        self.env_id, self.seed = env_id, seed
        self.agent = None

    def start(self, game, e=0):
        try:
            self.agent = host.HostedAgent(self.env_id, game.config, self.seat,
                                          game.possible_agents, self.seed, self.spec.target,
                                          self.spec.cls, game.snapshot(e))
        except host.AgentLoadError as err:
            raise SpecError(str(err)) from None

    def respond(self, game, e=0):
        def compute():
            try:
                return check_action(game, self.seat, self.agent.act(game.snapshot(e)))
            except Exception as err:              # noqa: BLE001 - the agent's bug, reported
                self.stats.garbled += 1
                self.warn(self.seat, f"the agent raised {type(err).__name__}: {err}; no-op")
                return self._noop(game)
        return self._timed(compute)

    def _noop(self, game):
        return check_action(game, self.seat, game.actions[0, self.seat] * 0)


class HostProtocol(JsonReady, Protocol):
    """The match side of ``host``'s wire format (python: players)."""
    terminator = LINE
    nonce = True

    def __init__(self, game, seat, names, env_id, spec, seed):
        super().__init__(game, seat, names)
        self.env_id, self.spec, self.seed = env_id, spec, seed
        self.late_counts = env_id == host.DUNGEON      # the seed's asynchronous ticks
        base = Limits(turn_s=DUNGEON_TICK_S) if self.late_counts else _contest_limits(env_id)
        self.limits = base.replace(start_s=max(base.start_s, HOST_START_S))

    def hello(self, e):
        return host.frame({"env_id": self.env_id, "config": self.game.config, "seat": self.seat,
                           "agents": self.names, "seed": self.seed, "file": self.spec.target,
                           "cls": self.spec.cls, "snapshot": self.game.snapshot(e)})

    def message(self, e):
        return host.frame({"turn": int(self.game.state.steps[e]),
                           "snapshot": self.game.snapshot(e)})

    def parse(self, text, e):
        reply = self.reply_object(text)
        turn, now = reply.get("turn"), int(self.game.state.steps[e])
        if turn != now and not (self.late_counts and isinstance(turn, int) and turn < now):
            raise Stale(f"a reply to turn {turn!r}")
        if "error" in reply:
            raise Garbled(str(reply["error"]))
        return check_action(self.game, self.seat, reply.get("action"))


def _contest_limits(env_id):
    try:
        return protocol_class(env_id).limits
    except ValueError:
        return Limits()


class ProcessPlayer(Player):
    """A program behind a protocol (see the module doc and ``protocols``)."""

    def __init__(self, spec, seat, warn, argv, protocol, limits, log_path, env=None):
        super().__init__(spec, seat, warn)
        self.argv, self.protocol, self.limits, self.env = argv, protocol, limits, env
        self.stats.log = log_path
        self.proc = None
        self.hello_deadline = None
        self.awaiting_hello = False
        self.used = 0.0            # seconds of replies this game
        self.sent_at = None
        self.deadline = None       # of the reply awaited
        self.starting = False      # the first turn's reply is the start's (no hello reply)

    @property
    def out(self):
        return self.stats.status != PLAYING

    def _stop(self, status, reason):
        self.stats.status = status
        self.warn(self.seat, f"{reason}: {status}")
        if status == ELIMINATED:
            self.eliminated = True
        elif status == FORFEITED:
            self.forfeit = True
        self.close()

    def _failure(self, reason, crashed):
        """A timeout (``crashed`` False) or a crash: the contest's rule."""
        if self.protocol.on_failure == ELIMINATE:
            self._stop(ELIMINATED, reason)
        elif crashed:
            self._stop(CRASHED, reason + "; no-op to the end")
        else:
            self.warn(self.seat, reason + "; no-op")

    def start(self, game, e=0):
        self.hello_deadline = time.monotonic() + self.limits.start_s
        try:
            self.proc = BotProcess(self.argv, self.stats.log, self.limits,
                                   self.protocol.terminator, env=self.env)
        except OSError as err:
            self._failure(f"can't start {self.argv[0]!r}: {err}", crashed=True)
            return
        hello = self.protocol.hello(e)
        if hello is None:
            return
        if not self.proc.send(hello, self.hello_deadline):
            self._failure("did not take the first message", crashed=not self.proc.running)
        self.awaiting_hello = self.protocol.hello_reply
        self.starting = not self.protocol.hello_reply

    def ready(self, game, e=0):
        if self.out or not self.awaiting_hello:
            return
        status, text = self.proc.read(self.hello_deadline)
        if status == CLOSED:
            self._failure("exited before the game", crashed=True)
        elif status != OK:
            self._failure(f"no answer to the first message within {self.limits.start_s} s "
                          f"({status})", crashed=False)
        elif not self.protocol.check_hello(text):
            self.warn(self.seat, f"unexpected answer to the first message: {text[:60]!r}")

    def request(self, game, e=0):
        if self.out:
            return
        if not self.protocol.nonce:
            self.proc.drain()
        self.sent_at = time.monotonic()
        self.deadline = self.sent_at + self.limits.turn_s
        if self.starting:          # a protocol whose first message is not answered
            self.deadline = max(self.deadline, self.hello_deadline)
        self.proc.send(self.protocol.message(e), self.deadline)

    def respond(self, game, e=0):
        noop = self.protocol.noop()
        if self.out:
            return noop
        action = noop
        while True:
            status, text = self.proc.read(self.deadline)
            if status == OK:
                try:
                    action = self.protocol.parse(text, e)
                except Stale:
                    continue
                except Garbled as err:
                    self.stats.garbled += 1
                    self.warn(self.seat, f"garbled reply ({err}); no-op")
                else:
                    self.stats.moves += 1
                break
            if status == OVERSIZE:
                self.stats.garbled += 1
                self.warn(self.seat, f"reply over {self.limits.message_bytes} bytes; no-op")
            elif status == CLOSED:
                self._failure(f"exited (code {self.proc.returncode})", crashed=True)
            else:
                self.stats.timeouts += 1
                self._failure(f"no reply within {self.limits.turn_s} s", crashed=False)
            break
        elapsed = min(time.monotonic() - self.sent_at, self.limits.turn_s)
        if status == OK and not self.starting:     # the start-up is not a move's latency
            self.stats.latencies.append(elapsed)
        self.starting = False
        self.used += elapsed
        if not self.out and self.limits.game_s is not None and self.used > self.limits.game_s:
            forfeit = self.protocol.on_game_limit == FORFEIT
            self._stop(FORFEITED if forfeit else STOPPED,
                       f"spent its {self.limits.game_s} s for the game")
            return noop
        return action

    def finish(self, game, e=0):
        if self.proc is not None and not self.out:
            goodbye = self.protocol.goodbye(e)
            if goodbye is not None:
                self.proc.send(goodbye, time.monotonic() + self.limits.turn_s)
        self.close()

    def close(self):
        if self.proc is not None:
            self.stats.exit_code = self.proc.close()
            self.proc = None


def host_argv():
    """The command line of a python: player's host process."""
    return [sys.executable, "-m", "botarena.arena.host"]


def host_env():
    """A python: host's environment: numpy's BLAS on one thread (``ONE_THREAD``) unless
    the caller's environment says otherwise."""
    return dict(ONE_THREAD, **os.environ)


def _check_bot(spec, bots):
    if spec.target not in bots:
        raise SpecError(f"player {spec.text!r}: no bot {spec.target!r} in this game; bots: "
                        f"{', '.join(bots)}")


def check_spec(spec, env_id):
    """``SpecError`` for a player ``env_id`` can never seat (a bot it does not have, a
    program where it has no contest protocol), found without building a game: ``play``
    checks every player first, before the game's kernels compile."""
    if spec.kind == "bot":
        _check_bot(spec, env_module(env_id).Game.bots)
    elif spec.kind == "cmd":
        try:
            protocol_class(env_id)
        except ValueError as err:
            raise SpecError(f"player {spec.text!r}: {err}") from None


def make_player(spec, env_id, game, seat, seed, warn, log_path=None, limits=None,
                in_process=False, deterministic=True):
    """The player of ``spec`` (a string or ``PlayerSpec``) for ``seat`` of ``game``;
    ``limits``: a dict of ``Limits`` fields over the protocol's defaults."""
    spec = parse_spec(spec)
    check_spec(spec, env_id)
    names = list(game.possible_agents)
    if spec.kind == "bot":
        return ScriptedPlayer(spec, seat, warn, game, seed)
    if spec.kind in ("policy", "rllib"):
        return PolicyPlayer(spec, seat, warn, game, seed, deterministic)
    if spec.kind == "python" and in_process:
        return InProcessAgentPlayer(spec, seat, warn, env_id, seed)
    env = None
    if spec.kind == "python":
        protocol, argv = HostProtocol(game, seat, names, env_id, spec, seed), host_argv()
        env = host_env()
    else:
        protocol = protocol_class(env_id)(game, seat, names)
        argv = list(spec.target)
    return ProcessPlayer(spec, seat, warn, argv, protocol,
                         protocol.limits.replace(**(limits or {})), log_path, env)


def env_game(env_id, config=None):
    """A one-env game of ``env_id`` with ``config`` (a dict of Config fields)."""
    module = env_module(env_id)
    return module.Game(module.Config(**(config or {})), 1)
