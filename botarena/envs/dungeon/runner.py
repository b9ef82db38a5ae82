"""The dungeon contest runner (the seed's ``coderone-dungeon``): ``python -m
botarena.envs.dungeon`` or ``botarena-dungeon``: the window, the keyboard player and
``--watch``, with the agents inside this process (for developing an agent).  Matches
between agents isolated in processes of their own, under time and memory limits, are
the arena's: ``botarena match dungeon_v0 python:a.py python:b.py`` (``botarena.arena``).

``Runner(agents, ...)`` plays one match of contest agents (see ``agents``) on a
``DungeonGame``:

- synchronous (RL-style; the default when headless): every tick asks each agent for its
  move and waits for all of them, up to ``move_timeout`` seconds each (an agent still busy
  with an earlier move is not asked and does nothing; its late answer is dropped).
  Headless synchronous matches run as fast as the agents answer.
- real-time (``realtime=True``; the default with a window): the game ticks every
  ``tick_step`` seconds whether or not an agent answered.  Each agent runs in its own
  thread on the latest game_state it was given; an answer that arrives late is used on the
  next tick (the seed's asynchrony); a hanging agent never blocks the game.

In both modes an agent that raises, or answers anything but '' u d l r p, does nothing that
tick (with a warning on stderr for every such tick) and the match goes on.  Builtin bots
are compiled before tick 0, so their first move is not late.  ``interactive`` adds a player for
the keyboard (arrows move, space bombs, Enter pauses, R restarts on a new map, Esc quits);
``watch`` reloads an agent file when it changes (between ticks); ``record`` writes a replay
(``botarena.replay``: the format of every game).  The window uses pygame (imported only when one opens).
"""
import argparse
import os
import sys
import threading
import time
from dataclasses import replace
from types import SimpleNamespace

import numpy as np

from ... import replay as replay_module
from ...core import rng as rng_module
from .agents import (ACTIONS, AgentLoadError, AgentSpec, BotAgent, action_index, load_agent,
                     make_states)
from .config import Config
from .constants import MAX_PLAYERS, RANDOM_BOARD
from .game import DungeonGame

WINDOW_SCALE = 2


def result_of(game, names=None):
    """The match result: ``tick``, ``over``, ``winner`` (player index, -1 for a draw or a
    game still going), ``scores``, ``hp``, ``alive``, ``names``."""
    snap = game.snapshot()
    return {"tick": snap["tick"], "over": snap["over"], "winner": snap["winner"],
            "scores": [int(x) for x in snap["scores"]], "hp": [int(x) for x in snap["hp"]],
            "alive": [bool(x) for x in snap["alive"]],
            "names": list(names) if names else [f"player_{a}" for a in range(game.num_agents)]}


def format_result(result):
    lines = [f"game {'over' if result['over'] else 'stopped'} at tick {result['tick']}"]
    for a, name in enumerate(result["names"]):
        lines.append(f"  player {a} ({name}): score {result['scores'][a]}, hp {result['hp'][a]}"
                     f"{'' if result['alive'][a] else ' (dead)'}")
    w = result["winner"]
    if not result["over"]:
        lines.append("no winner: the game did not finish")
    elif w < 0:
        lines.append("result: draw")
    else:
        lines.append(f"winner: player {w} ({result['names'][w]})")
    return "\n".join(lines)


class _Worker:
    """One agent in its own daemon thread: ``post`` a (game_state, player_state), ``take``
    the latest answer ``(tick, move, error)``."""

    def __init__(self, agent, pid):
        self.agent, self.pid = agent, pid
        self._cond = threading.Condition()
        self._request = None
        self._answer = None
        self.busy = False
        self.stopped = False
        self._thread = threading.Thread(target=self._loop, daemon=True,
                                        name=f"dungeon-agent-{pid}")
        self._thread.start()

    def post(self, gs, ps):
        with self._cond:
            self._request = (gs, ps)
            self._cond.notify_all()

    def take(self):
        with self._cond:
            answer, self._answer = self._answer, None
            return answer

    def wait(self, tick, deadline):
        """The answer for ``tick`` if it comes before ``deadline`` (monotonic), else None."""
        with self._cond:
            while True:
                if self._answer is not None and self._answer[0] >= tick:
                    answer, self._answer = self._answer, None
                    return answer
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left)

    def stop(self):
        with self._cond:
            self.stopped = True
            self._request = None
            self._cond.notify_all()

    def _loop(self):
        while True:
            with self._cond:
                while self._request is None and not self.stopped:
                    self._cond.wait()
                if self.stopped:
                    return
                gs, ps = self._request
                self._request = None
                self.busy = True
            try:
                move, error = self.agent.next_move(gs, ps), None
            except BaseException as err:          # noqa: BLE001 - an agent's bug is reported
                move, error = None, err
            with self._cond:
                self.busy = False
                if self.stopped:
                    return
                self._answer = (gs.tick_number, move, error)
                self._cond.notify_all()


class _Human:
    """The keyboard player: the last key pressed since the previous tick."""

    def __init__(self):
        self.pending = ""

    def take(self):
        move, self.pending = self.pending, ""
        return move


class Runner:
    """One match.  ``agents``: specs (file, module, ``bot:NAME``), ``AgentSpec``s, or agent
    classes / factories ``f(player_num, env)``.  ``config``: a ``Config`` or a dict of its
    fields (``num_players`` follows the agents).  ``on_tick(runner)`` is called after each
    tick (tests, tools).  ``run()`` returns the result (``result_of``)."""

    def __init__(self, agents, config=None, seed=None, headless=True, realtime=None,
                 interactive=False, watch=False, record=None, max_iterations=3000,
                 tick_step=0.1, move_timeout=1.0, start_paused=False, wait_end=None,
                 out=None, err=None, on_tick=None, verbose=False):
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.specs = []
        for a in agents:
            if isinstance(a, (str, os.PathLike)):
                a = load_agent(os.fspath(a))
            self.specs.append(a)
        self.interactive = bool(interactive)
        self.headless = bool(headless)
        if self.interactive and self.headless:
            raise ValueError("--interactive needs the window (not --headless)")
        players = len(self.specs) + (1 if self.interactive else 0)
        if isinstance(config, dict):
            config = Config(**config)
        config = config or Config()
        if isinstance(config.board, str) and config.board == RANDOM_BOARD:
            if not 2 <= players <= MAX_PLAYERS:
                raise ValueError(f"a match takes 2 to {MAX_PLAYERS} players, got {players} "
                                 f"({len(self.specs)} agents{' + 1 human' if interactive else ''})")
            config = replace(config, num_players=players)
        self.config = config
        self.game = DungeonGame(config, 1)
        if self.game.num_agents != players:
            raise ValueError(f"the map has {self.game.num_agents} players but {players} were given")
        self.human_id = len(self.specs) if self.interactive else None
        self.names = [s.name if isinstance(s, AgentSpec) else
                      getattr(s, "__name__", type(s).__name__) for s in self.specs]
        if self.interactive:
            self.names.append("human")
        self.seed = int(rng_module.fresh_seed() if seed is None else seed) % (2 ** 63)
        self.realtime = (not self.headless) if realtime is None else bool(realtime)
        self.watch = bool(watch)
        self.record_path = record
        self.max_iterations = int(max_iterations)
        self.tick_step = float(tick_step)
        self.move_timeout = None if move_timeout is None or move_timeout <= 0 else float(move_timeout)
        self.paused = bool(start_paused) and not self.headless
        self.wait_end = (0.0 if self.headless else 5.0) if wait_end is None else float(wait_end)
        self.on_tick = on_tick
        self.verbose = verbose
        self.iterations = 0
        self.restarts = 0
        self.history = []                 # (tick, [moves]) of the current game
        self.warnings = [0] * players
        self.reloads = 0
        self.recorder = None
        self.window = None
        self.workers = [None] * players
        self.human = _Human() if self.interactive else None
        self._stop = False

    # -- agents ---------------------------------------------------------------------------
    def _env_info(self, pid):
        return SimpleNamespace(config=self.config, num_players=self.game.num_agents,
                               size=(self.game.width, self.game.height), player_num=pid,
                               seed=self.seed, tick_step=self.tick_step, realtime=self.realtime)

    def _make(self, pid):
        spec = self.specs[pid]
        maker = spec.make if isinstance(spec, AgentSpec) else spec
        try:
            agent = maker(pid, self._env_info(pid))
        except Exception as err:
            self.warn(pid, f"Agent({pid}, env) raised {type(err).__name__}: {err}; "
                           "it does nothing")
            return None
        if isinstance(agent, BotAgent):          # compile the jitted bot before tick 0
            stream = agent._rng
            game_state, players = make_states(self.game)
            agent.next_move(game_state, players[pid])
            agent._rng = stream
        return agent

    def _start_agents(self):
        for pid in range(len(self.specs)):
            self._replace_worker(pid)

    def _replace_worker(self, pid):
        old = self.workers[pid]
        if old is not None:
            old.stop()
        agent = self._make(pid)
        self.workers[pid] = None if agent is None else _Worker(agent, pid)

    def _check_watch(self):
        seen = set()
        for pid, spec in enumerate(self.specs):
            if not isinstance(spec, AgentSpec) or id(spec) in seen or not spec.changed():
                continue
            seen.add(id(spec))
            try:
                spec.reload()
            except AgentLoadError as err:
                self.log(f"watch: {err}; keeping the previous version")
                continue
            self.reloads += 1
            self.log(f"watch: reloaded {spec.text} at tick {self.tick}")
            for q, other in enumerate(self.specs):
                if other is spec:
                    self._replace_worker(q)

    def log(self, message):
        print(message, file=self.err, flush=True)

    def warn(self, pid, message):
        self.warnings[pid] += 1
        self.log(f"warning: player {pid} ({self.names[pid]}), tick {self.tick}: {message}")

    def _move_of(self, pid, answer):
        if answer is None:
            return ""
        _, move, error = answer
        if error is not None:
            self.warn(pid, f"next_move raised {type(error).__name__}: {error}; doing nothing")
            return ""
        index = action_index(move)
        if index is None:
            self.warn(pid, f"next_move returned {move!r}, not one of '' u d l r p; doing nothing")
            return ""
        return ACTIONS[index]

    # -- the game -------------------------------------------------------------------------
    @property
    def tick(self):
        return int(self.game.state.tick[0])

    @property
    def over(self):
        return bool(self.game.over[0])

    def _post_states(self):
        gs, players = make_states(self.game)
        for pid, w in enumerate(self.workers):
            if w is not None and not w.stopped:
                w.post(gs, players[pid])

    def _collect(self):
        moves = [""] * self.game.num_agents
        tick = self.tick
        if self.realtime:
            for pid, w in enumerate(self.workers):
                if w is not None:
                    moves[pid] = self._move_of(pid, w.take())
        else:
            asked = []
            gs, players = make_states(self.game)
            for pid, w in enumerate(self.workers):
                if w is None:
                    continue
                w.take()                              # a late answer to an earlier tick
                if w.busy:
                    continue                          # still thinking about an old tick
                w.post(gs, players[pid])
                asked.append(pid)
            deadline = None if self.move_timeout is None else time.monotonic() + self.move_timeout
            for pid in asked:
                answer = self.workers[pid].wait(tick, deadline)
                if answer is None:
                    self.warn(pid, f"no move within {self.move_timeout} s; doing nothing")
                moves[pid] = self._move_of(pid, answer)
        if self.human is not None:
            moves[self.human_id] = self.human.take()
        return moves

    def step(self):
        """Play one tick: watch, collect the moves, step the game, record, post states."""
        if self.watch:
            self._check_watch()
        moves = self._collect()
        actions = [ACTIONS.index(m) for m in moves]
        self.game.step(np.array([actions], dtype=np.int64))
        self.iterations += 1
        self.history.append((self.tick, moves))
        if self.recorder is not None:
            self.recorder.turn(int(self.game.state.steps[0]), actions, self.game.snapshot())
        if self.verbose:
            self.out.write(self.game.render_ansi())
        if self.realtime:
            self._post_states()
        if self.on_tick is not None:
            self.on_tick(self)

    def restart(self, seed=None):
        """A new game on a new map (interactive R); agents are rebuilt."""
        self.restarts += 1
        seed = rng_module.fresh_seed() if seed is None else int(seed)
        self.game.reset(seed=seed)
        self.history = []
        if self.recorder is not None:
            self.recorder.reset(seed, self.game.snapshot())
        self._start_agents()
        if self.realtime:
            self._post_states()

    def stop(self):
        self._stop = True

    def _finished(self):
        return self._stop or self.over or self.iterations >= self.max_iterations

    def run(self):
        self.game.reset(seed=self.seed)
        if self.record_path:
            self.recorder = replay_module.Recorder(self.record_path, "dungeon_v0", self.config,
                                                   self.seed, self.names, self.game.snapshot())
        try:
            self._start_agents()
            if self.realtime:
                self._post_states()
            if self.headless:
                self._run_headless()
            else:
                self._run_window()
        finally:
            for w in self.workers:
                if w is not None:
                    w.stop()
            result = self.result()
            if self.recorder is not None:
                self.recorder.end(result)
            if self.window is not None:
                self.window.close()
        return result

    def result(self):
        return result_of(self.game, self.names)

    def _run_headless(self):
        next_tick = time.monotonic() + self.tick_step
        while not self._finished():
            if self.realtime:
                left = next_tick - time.monotonic()
                if left > 0:
                    time.sleep(left)
                next_tick = max(next_tick + self.tick_step, time.monotonic())
            self.step()

    # -- the window -----------------------------------------------------------------------
    def _open_window(self):
        from ...core.window import HumanWindow
        self.window = HumanWindow("botarena dungeon", fps=1000)
        self._draw()

    def _draw(self):
        frame = self.game.render_rgb()
        if WINDOW_SCALE > 1:
            frame = frame.repeat(WINDOW_SCALE, 0).repeat(WINDOW_SCALE, 1)
        s = self.game.snapshot()
        status = " ".join(f"{self.names[a]}:{s['scores'][a]}/{s['hp'][a]}hp"
                          for a in range(self.game.num_agents))
        flag = " [paused]" if self.paused else (" [over]" if self.over else "")
        self.window.pygame.display.set_caption(f"dungeon tick {s['tick']}{flag}  {status}")
        self.window.show(frame)

    def _handle_events(self):
        pg = self.window.pygame
        keys = {pg.K_UP: "u", pg.K_DOWN: "d", pg.K_LEFT: "l", pg.K_RIGHT: "r", pg.K_SPACE: "p"}
        for event in pg.event.get():
            if event.type == pg.QUIT:
                self._stop = True
            elif event.type == pg.KEYDOWN:
                if event.key == pg.K_ESCAPE:
                    self._stop = True
                elif event.key in (pg.K_RETURN, pg.K_KP_ENTER):
                    self.paused = not self.paused
                elif event.key == pg.K_r:
                    self.restart()
                    self._ended_at = None
                elif event.key in keys and self.human is not None:
                    self.human.pending = keys[event.key]

    def _run_window(self):
        self._open_window()
        next_tick = time.monotonic() + self.tick_step
        self._ended_at = None
        while not self._stop:
            self._handle_events()
            if self._stop:
                break
            now = time.monotonic()
            if self.over or self.iterations >= self.max_iterations:
                if self._ended_at is None:
                    self._ended_at = now
                    self._draw()
                if now - self._ended_at >= self.wait_end:
                    break
                time.sleep(0.02)
                continue
            if self.paused:
                next_tick = now + self.tick_step
                self._draw()
                time.sleep(0.02)
                continue
            if now >= next_tick:
                self.step()
                next_tick = max(next_tick + self.tick_step, time.monotonic())
                self._draw()
            else:
                time.sleep(min(0.01, next_tick - now))


def play_replay(path, headless=True, tick_step=0.1, out=None, wait_end=None):
    """Replay and verify ``path``; prints the result.  With a window, shows it at
    ``tick_step`` seconds per tick.  Returns the result; raises ``ReplayError``."""
    out = out or sys.stdout
    window = None
    if not headless:
        from ...core.window import HumanWindow
        window = HumanWindow("botarena dungeon replay", fps=1000)

    def show(game):
        frame = game.render_rgb().repeat(WINDOW_SCALE, 0).repeat(WINDOW_SCALE, 1)
        window.pygame.display.set_caption(f"dungeon replay tick {int(game.state.tick[0])}")
        window.show(frame)
        for event in window.pygame.event.get():
            if event.type == window.pygame.QUIT:
                raise KeyboardInterrupt
        time.sleep(tick_step)

    try:
        game, header, recorded = replay_module.play(path, verify=True,
                                                    on_turn=show if window else None)
        result = result_of(game, header.get("agents"))
        if recorded is not None and recorded != replay_module.plain(result):
            raise replay_module.ReplayError("the recorded result differs from the replayed one")
        print(format_result(result), file=out)
        print("replay verified", file=out)
        if window is not None:
            time.sleep(5.0 if wait_end is None else wait_end)
        return result
    finally:
        if window is not None:
            window.close()


def build_parser():
    p = argparse.ArgumentParser(
        prog="botarena-dungeon",
        description="Run a dungeon match between contest agents (files with a class Agent, "
                    "module names, or builtin bots such as bot:safe_bomber).")
    p.add_argument("agents", nargs="*", help="agent files (agent.py), module names or bot:NAME")
    p.add_argument("--headless", action="store_true", help="no window; print the result")
    p.add_argument("--interactive", action="store_true",
                   help="add a keyboard player (arrows move, space bombs, Enter pauses, R restarts)")
    p.add_argument("--watch", action="store_true", help="reload agent files when they change")
    p.add_argument("--record", metavar="FILE", help="write a replay (JSON lines)")
    p.add_argument("--replay", metavar="FILE", help="play back and verify a replay")
    p.add_argument("--max-iterations", type=int, default=3000, help="ticks at most (3000)")
    p.add_argument("--tick-step", type=float, default=0.1, help="seconds per tick (0.1)")
    p.add_argument("--seed", type=int, default=None, help="map and game seed (random)")
    p.add_argument("--start-paused", action="store_true", help="window: start paused (Enter starts)")
    p.add_argument("--wait-end", type=float, default=None,
                   help="seconds the window stays after the end (5)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--realtime", dest="realtime", action="store_true", default=None,
                      help="tick every tick-step whatever the agents do (default with a window)")
    mode.add_argument("--sync", dest="realtime", action="store_false",
                      help="wait for every agent each tick (default when headless)")
    p.add_argument("--move-timeout", type=float, default=1.0,
                   help="synchronous mode: seconds an agent may think per move (1.0; 0 = no limit)")
    p.add_argument("--board", default=None, help="map: 'random' (default), 'classic' or a file")
    p.add_argument("--max-ticks", type=int, default=None, help="game length in ticks (1800)")
    p.add_argument("--verbose", action="store_true", help="print the board after every tick")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.headless:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        if args.replay:
            if args.agents:
                print("error: --replay takes no agents", file=sys.stderr)
                return 2
            play_replay(args.replay, headless=args.headless, tick_step=args.tick_step,
                        wait_end=args.wait_end)
            return 0
        needed = 1 if args.interactive else 2
        if len(args.agents) < needed:
            print(f"error: give at least {needed} agent{'s' if needed > 1 else ''} "
                  "(files, modules or bot:NAME)", file=sys.stderr)
            return 2
        overrides = {}
        if args.board:
            overrides["board"] = args.board
        if args.max_ticks:
            overrides["max_turns"] = args.max_ticks
        runner = Runner(args.agents, config=Config(**overrides), seed=args.seed,
                        headless=args.headless, realtime=args.realtime,
                        interactive=args.interactive, watch=args.watch, record=args.record,
                        max_iterations=args.max_iterations, tick_step=args.tick_step,
                        move_timeout=args.move_timeout, start_paused=args.start_paused,
                        wait_end=args.wait_end, verbose=args.verbose)
        result = runner.run()
    except (AgentLoadError, replay_module.ReplayError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(format_result(result))
    if args.record:
        print(f"replay written to {args.record}")
    return 0
