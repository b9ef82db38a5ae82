"""Parts shared by every game: RNG, grids, the batched-game contract and its front-ends."""
