"""A path-aware features extractor for grid games where an avatar walks to targets.

    python -m botarena.training.ppo --env dungeon_v0 --arch paths --config 'view="board"'

A flat MLP or a few convolutions over the planes cannot see how far a target is by
walking: the cloned dungeon_v0 trapper (whose choice is the cell worth the most points
per step of a walk around blocks, bombs and fire) agreed with its teacher on 0.56 of the
states it reached itself as an ego-view MLP, and lost 0.90 of its games to the safe bomber.
``PathPlanes`` computes the walks and learns only what a cell is worth:

- ``distances``: for each of the own avatar's neighbours (``moves``), the number of steps
  from it to every cell through free cells (no plane of ``blocking`` set), a breadth-first
  search run as ``steps`` rounds of a min over the four neighbours (cells farther than
  ``steps`` count as unreachable, as do all cells from a blocked neighbour); no gradient;
- values: 3x3 convolutions (``channels``, padding 1) over the planes, then a 1x1
  convolution to ``values`` non-negative maps, each with its own discount ``gamma``
  (learnt, started spread over ``GAMMA_RANGE``);
- per move and value map, the best ``gamma ** steps * value`` over the cells: the worth
  of the best target that way, nearer ones counting more;
- with the value maps and the convolutions' features at the own cell, their means over
  the board and the ``scalars`` (constant planes) read once.

Those features go to the stock MLP heads.  The board view (``view="board"``) is expected:
the own cell is found from the ``own`` plane.  A game offers its planes as
``PATH_PLANES`` (``{"own", "blocking", "scalars", "moves"}``) in its env module; dungeon_v0
does.

torch and SB3 are imported here at module level: ``training.policies`` imports this module only
when ``--arch paths`` is asked for (or when a saved model of it is loaded).
"""
import torch as th
import torch.nn.functional as F
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

UNREACHABLE = 1.0e4          # distance of a cell no walk reaches (gamma ** it is 0.0)
GAMMA_RANGE = (0.6, 0.95)    # the value maps' discounts at the start, evenly spread
MAX_LOG_GAMMA = -1e-3        # discounts stay below 1, so a nearer target always counts more
DEFAULT_CHANNELS = (32, 32, 32)
DEFAULT_VALUES = 8


def shifted(planes, dy, dx, fill=0.0):
    """``out[..., y, x] = planes[..., y + dy, x + dx]``, ``fill`` off the board."""
    h, w = planes.shape[-2:]
    padded = F.pad(planes, (1, 1, 1, 1), value=fill)
    return padded[..., 1 + dy:1 + dy + h, 1 + dx:1 + dx + w]


def walk_distances(free, starts, moves, steps):
    """``[B, S, H, W]`` steps from each start map's cells (``starts``, bool ``[B, S, H, W]``,
    counted only where ``free``, bool ``[B, 1, H, W]``) to every free cell, by ``moves``
    (``(dy, dx)``); ``UNREACHABLE`` where no walk of at most ``steps`` steps gets."""
    dist = th.where(starts & free, 0.0, UNREACHABLE)
    for _ in range(steps):
        near = th.stack([shifted(dist, dy, dx, UNREACHABLE) for dy, dx in moves]).amin(0)
        dist = th.where(free, th.minimum(dist, near + 1.0), dist)
    return dist


class PathPlanes(BaseFeaturesExtractor):
    """See the module docstring.  ``moves``: ``(dy, dx)`` of the move actions in the
    planes' rows and columns; ``steps``: rounds of the walk search (default ``H + W``)."""

    def __init__(self, observation_space, own, blocking, scalars, moves,
                 channels=DEFAULT_CHANNELS, values=DEFAULT_VALUES, steps=None):
        c, h, w = observation_space.shape
        if not channels:
            raise ValueError("PathPlanes needs at least one convolution (channels)")
        local = channels[-1]
        features = len(moves) * values + values + 2 * local + len(scalars)
        super().__init__(observation_space, features)
        layers, last = [], c
        for ch in channels:
            layers += [nn.Conv2d(last, ch, 3, padding=1), nn.ReLU()]
            last = ch
        self.trunk = nn.Sequential(*layers)
        self.value = nn.Conv2d(local, values, 1)
        self.log_gamma = nn.Parameter(th.log(th.linspace(*GAMMA_RANGE, values)))
        self.own, self.moves = int(own), tuple((int(dy), int(dx)) for dy, dx in moves)
        self.steps = h + w if steps is None else int(steps)
        self.register_buffer("blocking", th.tensor([int(p) for p in blocking]))
        self.register_buffer("scalars", th.tensor([int(p) for p in scalars]))

    def distances(self, obs):
        """``[B, moves, H, W]``: steps from each neighbour of the own cell (see the module
        docstring)."""
        with th.no_grad():
            own = obs[:, self.own:self.own + 1]
            free = obs[:, self.blocking].sum(1, keepdim=True) <= 0
            starts = th.cat([shifted(own, -dy, -dx) for dy, dx in self.moves], 1) > 0
            return walk_distances(free, starts, self.moves, self.steps)

    def forward(self, observations):
        obs = observations.float()
        own = obs[:, self.own:self.own + 1]
        local = self.trunk(obs)
        value = F.relu(self.value(local))                                   # [B, V, H, W]
        dist = self.distances(obs).unsqueeze(2)                             # [B, M, 1, H, W]
        log_gamma = self.log_gamma.clamp(max=MAX_LOG_GAMMA).view(1, 1, -1, 1, 1)
        best = (th.exp(dist * log_gamma) * value.unsqueeze(1)).amax((3, 4))  # [B, M, V]

        def at_own(planes):
            return (planes * own).sum((2, 3))

        return th.cat([best.flatten(1), at_own(value), at_own(local), local.mean((2, 3)),
                       obs[:, self.scalars].mean((2, 3))], 1)
