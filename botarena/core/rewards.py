"""The reward modes every game offers, and the last phase of every step.

``score``     the change of the agent's own game score this step (default);
``zero_sum``  the change of (own score - best opponent score): the sum over an episode is
              the final margin over the best opponent;
``win_loss``  0 until the end, then +1 (strictly best rank key), 0 (tied for best) or -1;
              an agent that leaves the game while others play on gets its -1 then
              (the games rank those who leave below those who stay).

An agent that left the game on an earlier step gets reward 0 and stays terminated.
"""
import numpy as np
from .jit import hot
REWARD_MODES = {"score": 0, "zero_sum": 1, "win_loss": 2}
SCORE, ZERO_SUM, WIN_LOSS = 0, 1, 2


@hot
def margin(values, a):
    """``values[a]`` minus the best value of the other agents."""
    best = -np.inf
    for b in range(values.shape[0]):
        if b != a and values[b] > best:
            best = values[b]
    return values[a] - best


@hot(python=True)
def outcome(rank_key, a):
    """+1 if agent ``a`` is strictly best by ``rank_key``, 0 if tied for best, else -1."""
    m = margin(rank_key, a)
    if m > 0:
        return 1.0
    if m == 0:
        return 0.0
    return -1.0


@hot(python=True)
def finish_step(mode, max_steps, steps, game_over, alive, prev_alive, scores, prev_scores,
                rank_key, rewards, terminated, truncated):
    """Rewards and end flags of one env after its rule phases; True when the env is done.

    ``game_over``: the rules ended the game.  ``alive[a]``: agent ``a`` is still playing;
    ``prev_alive[a]``: it was before this step.  ``max_steps > 0`` truncates the episode
    after that many steps if the game goes on.  ``prev_scores`` and ``prev_alive`` are
    updated to ``scores`` and ``alive``.
    """
    truncate = (not game_over) and max_steps > 0 and steps >= max_steps
    for a in range(scores.shape[0]):
        if not prev_alive[a]:
            rewards[a] = 0.0
        elif mode == SCORE:
            rewards[a] = scores[a] - prev_scores[a]
        elif mode == ZERO_SUM:
            rewards[a] = margin(scores, a) - margin(prev_scores, a)
        elif game_over:
            rewards[a] = outcome(rank_key, a)
        elif not alive[a]:
            rewards[a] = -1.0
        else:
            rewards[a] = 0.0
        terminated[a] = game_over or not alive[a]
        truncated[a] = truncate and alive[a]
    for a in range(scores.shape[0]):
        prev_scores[a] = scores[a]
        prev_alive[a] = alive[a]
    return game_over or truncate
