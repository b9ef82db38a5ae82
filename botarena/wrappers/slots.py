"""Agent slots: E envs x A agents flattened into the slots a single shared policy plays.

``AgentSlots(env_id, num_envs, opponent=None, **config)`` holds one batched game.

- ``opponent=None``: every agent of every env is a learner slot (shared-policy self-play),
  slot ``e * A + a``.
- otherwise each env has one learner seat and opponents on the others.  ``opponent`` is a
  bot name, an opponent or a policy (see ``opponents``), or a list of them: env ``e`` is
  played by ``opponent[e % len(opponent)]``.  The learner's seat rotates, env ``e`` seats
  it as agent ``e % A`` (so it learns every side), unless ``learner_seat`` fixes it.

Stepping auto-resets every env that ends, in the kernel; the last observation of a slot
whose episode ended is in ``final_obs``.  Seeds: env ``e`` gets ``seed + e``.

Buffers: the observations, masks, rewards and end flags handed out are written in place
into arrays allocated once (a copy out of the game's own buffers, split over numba's
threads with the threaded kernels).  ``OUT_BUFFERS`` sets of them alternate, so what a
step returned stays valid through the next step, and is overwritten by the one after:
SB3 stores a step's observations and masks in its rollout buffer only after the next
step.  Copy what you keep for longer.  With every agent a learner, the observations are
not copied: the game's ``obs`` is pointed at the set's buffer before each step
(``BatchedGame.point_obs``), and the kernel writes them there, bringing the buffer of
two steps ago up to date by replaying what the last step wrote (or drawing them whole:
``redraws_observations``, paint_v0).  With ``copy=False`` and every agent a learner
(``opponent=None``), the observations and masks handed out are the game's own buffers
instead (views, no copy: their slots are the game's rows), valid only until the next
step or reset: for loops that store a step's observations before they step again
(Gymnasium's ``copy=False``).

``close()`` closes the opponents that hold resources (``python:`` and ``cmd:`` ones end
their processes); the vector envs' ``close()`` calls it.

Agents that leave a game early (a dungeon player killed): a slot's episode is its env's
game.  Until the game ends, a slot whose agent is out gets reward 0 and its (out)
observations, and its actions are ignored (SuperSuit's "black death").  With opponents,
an env whose learner is out ends for the learner at once (an outcome of -1) and starts a
new game, so no step is spent on a game the learner no longer plays.
"""
import numpy as np

from ..core.jit import copy_parallel, hot
from ..registry import env_module
from .opponents import make_opponent

OUT_BUFFERS = 2   # sets of output arrays, used in turn (see above)
# the smallest copy split over numba's threads: below it (e.g. paint_v0's masks, 140 kB at
# 4096 envs) waking the threads cost more than they save (~20 us a copy)
PARALLEL_COPY_BYTES = 1 << 20


class AgentSlots:
    def __init__(self, env_id, num_envs, opponent=None, learner_seat=None, threads=None,
                 copy=True, **config):
        module = env_module(env_id)
        self.env_id = env_id
        self.game = module.Game(module.Config(**config), num_envs, threads)
        game = self.game
        E, A = game.num_envs, game.num_agents
        if learner_seat is not None and not 0 <= learner_seat < A:
            raise ValueError(f"learner_seat must be in [0, {A}), got {learner_seat}")
        if opponent is None:
            self.learner_env = np.repeat(np.arange(E), A)
            self.learner_agent = np.tile(np.arange(A), E)
            self.opponents = []
        else:
            specs = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
            if not specs:
                raise ValueError("opponent list is empty")
            seats = np.arange(E) % A if learner_seat is None else np.full(E, learner_seat)
            self.learner_env, self.learner_agent = np.arange(E), seats
            self.opponents = []
            for k, spec in enumerate(specs):
                envs = np.arange(k, E, len(specs))
                pairs = [(e, a) for e in envs for a in range(A) if a != seats[e]]
                if pairs:
                    env_ids, agent_ids = (np.array(x, dtype=np.int64) for x in zip(*pairs))
                    self.opponents.append((make_opponent(spec, game), env_ids, agent_ids,
                                           np.zeros((len(env_ids),) + game.action_shape(),
                                                    dtype=np.int64)))
        self.num_slots = len(self.learner_env)
        self._rows = self.learner_env * A + self.learner_agent   # slot -> row of (E * A)
        self._final_score = np.zeros(self.num_slots, dtype=np.int64)
        self._done = np.zeros(self.num_slots, dtype=np.bool_)     # scratch of step()
        self._env_ended = np.zeros(E, dtype=np.bool_)
        self._final_outcome = np.zeros(self.num_slots, dtype=np.int64)
        self._all_learners = opponent is None
        self._views = not copy and self._all_learners
        # the kernel writes into the set's own buffer (see above): the first is the game's
        self._in_place = self._all_learners and not self._views
        self.observation_space = game.observation_space
        self.action_space = game.action_space
        self._out = [{name: np.empty((self.num_slots,) + array.shape[2:], array.dtype)
                      for name, array in (("obs", game.obs), ("masks", game.masks),
                                          ("rewards", game.rewards),
                                          ("terminated", game.terminated),
                                          ("truncated", game.truncated))}
                     for _ in range(OUT_BUFFERS)]
        if self._in_place:
            self._out[0]["obs"] = game.obs.reshape(self._out[0]["obs"].shape)
            for out in self._out[1:]:
                out["obs"] = game.new_obs_buffer().reshape(out["obs"].shape)
        self._step_out = 0      # the set the next step (or reset) writes
        self._mask_out = 0      # the set the next action_masks() writes
        self._final_out, self._final_next = None, 0     # final_obs_of's arrays, the next

    def set_opponent_policy(self, policy):
        """Give every policy opponent ``policy`` (self-play snapshots)."""
        for opp, *_ in self.opponents:
            if hasattr(opp, "set_policy"):
                opp.set_policy(policy)

    def close(self):
        """Close every opponent that has a ``close`` (their processes end and are reaped)."""
        for opp, *_ in self.opponents:
            close = getattr(opp, "close", None)
            if close is not None:
                close()

    def _gather(self, array, out):
        """The slots' rows of a game buffer ``array[E, A, ...]``, written into ``out``."""
        rows = array.reshape((-1,) + array.shape[2:])
        if self._all_learners and self.game.threaded and array.nbytes >= PARALLEL_COPY_BYTES:
            copy_parallel(out.reshape(-1), rows.reshape(-1), self.game.chunks())
        elif self._all_learners:
            np.copyto(out, rows)
        else:   # "clip": the rows are valid, and numpy's default "raise" copies twice
            np.take(rows, self._rows, axis=0, out=out, mode="clip")
        return out

    def _hand_out(self, array, out):
        """A game buffer's slots as handed out: a view of its rows in the views mode
        (see above), else written into ``out``."""
        if self._views:
            return array.reshape((-1,) + array.shape[2:])
        return self._gather(array, out)

    def _hand_out_obs(self, out):
        """The observations as handed out: where the kernel wrote them into ``out``
        already, ``out`` itself."""
        return out if self._in_place else self._hand_out(self.game.obs, out)

    def _into_next(self, play):
        """``play()``, a reset or step of the game; where the kernel writes into the sets'
        buffers, with the game's ``obs`` pointed at the next set's buffer first, and
        pointed back if ``play`` raises (a refused step changes nothing)."""
        if not self._in_place:
            return play()
        game = self.game
        drawn = game.point_obs(self._out[self._step_out]["obs"].reshape(game.obs.shape))
        try:
            return play()
        except BaseException:
            game.point_obs(drawn)
            raise

    def _next_out(self):
        out = self._out[self._step_out]
        self._step_out = (self._step_out + 1) % OUT_BUFFERS
        return out

    def reset(self, seed=None):
        self._into_next(lambda: self.game.reset(seed))
        return self._hand_out_obs(self._next_out()["obs"])

    def action_masks(self):
        out = self._out[self._mask_out]["masks"]
        self._mask_out = (self._mask_out + 1) % OUT_BUFFERS
        return self._hand_out(self.game.masks, out)

    def step(self, actions):
        """Learner actions in, ``(obs, rewards, terminated, truncated)`` of the slots out.

        A slot is terminated or truncated on the step its episode ends; ``final_obs(slots)``
        and ``final_results(slots)`` then describe the episodes that ended."""
        game = self.game
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got dtype {actions.dtype}")
        shape = (self.num_slots,) + game.action_shape()
        if actions.shape != shape:
            raise ValueError(f"actions must have shape {shape} (one per slot), got "
                             f"{actions.shape}")
        if self._all_learners:      # slot e * A + a is agent a of env e: the game's layout
            self._into_next(lambda: game.step(actions.reshape(game.actions.shape),
                                              autoreset=True))
        else:
            game.write_actions((self.learner_env, self.learner_agent), actions)
            for opp, env_ids, agent_ids, buf in self.opponents:
                opp.act(game, env_ids, agent_ids, buf)
                game.write_actions((env_ids, agent_ids), buf)    # a policy's, checked too
            game.step(autoreset=True)
        out = self._next_out()
        rewards, terminated, truncated = out["rewards"], out["terminated"], out["truncated"]
        slot_env, slot_agent, done = self.learner_env, self.learner_agent, self._done
        if slot_flags(game.terminated, game.truncated, game.rewards, self._rows, slot_env,
                      self._all_learners, self._env_ended, rewards, terminated, truncated,
                      done):
            ended = np.flatnonzero(done)
            envs, agents = slot_env[ended], slot_agent[ended]
            self._final_score[ended] = game.final_scores[envs, agents]
            self._final_outcome[ended] = outcomes(game.final_rank_keys[envs], agents)
        if self.opponents:
            left = terminated & ~done
            if left.any():
                envs = slot_env[left]
                game.final_obs[envs] = game.obs[envs]
                for i in np.flatnonzero(left):
                    self._final_score[i] = game.scores[slot_env[i], slot_agent[i]]
                    self._final_outcome[i] = -1
                game.reset(env_ids=envs)
                done = done | left
        truncated &= done
        np.logical_and(done, ~truncated, out=terminated)
        return self._hand_out_obs(out["obs"]), rewards, terminated, truncated

    def final_obs(self, slots):
        """The last observations of the episodes of ``slots`` (an int array of slots whose
        episode just ended), one new array ``[len(slots), ...]``."""
        return self.game.final_obs[self.learner_env[slots], self.learner_agent[slots]]

    def final_obs_of(self, done):
        """Every slot's last observation where ``done`` (a mask of the slots whose episode
        just ended; other rows hold older data): a view of the game's buffer in the views
        mode, else one of ``OUT_BUFFERS`` arrays used in turn (made at the first call; a
        new array of tens of MB at every step cost more than the step's copies)."""
        if self._views:
            return self._hand_out(self.game.final_obs, None)
        rows = self.game.final_obs.reshape((-1,) + self.game.final_obs.shape[2:])
        if self._final_out is None:
            self._final_out = [np.zeros((self.num_slots,) + rows.shape[1:], rows.dtype)
                               for _ in range(OUT_BUFFERS)]
        final = self._final_out[self._final_next]
        self._final_next = (self._final_next + 1) % OUT_BUFFERS
        ended = np.flatnonzero(done)
        final[ended] = rows[self._rows[ended]]
        return final

    def final_results(self, slots):
        """(scores, outcomes: +1 win / 0 draw / -1 loss), int arrays, of the episodes of
        ``slots`` (as ``final_obs``)."""
        return self._final_score[slots], self._final_outcome[slots]


@hot(python=True, outermost=True)
def slot_flags(terminated, truncated, rewards, rows, slot_env, in_order, env_ended,
               out_rewards, out_terminated, out_truncated, done):
    """A step's rewards and flags of the slots (numpy's ``all(axis=1)`` over two agents
    alone took 60-80 us at 4,096 envs; this, ~11 us): ``env_ended[e]``, every agent of
    env e terminated or truncated; for slot i, row ``rows[i]`` of the game's ``[E, A]``
    arrays (flat) in env ``slot_env[i]``: its reward, terminated and truncated flags as the
    game set them, and ``done[i]``, its env ended.  ``in_order``: slot i is row i (every
    agent a slot), copied without the index.  Returns how many slots are done.  The
    flags are read and written as bytes: numba's bool loads and stores test each value."""
    E, A = terminated.shape
    term = terminated.reshape(E * A).view(np.uint8)
    trunc = truncated.reshape(E * A).view(np.uint8)
    rew = rewards.reshape(E * A)
    ended = env_ended.view(np.uint8)
    out_term, out_trunc = out_terminated.view(np.uint8), out_truncated.view(np.uint8)
    out_done = done.view(np.uint8)
    for e in range(E):
        all_out = 1
        for a in range(A):
            all_out &= term[e * A + a] | trunc[e * A + a]
        ended[e] = all_out
    if in_order:        # one loop each: they vectorize
        for i in range(E * A):
            out_rewards[i] = rew[i]
        for i in range(E * A):
            out_term[i] = term[i]
        for i in range(E * A):
            out_trunc[i] = trunc[i]
    else:
        for i in range(rows.shape[0]):
            k = rows[i]
            out_rewards[i] = rew[k]
            out_term[i] = term[k]
            out_trunc[i] = trunc[k]
    count = 0
    for i in range(rows.shape[0]):
        d = ended[slot_env[i]]
        out_done[i] = d
        count += d
    return count


def outcomes(rank_keys, agents):
    """+1 / 0 / -1: whether ``agents[i]`` ranks above, level with or below the best other
    agent of row ``i`` of ``rank_keys`` (``[n, A]``)."""
    rows = np.arange(len(agents))
    mine = rank_keys[rows, agents]
    others = rank_keys.copy()
    others[rows, agents] = -np.inf
    return np.sign(mine - others.max(axis=1)).astype(np.int64)
