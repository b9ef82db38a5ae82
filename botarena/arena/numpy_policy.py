"""A trained policy's action path as numpy: ``extract(model)`` takes the arrays and settings
out of an SB3 model, ``NumpyPolicy(arrays, meta)`` plays them without torch.

The architectures ``botarena.training.ppo`` builds (``--arch``), each as its features
extractor names it:

- ``mlp`` (``FlattenExtractor``): the flattened planes;
- ``cnn`` (``PlanesCNN``): 3x3 convolutions (padding 1, ReLU), flattened, a linear layer;
- ``ego`` (``EgoPlanes``): a window of the spatial planes and the constant ones read at the
  centre, one linear layer;
- ``paths`` (``training.paths.PathPlanes``): walking distances from the own avatar's
  neighbours to learnt per-cell values;
- ``cells`` (``training.cells.CellsPolicy``): a fully convolutional trunk and a command per
  cell, the units' moves ordered as ``CellsPolicy.predict`` orders them (``unit_moves``).

The first four feed SB3's policy MLP (``mlp_extractor.policy_net``: linear layers with
tanh or ReLU) and its ``action_net``.  The action is the masked argmax, as MaskablePPO's
deterministic ``predict`` takes it: one over ``Discrete(n)``, one per entry of
``MultiDiscrete`` (a command per cell), over what the torch distribution's mode reads
(the probabilities, or the cells' log-probabilities), so that near-equal logits that
round to one probability resolve as in torch, to the first (the last bit of numpy's
rounding may still differ from torch's).  Any other extractor, layer or action space
raises ``ValueError`` naming it.  The numbers are float32 as in torch, bfloat16
convolutions rounded as torch's autocast rounds them; the logits agree to rounding
(``tests/test_arena_export.py`` compares them and the actions on random observations).
"""
import numpy as np

from ..core.grid import coordinate_planes

MASKED_LOGIT = -1e8          # sb3-contrib's logit of a masked action
ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}
EXTRACTORS = {"FlattenExtractor": "mlp", "PlanesCNN": "cnn", "EgoPlanes": "ego",
              "PathPlanes": "paths", "CellsTrunk": "cells"}
# the state-dict prefixes of the action path (the value head is left out)
EXTRACTOR = "pi_features_extractor."
ACTION_PATH = (EXTRACTOR, "mlp_extractor.policy_net.", "action_net.", "global_net.")
UNREACHABLE = 1.0e4          # training.paths' distance of a cell no walk reaches
MAX_LOG_GAMMA = -1e-3        # training.paths' bound on the learnt discounts


# -- extraction (needs torch) --------------------------------------------------------------
def _layers(sequential, where):
    """``[[index, activation]]`` of the linear layers of ``sequential`` (``linear``: none)."""
    import torch.nn as nn
    out = []
    for i, module in enumerate(sequential):
        name = type(module).__name__
        if isinstance(module, nn.Linear):
            out.append([i, "linear"])
        elif name in ACTIVATIONS and out and out[-1][1] == "linear":
            out[-1][1] = ACTIVATIONS[name]
        else:
            raise ValueError(f"export can't translate the layer {module} of {where}")
    return out


def _action_space(space):
    from gymnasium import spaces
    if isinstance(space, spaces.Discrete):
        return {"kind": "discrete", "n": int(space.n)}
    if isinstance(space, spaces.MultiDiscrete) and space.nvec.ndim == 1 \
            and len(set(space.nvec.tolist())) == 1:
        return {"kind": "cells", "n": int(space.nvec[0]), "cells": int(len(space.nvec))}
    raise ValueError(f"export handles Discrete and MultiDiscrete([n] * cells) actions, not "
                     f"{space}")


def extract(model):
    """``(arrays, meta)`` of an SB3 model's action path: numpy float32 arrays by state-dict
    name, and the JSON-ready settings ``NumpyPolicy`` needs."""
    from stable_baselines3.common.preprocessing import is_image_space
    policy = model.policy
    extractor = policy.pi_features_extractor
    name = type(extractor).__name__
    if name not in EXTRACTORS:
        raise ValueError(f"export handles the extractors {', '.join(EXTRACTORS)}; this "
                         f"policy has a {name}")
    arch = EXTRACTORS[name]
    space = model.observation_space
    meta = {"arch": arch, "obs_shape": list(space.shape),
            "scale": bool(policy.normalize_images and is_image_space(space)),
            "action": _action_space(model.action_space), "head": []}
    if arch != "cells":
        meta["head"] = _layers(policy.mlp_extractor.policy_net, "the policy MLP")
    if arch == "ego":
        meta.update(rows=list(extractor.rows), cols=list(extractor.cols),
                    centre=[extractor.cy, extractor.cx])
    elif arch == "paths":
        meta.update(own=extractor.own, moves=[list(m) for m in extractor.moves],
                    steps=extractor.steps)
    elif arch == "cells":
        meta.update(bf16=extractor.bf16, coords=extractor.coords, units_plane=policy.units_plane,
                    unit_moves=None if policy.unit_moves is None
                    else [list(m) for m in policy.unit_moves])
    arrays = {key.replace(EXTRACTOR, "extractor.", 1): value.detach().cpu().numpy()
              for key, value in policy.state_dict().items() if key.startswith(ACTION_PATH)}
    return arrays, meta


# -- numpy layers ----------------------------------------------------------------------------
def linear(x, arrays, name):
    return x @ arrays[name + ".weight"].T + arrays[name + ".bias"]


def relu(x):
    return np.maximum(x, np.float32(0.0))


FUNCTIONS = {"tanh": np.tanh, "relu": relu, "linear": lambda x: x}


def log_softmax(x):
    shifted = x - x.max(-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def conv3x3(x, weight, bias):
    """A 3x3 convolution with padding 1: ``x`` ``[B, C, H, W]``, ``weight`` ``[O, C, 3, 3]``."""
    b, c, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    columns = np.stack([padded[:, :, dy:dy + h, dx:dx + w] for dy in range(3)
                        for dx in range(3)], axis=2).reshape(b, c * 9, h * w)
    out = weight.reshape(len(weight), c * 9) @ columns
    return (out + bias[:, None]).reshape(b, len(weight), h, w)


def bfloat16(x):
    """``x`` (float32) rounded to bfloat16's 8 bits of mantissa (to nearest, ties to even),
    kept as float32: what torch's bfloat16 autocast does to a convolution's operands."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return rounded.view(np.float32)


def conv_stack(x, arrays, prefix, bf16=False):
    """Conv + ReLU layers ``prefix.0``, ``prefix.2``, ... (a Sequential of pairs); with
    ``bf16`` the operands and results are rounded to bfloat16 as under autocast."""
    i = 0
    round_ = bfloat16 if bf16 else (lambda v: v)
    while f"{prefix}.{i}.weight" in arrays:
        weight, bias = arrays[f"{prefix}.{i}.weight"], arrays[f"{prefix}.{i}.bias"]
        x = relu(round_(conv3x3(round_(x), round_(weight), round_(bias))))
        i += 2
    return x


def shifted(planes, dy, dx, fill):
    """``out[..., y, x] = planes[..., y + dy, x + dx]``, ``fill`` off the board."""
    h, w = planes.shape[-2:]
    pad = [(0, 0)] * (planes.ndim - 2) + [(1, 1), (1, 1)]
    padded = np.pad(planes, pad, constant_values=fill)
    return padded[..., 1 + dy:1 + dy + h, 1 + dx:1 + dx + w]


def resolve_collisions(actions, units, unit_moves, width):
    """``training.cells.resolve_collisions`` for one sample: ``actions`` int[cells],
    ``units`` bool[cells]; a staying unit keeps its cell, of the units moving into one cell
    the one on the lowest cell moves and the others stay, until no cell is claimed twice."""
    offsets = np.array([dy * width + dx for dy, dx in unit_moves], dtype=np.int64)
    actions = actions.copy()
    cell = np.arange(len(actions))
    while True:
        moving = units & (actions != 0)
        target = np.where(moving, cell + offsets[actions], cell)
        rank = np.where(units, np.where(moving, cell, -1), len(actions))
        first = np.full(len(actions), len(actions))
        np.minimum.at(first, target, rank)
        lose = moving & (rank != first[target])
        if not lose.any():
            return actions
        actions[lose] = 0


class NumpyPolicy:
    """The exported action path: ``logits(obs)`` (``[n]`` or ``[cells, n]``) and
    ``act(obs, mask)`` (the masked argmax: an int, or int64[cells])."""

    def __init__(self, arrays, meta):
        self.arrays = {k: np.asarray(v, dtype=np.float32) if v.dtype.kind == "f" else v
                       for k, v in arrays.items()}
        self.meta = meta
        self.arch = meta["arch"]
        self.action = meta["action"]
        self.head = [(f"mlp_extractor.policy_net.{i}", FUNCTIONS[a]) for i, a in meta["head"]]
        self._features = getattr(self, "_" + self.arch)

    def _input(self, obs):
        x = np.asarray(obs, dtype=np.float32).reshape([1] + self.meta["obs_shape"])
        return x / np.float32(255.0) if self.meta["scale"] else x

    def _mlp(self, x):
        return x.reshape(len(x), -1)

    def _cnn(self, x):
        x = conv_stack(x, self.arrays, "extractor.cnn")
        return relu(linear(x.reshape(len(x), -1), self.arrays, "extractor.linear.0"))

    def _ego(self, x):
        a = self.arrays
        (r0, r1), (c0, c1), (cy, cx) = self.meta["rows"], self.meta["cols"], self.meta["centre"]
        window = x[:, a["extractor.spatial"], r0:r1, c0:c1].reshape(len(x), -1)
        centre = x[:, a["extractor.scalars"], cy, cx]
        return relu(linear(np.concatenate([window, centre], axis=1), a, "extractor.linear.0"))

    def _paths(self, x):
        a, meta = self.arrays, self.meta
        own = x[:, meta["own"]:meta["own"] + 1]
        local = conv_stack(x, a, "extractor.trunk")
        value = relu(np.einsum("vc,bchw->bvhw", a["extractor.value.weight"][:, :, 0, 0], local)
                     + a["extractor.value.bias"][:, None, None])
        free = x[:, a["extractor.blocking"]].sum(1, keepdims=True) <= 0
        starts = np.concatenate([shifted(own, -dy, -dx, 0.0) for dy, dx in meta["moves"]],
                                axis=1) > 0
        dist = np.where(starts & free, np.float32(0.0), np.float32(UNREACHABLE))
        for _ in range(meta["steps"]):
            near = np.stack([shifted(dist, dy, dx, UNREACHABLE) for dy, dx in meta["moves"]])
            dist = np.where(free, np.minimum(dist, near.min(0) + np.float32(1.0)), dist)
        log_gamma = np.minimum(a["extractor.log_gamma"], np.float32(MAX_LOG_GAMMA))
        best = (np.exp(dist[:, :, None] * log_gamma[None, None, :, None, None])
                * value[:, None]).max((3, 4))

        def at_own(planes):
            return (planes * own).sum((2, 3))

        return np.concatenate([best.reshape(len(x), -1), at_own(value), at_own(local),
                               local.mean((2, 3)), x[:, a["extractor.scalars"]].mean((2, 3))],
                              axis=1)

    def _cells(self, x):
        if self.meta.get("coords"):
            grid = coordinate_planes(*x.shape[2:])[None].repeat(len(x), 0)
            x = np.concatenate([x, grid], axis=1)
        features = conv_stack(x, self.arrays, "extractor.convs", self.meta["bf16"])
        board = linear(features.mean((2, 3)), self.arrays, "global_net")
        per_cell = features[0].reshape(features.shape[1], -1).T     # [cells, C]
        return relu(per_cell + board)

    def logits(self, obs):
        """The action logits of one observation (before the mask)."""
        x = self._features(self._input(obs))
        if self.arch == "cells":
            return linear(x, self.arrays, "action_net")
        for name, function in self.head:
            x = function(linear(x, self.arrays, name))
        logits = linear(x, self.arrays, "action_net")[0]
        if self.action["kind"] == "cells":
            return logits.reshape(self.action["cells"], self.action["n"])
        return logits

    def act(self, obs, mask):
        """The deterministic masked action of one observation."""
        logits = self.logits(obs)
        legal = np.asarray(mask).reshape(logits.shape) != 0
        log_p = log_softmax(np.where(legal, logits, np.float32(MASKED_LOGIT)))
        # what the torch distribution's mode reads (module doc): CellsDistribution the
        # log-probabilities, sb3-contrib's MaskableCategorical the probabilities
        action = (log_p if self.arch == "cells" else softmax(log_p)).argmax(-1)
        if self.action["kind"] == "discrete":
            return int(action)
        if self.meta.get("unit_moves"):
            width = self.meta["obs_shape"][2]
            units = np.asarray(obs).reshape(self.meta["obs_shape"])[self.meta["units_plane"]]
            action = resolve_collisions(action, units.reshape(-1) != 0, self.meta["unit_moves"],
                                        width)
        return action.astype(np.int64)
