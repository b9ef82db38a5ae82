"""Speed benchmarks of botarena (``python -m benchmarks.steps_per_sec``)."""
