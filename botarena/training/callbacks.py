"""The trainer's SB3 callback: the wall-clock budget, progress, outcome stats and the
self-play snapshot's refresh (built lazily: it subclasses SB3's ``BaseCallback``, and
importing this module needs no SB3)."""
import copy
import time
from collections import deque

import numpy as np


RECENT_OUTCOMES = 500               # episodes in the printed mean outcome
RECENT_OUTCOMES_BY_OPPONENT = 300   # episodes per opponent in it
BAR_TOTAL = 1000                    # the progress bar counts per mille of the budget
BAR_EVERY_STEPS = 16                # vec env steps between progress bar refreshes


def training_callback(minutes, total_timesteps, opponent_names, self_play_every, print_every_s,
                      progress):
    """The ``Training`` callback: stops at ``minutes`` of wall clock (None: no cap), prints
    every ``print_every_s``, keeps the outcomes by opponent (``opponent_names[i]`` plays env
    ``i`` modulo their number) and refreshes the self-play snapshot every
    ``self_play_every`` rollouts."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Training(BaseCallback):
        """Wall-clock budget, progress bar and print, outcome stats, self-play refresh."""

        def __init__(self):
            super().__init__()
            self.budget_s = None if minutes is None else 60.0 * minutes
            self.start = None
            self.last_print = None
            self.recent = deque(maxlen=RECENT_OUTCOMES)
            self.recent_by_opp = {name: deque(maxlen=RECENT_OUTCOMES_BY_OPPONENT)
                                  for name in set(opponent_names)}
            self.episodes = 0
            self.rollouts = 0
            self.snapshots = 0
            self.bar = None
            self.history = []
            self.stopped_by_clock = False

        def fraction(self):
            done = self.num_timesteps / total_timesteps
            if self.budget_s is not None:
                done = max(done, (time.perf_counter() - self.start) / self.budget_s)
            return min(done, 1.0)

        def _on_training_start(self):
            self.start = self.last_print = time.perf_counter()
            self.start_steps = self.num_timesteps
            if progress:
                try:
                    from tqdm.auto import tqdm
                    self.bar = tqdm(total=BAR_TOTAL, unit="‰", dynamic_ncols=True,
                                    bar_format="{l_bar}{bar}| {elapsed}<{remaining} {postfix}")
                except ImportError:
                    self.bar = None
            self.refresh_snapshot()

        def refresh_snapshot(self):
            if "self" not in opponent_names:
                return
            snap = copy.deepcopy(self.model.policy)
            snap.set_training_mode(False)
            self.training_env.slots.set_opponent_policy(snap)
            self.snapshots += 1

        def _on_rollout_end(self):
            self.rollouts += 1
            if self_play_every and self.rollouts % self_play_every == 0:
                self.refresh_snapshot()

        def write(self, line):
            if self.bar is not None:
                self.bar.write(line)
            else:
                print(line, flush=True)

        def status(self):
            elapsed = time.perf_counter() - self.start
            fps = (self.num_timesteps - self.start_steps) / max(elapsed, 1e-9)
            mean = float(np.mean(self.recent)) if self.recent else float("nan")
            by = " ".join(f"{k}={np.mean(v):+.2f}" for k, v in sorted(self.recent_by_opp.items())
                          if v)
            return elapsed, fps, mean, by

        def _on_step(self):
            dones = self.locals["dones"]
            if dones.any():
                infos = self.locals["infos"]
                for i in np.flatnonzero(dones):
                    outcome = infos[i].get("outcome")
                    if outcome is None:
                        continue
                    self.episodes += 1
                    self.recent.append(outcome)
                    self.recent_by_opp[opponent_names[i % len(opponent_names)]].append(outcome)
            now = time.perf_counter()
            if self.bar is not None and self.n_calls % BAR_EVERY_STEPS == 0:
                self.bar.n = int(BAR_TOTAL * self.fraction())
                self.bar.set_postfix_str(f"{self.num_timesteps} steps")
                self.bar.refresh()
            if now - self.last_print >= print_every_s:
                self.last_print = now
                self.print_status()
            if self.budget_s is not None and now - self.start >= self.budget_s:
                self.stopped_by_clock = True
                return False
            return True

        def print_status(self):
            elapsed, fps, mean, by = self.status()
            self.history.append({"seconds": round(elapsed, 1), "timesteps": self.num_timesteps,
                                 "mean_outcome": mean})
            self.write(f"[{elapsed:6.0f}s] {self.num_timesteps:>9d} steps  {fps:6.0f} fps  "
                       f"{self.episodes:>6d} episodes  mean outcome {mean:+.2f}  ({by})")

        def _on_training_end(self):
            self.print_status()
            if self.bar is not None:
                self.bar.n = BAR_TOTAL
                self.bar.close()

    return Training()
