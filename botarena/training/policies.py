"""The trainer's policies (``--arch``), built from its options in one place.

- ``mlp``: the flattened float32 planes (SB3's ``FlattenExtractor``) into the
  ``--net-arch`` tanh heads (128-128 by default); ``--bf16``: the heads' first layers
  under bfloat16 autocast (``mlp.Bf16MlpPolicy``);
- ``cnn`` (``PlanesCNN``): 3x3 convolutions (``--channels``) over the planes, flattened,
  one linear layer of ``--features-dim`` units; ~10x the cost per sample of the MLP;
- ``ego`` (``EgoPlanes``, for ``view="ego"``): the window flattened into one linear layer,
  its constant planes (``--ego-scalars``) read once at the centre, ``--ego-drop`` planes
  left out, ``--ego-radius`` cropping the window;
- ``cells`` (``cells.CellsPolicy``, for games whose action is a command per cell): a fully
  convolutional policy with a masked categorical per cell (``--channels``,
  ``--features-dim`` as the value head's hidden units, ``--bf16``, ``--coords``;
  ``--unit-moves``: the vec env orders the units so that no two own units end in one
  cell, ``cells.OwnCollisionFree``);
- ``paths`` (``paths.PathPlanes``, for a board view and an env module with
  ``PATH_PLANES``): walking distances from the own avatar's neighbours to learnt per-cell
  values (``--channels``, ``--path-values``).

All but ``cells`` are sb3-contrib's MLP policy with a cheaper masked categorical of the
same results (``lean.LeanMaskablePolicy``).

``check_options`` refuses options that do not fit the game (a ``SystemExit`` naming the
option), ``wrap_env`` adds what a policy needs of the vec env, ``build_policy`` returns the
policy and its ``policy_kwargs`` for MaskablePPO.  torch is imported only when a policy is
built: importing this module needs none.
"""
import botarena

ARCHS = ("mlp", "cnn", "cells", "ego", "paths")


def ints(text):
    """``"32,32"`` -> ``(32, 32)`` (an empty text: ``()``)."""
    return tuple(int(x) for x in text.split(",") if x)


def build_extractors():
    """``{"cnn": PlanesCNN, "ego": EgoPlanes}`` (defined lazily: no torch at import)."""
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class PlanesCNN(BaseFeaturesExtractor):
        """3x3 convs (padding 1) over the (C, H, W) planes, flattened, then linear."""

        def __init__(self, observation_space, channels=(32, 32, 32), features_dim=256):
            super().__init__(observation_space, features_dim)
            c, h, w = observation_space.shape
            layers, last = [], c
            for ch in channels:
                layers += [nn.Conv2d(last, ch, 3, padding=1), nn.ReLU()]
                last = ch
            self.cnn = nn.Sequential(*layers, nn.Flatten())
            self.linear = nn.Sequential(nn.Linear(last * h * w, features_dim), nn.ReLU())

        def forward(self, observations):
            return self.linear(self.cnn(observations.float()))

    class EgoPlanes(BaseFeaturesExtractor):
        """An ego view (planes centred on the own avatar) flattened into one linear layer,
        leaving out what is the same in every cell: ``scalars`` (constant planes, read once
        at the centre) and ``drop`` (planes left out, e.g. the own avatar, always at the
        centre); ``radius`` > 0 crops the window to the cells at most that far from the
        centre (per axis)."""

        def __init__(self, observation_space, scalars=(), drop=(), radius=0, features_dim=256):
            super().__init__(observation_space, features_dim)
            c, h, w = observation_space.shape
            self.cy, self.cx = h // 2, w // 2
            r = radius if radius > 0 else max(h, w)
            self.rows = (max(self.cy - r, 0), min(self.cy + r + 1, h))
            self.cols = (max(self.cx - r, 0), min(self.cx + r + 1, w))
            spatial = [p for p in range(c) if p not in scalars and p not in drop]
            self.register_buffer("spatial", torch.tensor(spatial, dtype=torch.long))
            self.register_buffer("scalars", torch.tensor(list(scalars), dtype=torch.long))
            cells = (self.rows[1] - self.rows[0]) * (self.cols[1] - self.cols[0])
            self.linear = nn.Sequential(nn.Linear(len(spatial) * cells + len(scalars),
                                                  features_dim), nn.ReLU())

        def forward(self, observations):
            obs = observations.float()
            window = obs[:, self.spatial, self.rows[0]:self.rows[1], self.cols[0]:self.cols[1]]
            centre = obs[:, self.scalars, self.cy, self.cx]
            return self.linear(torch.cat([window.flatten(1), centre], dim=1))

    return {"cnn": PlanesCNN, "ego": EgoPlanes}


def check_options(args, config):
    """Refuse (``SystemExit``) a policy that does not fit ``args.env`` with ``config``."""
    module = botarena.env_module(args.env)
    view = config.get("view", "board")
    if args.arch == "paths":
        if getattr(module, "PATH_PLANES", None) is None:
            raise SystemExit(f"--arch paths needs PATH_PLANES in {args.env}'s module")
        if view != "board":
            raise SystemExit(f"--arch paths needs the board view (view=\"board\"), got "
                             f"{config.get('view')!r}")
    if args.arch == "ego" and view != "ego":
        raise SystemExit(f"--arch ego needs view=\"ego\", got {config.get('view')!r}")
    if args.arch == "cells" and args.unit_moves and not hasattr(module, "UNIT_MOVES"):
        raise SystemExit(f"--unit-moves: {args.env} has no UNIT_MOVES")


def wrap_env(venv, args):
    """``venv`` as the policy plays it: ``cells`` with ``--unit-moves`` orders the units
    (``cells.OwnCollisionFree``); other policies play it as it is."""
    if args.arch != "cells" or not args.unit_moves:
        return venv
    from .cells import OwnCollisionFree
    module = botarena.env_module(args.env)
    return OwnCollisionFree(venv, module.UNIT_MOVES, module.UNITS_PLANE)


def build_policy(args):
    """``(policy, policy_kwargs)`` of ``args.arch`` for MaskablePPO (after
    ``check_options``)."""
    channels = ints(args.channels)
    if args.arch == "cells":
        from .cells import CellsPolicy
        kwargs = {"channels": channels, "value_hidden": args.features_dim,
                  "bf16": args.bf16, "coords": args.coords}
        if args.unit_moves:
            module = botarena.env_module(args.env)
            kwargs.update(unit_moves=module.UNIT_MOVES, units_plane=module.UNITS_PLANE)
        return CellsPolicy, kwargs
    from .lean import LeanMaskablePolicy
    heads = list(ints(args.net_arch))
    kwargs = {"net_arch": {"pi": heads, "vf": heads}}
    if args.arch == "mlp":
        if args.bf16:
            from .mlp import Bf16MlpPolicy
            return Bf16MlpPolicy, kwargs
        return LeanMaskablePolicy, kwargs
    if args.arch == "paths":
        from .paths import PathPlanes
        extractor = PathPlanes
        extractor_kwargs = dict(botarena.env_module(args.env).PATH_PLANES, channels=channels)
        if args.path_values is not None:
            extractor_kwargs["values"] = args.path_values
    else:
        extractor = build_extractors()[args.arch]
        extractor_kwargs = {"features_dim": args.features_dim, "channels": channels}
        if args.arch == "ego":
            extractor_kwargs = {"features_dim": args.features_dim, "radius": args.ego_radius,
                                "scalars": ints(args.ego_scalars), "drop": ints(args.ego_drop)}
    kwargs.update({"features_extractor_class": extractor,
                   "features_extractor_kwargs": extractor_kwargs,
                   # the value loss (returns ~50 squares) would swamp the policy's
                   # gradient in a shared extractor
                   "share_features_extractor": False})
    return LeanMaskablePolicy, kwargs
