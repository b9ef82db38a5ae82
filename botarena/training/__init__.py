"""Training entry points (need ``pip install botarena[train]``).

``python -m botarena.training.ppo --env paint_v0``: MaskablePPO against scripted bots (and
optionally self-play snapshots); ``python -m botarena.training.evaluate --model PATH``: win
rates against the game's scripted bots.  ``botarena.training.evaluate.evaluate(policy,
env_id, opponent, games)`` needs no torch for a plain policy function.  (Nothing is
re-exported here, so that ``python -m botarena.training.evaluate`` imports it once.)
"""
