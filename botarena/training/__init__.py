"""Training entry points (need ``pip install botarena[train]``).

``python -m botarena.training.ppo --env paint_v0``: MaskablePPO against scripted bots and
self-play snapshots; ``python -m botarena.training.evaluate --model PATH``: win rates
against the game's scripted bots.  ``evaluate(policy, env_id, opponent, games)`` is
importable without torch.
"""
from .evaluate import evaluate, format_result

__all__ = ["evaluate", "format_result"]
