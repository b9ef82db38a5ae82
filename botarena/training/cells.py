"""A per-cell policy for MaskablePPO on grid games whose action is a command per cell.

    python -m botarena.training.ppo --env ants_v0 --arch cells

For an action space ``MultiDiscrete([n] * H*W)`` (cell ``y * W + x``) over observations
``Box(C, H, W)`` (ants_v0: 12 planes, 5 commands).  ``CellsPolicy`` is a
``MaskableActorCriticPolicy``, so ``MaskablePPO("...", policy=CellsPolicy)``, ``save``,
``MaskablePPO.load`` and ``evaluate`` work as for the stock policies:

- trunk (``CellsTrunk``, the features extractor): 3x3 convolutions with padding 1 and
  ReLU (``channels``), keeping H x W;
- policy head: the trunk's mean over the cells through a linear layer is added to a
  cell's features (so each cell sees the whole board: food, hills and ants out of the
  convolutions' reach), ReLU, then a linear layer to ``n`` logits (a 1x1 convolution);
- value head: the trunk's mean over the cells, ``value_hidden`` ReLU units, 1 (a max over
  the cells cost as much as the policy head: a slow reduction over channels-last features).

The action distribution (``CellsDistribution``) is one batched masked categorical over the
cells' ``[K, n]`` logits instead of sb3-contrib's ``MaskableMultiCategoricalDistribution``,
which builds one torch ``Categorical`` per cell in Python (400 per sample on ants' 20 x 20
board: ~70 training steps/s).  Only the K cells whose mask leaves a choice (ants_v0: the
cells of own ants; without a mask, every cell) get logits at all: a cell with one legal
command (ants_v0: no own ant, only 'stay' legal) plays it with probability 1, adding
exactly 0 to the log-probability and to the entropy.  Masked commands get a logit of
``MASKED_LOGIT`` (probability exactly 0 in float32, no gradient).  ``log_prob`` of an
action grid is the SUM over cells of the cells' log-probabilities, the log-probability of
the joint action, so PPO's ratio covers the real decisions only.  (A command other than
the forced one on a one-command cell, which MaskablePPO never stores, would count as that
command: 0.)  ``entropy`` is the SUM over cells too: then each free cell's entropy bonus
weighs against its share of the policy gradient the same whatever the number of ants (a
mean over the H*W cells would shrink the bonus with the board, a mean over free cells would
shrink it with the colony).

Own collisions (``unit_moves``): where a command moves a unit to a neighbouring cell and two
units of one side that end a turn in one cell die (ants_v0), independent per-cell choices
kill the colony's own ants (a cloned ants_v0 policy lost ~4% of its ants a turn that way,
mostly around its hill, which then stopped spawning).  Given the move of every command
(``unit_moves``: ``(dy, dx)`` per command) and the observation plane of the own units
(``units_plane``), ``predict`` orders the units the way a contest bot does
(``resolve_collisions``): a unit that stays keeps its cell; of the units moving into one
cell, the one on the lowest cell index moves and the others stay, until no cell is claimed
twice.  In training, ``OwnCollisionFree`` wraps the vec env and orders the actions there:
the rollouts keep the commands the policy sampled (and their log-probabilities, so PPO's
ratios stay those of the policy's own choices), the env plays them ordered.

torch and SB3 are imported here at module level: ``training.policies`` imports this module only
when ``--arch cells`` is asked for (or when a saved cells model is loaded, which pickles
``CellsPolicy`` by reference to this module).
"""
import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import MaskableDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnvWrapper
from torch import nn

from ..core.grid import coordinate_planes

# The logit of a masked command (sb3-contrib's MaskableCategorical uses the same value):
# exp(MASKED_LOGIT - any real logit) is exactly 0 in float32.
MASKED_LOGIT = -1e8
# exp() of the log-probabilities is taken from this floor up: exp of a masked command's
# ~-1e8 underflows to 0 through a ~15x slower path on CPU; exp(-80) is still a normal float.
MIN_LOG_P = -80.0

DEFAULT_CHANNELS = (32, 32, 32)
DEFAULT_VALUE_HIDDEN = 128


class CellsDistribution(MaskableDistribution):
    """Independent categoricals over ``num_commands`` for each of ``num_cells`` cells of a
    batch; log_prob and entropy sum over the cells of each sample.

    ``proba_distribution(logits, batch, free)`` takes the ``[K, n]`` logits of the cells
    ``free`` (flat indices ``sample * num_cells + cell``; None: all cells, ``K = batch *
    num_cells``); ``apply_masking(masks)`` then masks them, and every cell outside ``free``
    must have exactly one legal command, the one it plays."""

    def __init__(self, num_cells, num_commands):
        super().__init__()
        self.num_cells = num_cells
        self.num_commands = num_commands
        self.batch = 0
        self.free = None
        self.rows = None
        self.raw_logits = None
        self.masks = None
        self.forced = None
        self.log_p = None

    def proba_distribution_net(self, latent_dim):
        """A linear layer from ``latent_dim`` features of a cell to its logits."""
        return nn.Linear(latent_dim, self.num_commands)

    def proba_distribution(self, action_logits, batch=None, free=None):
        cells = self.num_cells
        self.raw_logits = action_logits.reshape(-1, self.num_commands)
        if free is None:
            self.batch = len(self.raw_logits) // cells if batch is None else batch
            free = th.arange(self.batch * cells, device=action_logits.device)
        else:
            self.batch = batch
        self.free = free
        self.rows = th.div(free, cells, rounding_mode="floor")
        self.masks = self.forced = self.log_p = None
        if len(free) == self.batch * cells:
            self.apply_masking(None)
        return self

    def apply_masking(self, masks):
        """``masks``: ``[B, num_cells * num_commands]``, ``mask[cell * n + command]`` (any
        dtype, nonzero = legal); None removes the masking."""
        logits = self.raw_logits
        device = logits.device
        size = self.batch * self.num_cells
        if masks is None:
            if len(self.free) != size:
                raise ValueError("cells without logits need a mask")
            self.masks = None
            self.forced = th.zeros(size, dtype=th.long, device=device)
        else:
            legal = th.as_tensor(masks, device=device).reshape(size, self.num_commands) != 0
            self.forced = legal.to(th.uint8).argmax(dim=1)
            self.masks = legal[self.free]
            logits = logits.masked_fill(~self.masks, MASKED_LOGIT)
        self.log_p = th.log_softmax(logits, dim=1)

    def _sum_cells(self, values):
        """``[B]``: the sums of the free cells' ``values`` per sample."""
        return th.zeros(self.batch, dtype=values.dtype, device=values.device).index_add(
            0, self.rows, values)

    def log_prob(self, actions):
        """Sum over cells of each cell's log-probability of its command: ``[B]``."""
        a = actions.long().reshape(-1)[self.free]
        return self._sum_cells(self.log_p.gather(1, a[:, None]).squeeze(1))

    def probs(self):
        """``[K, num_commands]`` probabilities of the free cells, exactly 0 where masked."""
        probs = self.log_p.clamp(min=MIN_LOG_P).exp()
        if self.masks is not None:
            probs = probs.masked_fill(~self.masks, 0.0)
        return probs

    def entropy(self):
        """Sum over cells of each cell's (masked) entropy: ``[B]``."""
        return self._sum_cells(-(self.probs() * self.log_p).sum(dim=1))

    def _with_free(self, free_actions):
        actions = self.forced.clone()
        actions[self.free] = free_actions
        return actions.reshape(self.batch, self.num_cells)

    def sample(self):
        """``[B, num_cells]`` commands drawn from each cell's categorical."""
        if len(self.free) == 0:
            return self._with_free(self.forced[:0])
        return self._with_free(th.multinomial(self.probs(), 1).squeeze(1))

    def mode(self):
        return self._with_free(self.log_p.argmax(dim=1))

    def actions_from_params(self, action_logits, deterministic=False):
        self.proba_distribution(action_logits)
        return self.get_actions(deterministic=deterministic)

    def log_prob_from_params(self, action_logits):
        actions = self.actions_from_params(action_logits)
        return actions, self.log_prob(actions)


def flat_offsets(unit_moves, width):
    """The flat cell offset (``dy * width + dx``) of each command's move."""
    return th.tensor([dy * width + dx for dy, dx in unit_moves], dtype=th.long)


def resolve_collisions(actions, units, offsets):
    """``actions`` ``[B, cells]`` with no two ``units`` (``[B, cells]`` bool) ending in one
    cell (module docstring): ``offsets[command]`` is the flat cell offset of the command's
    move (0: stay) and must keep every unit's command on the board.  Commands of cells
    without a unit are returned unchanged."""
    batch, cells = actions.shape
    cell = th.arange(cells, device=actions.device).expand(batch, cells)
    none = th.full_like(cell, cells)
    actions = actions.clone()
    while True:
        moving = units & (actions != 0)
        target = th.where(moving, cell + offsets[actions], cell)
        # a staying unit holds its cell before any mover (rank -1); then the lowest cell
        rank = th.where(units, th.where(moving, cell, -1), none)
        first = none.scatter_reduce(1, target, rank, "amin")
        lose = moving & (rank != first.gather(1, target))
        if not lose.any():
            return actions
        actions[lose] = 0


class OwnCollisionFree(VecEnvWrapper):
    """A vec env whose ``step`` orders the units of the actions it is given
    (``resolve_collisions``, with the units seen in the last observation): MaskablePPO's
    rollouts store the commands the policy sampled and the env plays them ordered, as SB3
    stores unclipped continuous actions and plays them clipped."""

    def __init__(self, venv, unit_moves, units_plane):
        super().__init__(venv)
        self.offsets = flat_offsets(unit_moves, venv.observation_space.shape[2])
        self.units_plane = int(units_plane)
        self.last_obs = None

    def reset(self):
        self.last_obs = self.venv.reset()
        return self.last_obs

    def step_async(self, actions):
        actions = th.as_tensor(np.asarray(actions), dtype=th.long)
        units = th.as_tensor(self.last_obs[:, self.units_plane] != 0).reshape(actions.shape)
        self.venv.step_async(resolve_collisions(actions, units, self.offsets).numpy())

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        self.last_obs = obs
        return obs, rewards, dones, infos


class CellsTrunk(BaseFeaturesExtractor):
    """3x3 convolutions (padding 1, ReLU) over the ``(C, H, W)`` planes: ``[B, channels[-1],
    H, W]`` float32 features (``features_dim`` is the channel count).  ``bf16``: the
    convolutions run under bfloat16 autocast (2-3x faster on CPUs with AMX / AVX512-BF16).
    ``coords``: two more input planes, each cell's row and column (``coordinate_planes``),
    so a cell knows where it is on the board (in towers_v0 the way to the flags lies
    beyond the convolutions' reach; both seats see the board from their own corner)."""

    def __init__(self, observation_space, channels=DEFAULT_CHANNELS, bf16=False,
                 coords=False):
        channels = tuple(int(c) for c in channels)
        if not channels:
            raise ValueError("CellsTrunk needs at least one conv layer")
        super().__init__(observation_space, channels[-1])
        self.bf16 = bool(bf16)
        self.coords = bool(coords)
        planes, height, width = observation_space.shape
        grid = th.as_tensor(coordinate_planes(height, width))[None]
        self.register_buffer("grid", grid, persistent=False)   # not a weight: not saved
        layers, last = [], planes + (grid.shape[1] if self.coords else 0)
        for ch in channels:
            layers += [nn.Conv2d(last, ch, 3, padding=1), nn.ReLU()]
            last = ch
        self.convs = nn.Sequential(*layers)

    def forward(self, observations):
        x = observations.float()
        if self.coords:
            x = th.cat([x, self.grid.expand(len(x), -1, -1, -1)], dim=1)
        # channels-last: mkldnn's 3x3 convolutions ran ~1.5x faster on CPU
        x = x.contiguous(memory_format=th.channels_last)
        with th.autocast(x.device.type, dtype=th.bfloat16, enabled=self.bf16):
            return self.convs(x).float()


class CellsPolicy(MaskableActorCriticPolicy):
    """A fully convolutional actor-critic with a categorical per cell (module docstring).

    Keyword arguments besides MaskableActorCriticPolicy's optimizer ones: ``channels`` (the
    trunk's 3x3 conv layers), ``value_hidden`` (the value head's hidden units), ``bf16``
    (the trunk under bfloat16 autocast; the heads and the distribution stay float32),
    ``coords`` (the trunk also reads each cell's row and column, ``CellsTrunk``), and
    ``unit_moves`` (``(dy, dx)`` per command, command 0 staying) with ``units_plane`` (the
    observation plane of the own units, nonzero where one stands): the joint action is made
    free of own collisions (module docstring; None: independent cells)."""

    def __init__(self, observation_space, action_space, lr_schedule, channels=DEFAULT_CHANNELS,
                 value_hidden=DEFAULT_VALUE_HIDDEN, bf16=False, unit_moves=None,
                 units_plane=None, coords=False, ortho_init=True, **kwargs):
        if not (isinstance(action_space, spaces.MultiDiscrete) and action_space.nvec.ndim == 1
                and len(set(action_space.nvec.tolist())) == 1):
            raise ValueError(f"CellsPolicy needs MultiDiscrete([n] * cells), got {action_space}")
        if not (isinstance(observation_space, spaces.Box) and len(observation_space.shape) == 3):
            raise ValueError(f"CellsPolicy needs Box(C, H, W) planes, got {observation_space}")
        _, h, w = observation_space.shape
        if h * w != len(action_space.nvec):
            raise ValueError(f"{len(action_space.nvec)} actions for a {h} x {w} grid")
        self.channels = tuple(int(c) for c in channels)
        self.value_hidden = int(value_hidden)
        self.bf16 = bool(bf16)
        self.coords = bool(coords)
        commands = int(action_space.nvec[0])
        if (unit_moves is None) != (units_plane is None):
            raise ValueError("unit_moves and units_plane go together")
        self.unit_moves = None if unit_moves is None else tuple(
            (int(dy), int(dx)) for dy, dx in unit_moves)
        self.units_plane = None if units_plane is None else int(units_plane)
        if self.unit_moves is not None:
            if len(self.unit_moves) != commands or self.unit_moves[0] != (0, 0):
                raise ValueError(f"unit_moves needs one (dy, dx) per command ({commands}), "
                                 f"the first (0, 0), got {unit_moves}")
            if not 0 <= self.units_plane < observation_space.shape[0]:
                raise ValueError(f"units_plane {units_plane} is not a plane of "
                                 f"{observation_space.shape}")
        for key in ("net_arch", "features_extractor_class", "features_extractor_kwargs",
                    "share_features_extractor", "activation_fn"):
            kwargs.pop(key, None)  # fixed here (present in a saved policy's parameters)
        super().__init__(observation_space, action_space, lr_schedule, net_arch=[],
                         ortho_init=ortho_init, features_extractor_class=CellsTrunk,
                         features_extractor_kwargs={"channels": self.channels,
                                                    "bf16": self.bf16, "coords": self.coords},
                         share_features_extractor=True, **kwargs)

    def _build(self, lr_schedule):
        """The heads (module docstring) and the optimizer (replaces the MLP build)."""
        cells, commands = len(self.action_space.nvec), int(self.action_space.nvec[0])
        self.action_dist = CellsDistribution(cells, commands)
        self.register_buffer("unit_offsets", flat_offsets(self.unit_moves or (),
                                                          self.observation_space.shape[2]),
                             persistent=False)
        c = self.features_dim
        self.global_net = nn.Linear(c, c)
        self.action_net = self.action_dist.proba_distribution_net(c)
        self.value_net = nn.Sequential(nn.Linear(c, self.value_hidden), nn.ReLU(),
                                       nn.Linear(self.value_hidden, 1))
        if self.ortho_init:
            for module, gain in ((self.features_extractor, np.sqrt(2)),
                                 (self.global_net, np.sqrt(2)), (self.action_net, 0.01),
                                 (self.value_net[0], np.sqrt(2)), (self.value_net[2], 1.0)):
                module.apply(lambda m, g=gain: self.init_weights(m, gain=g))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)

    def _get_constructor_parameters(self):
        data = super()._get_constructor_parameters()
        for key in ("net_arch", "features_extractor_class", "features_extractor_kwargs",
                    "activation_fn"):
            data.pop(key, None)
        data.update(channels=self.channels, value_hidden=self.value_hidden, bf16=self.bf16,
                    unit_moves=self.unit_moves, units_plane=self.units_plane,
                    coords=self.coords)
        return data

    def _values(self, features):
        return self.value_net(features.mean(dim=(2, 3)))

    def _distribution(self, features, action_masks):
        """The distribution over the cells of the trunk's ``[B, C, H, W]`` features: logits
        only for the cells whose mask leaves a choice (all cells without a mask)."""
        batch, channels = features.shape[:2]
        cells = self.action_dist.num_cells
        # one row of features per cell (a view of channels-last features)
        per_cell = features.permute(0, 2, 3, 1).reshape(batch * cells, channels)
        free = None
        rows = th.arange(batch, device=features.device).repeat_interleave(cells)
        if action_masks is not None:
            legal = th.as_tensor(action_masks, device=features.device).reshape(
                batch * cells, -1) != 0
            free = th.nonzero(legal.sum(dim=1) > 1).squeeze(1)
            per_cell = per_cell[free]
            rows = th.div(free, cells, rounding_mode="floor")
        board = self.global_net(features.mean(dim=(2, 3)))
        logits = self.action_net(th.relu(per_cell + board[rows]))
        dist = self.action_dist.proba_distribution(logits, batch, free)
        if action_masks is not None:
            dist.apply_masking(legal)
        return dist

    def forward(self, obs, deterministic=False, action_masks=None):
        features = self.extract_features(obs)
        dist = self._distribution(features, action_masks)
        actions = dist.get_actions(deterministic=deterministic)
        log_prob = dist.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), self._values(features), log_prob

    def _predict(self, observation, deterministic=False, action_masks=None):
        """The distribution's actions, with ``unit_moves`` ordered (``resolve_collisions``)."""
        actions = self.get_distribution(observation, action_masks).get_actions(
            deterministic=deterministic)
        if self.unit_moves is None:
            return actions
        units = observation[:, self.units_plane].reshape(actions.shape) != 0
        return resolve_collisions(actions, units, self.unit_offsets)

    def evaluate_actions(self, obs, actions, action_masks=None):
        features = self.extract_features(obs)
        dist = self._distribution(features, action_masks)
        return self._values(features), dist.log_prob(actions), dist.entropy()

    def get_distribution(self, obs, action_masks=None):
        return self._distribution(self.extract_features(obs), action_masks)

    def predict_values(self, obs):
        return self._values(self.extract_features(obs))
