"""Front-ends over the batched games: agent slots, opponents, SB3 and Gymnasium vector envs."""
