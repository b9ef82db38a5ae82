"""Numba's on-disk cache, keyed by the source of every jitted module.

numba's ``cache=True`` checks only the file of the cached function itself: a kernel in
``kernel.py`` that calls a rule in ``rules.py`` would go on running the old rule after
``rules.py`` changed.  botarena therefore points numba's cache at a folder named after a
hash of the sources the kernels are built from, so that any edit there starts a fresh
cache (compiled once, then reused by every later process): the core's compiled modules
(``configure()``, run by ``botarena/__init__``), and those plus the game's own folder for
each game (``configure("paint")`` at the top of the game package, before its modules are
imported), so that editing one game leaves the others' caches alone.  The core's compiled
modules are those that use numba or ``core.jit`` (``kernel_sources``): jitted code reads
only those and its game's folder, so an edit of the Python front-ends (the ParallelEnv,
the status bar, the config and snapshot checks) keeps every compiled kernel.

The base folder is ``$NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/botarena/numba``
(``~/.cache/botarena/numba``).  Folders of other hashes untouched for ``STALE_DAYS`` are
removed.
"""
import hashlib
import os
import shutil
import time
from pathlib import Path

from numba.core import config as numba_config

PACKAGE = Path(__file__).resolve().parents[1]
CORE = "core"
STALE_DAYS = 7


JIT_MARKERS = (b"numba", b"from .jit import")   # a core module that compiled code reads


def kernel_sources(game=None):
    """The files whose edits change compiled code: the core's modules that use numba or
    ``core.jit``, and every module of ``game``'s folder (its constants, read by its kernels
    as compile-time globals, included)."""
    core = [path for path in sorted((PACKAGE / CORE).rglob("*.py"))
            if any(marker in path.read_bytes() for marker in JIT_MARKERS)]
    own = [] if game is None else sorted((PACKAGE / "envs" / game).rglob("*.py"))
    return core + own


def source_hash(paths):
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def base_folder():
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    cache_home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache_home) / "botarena" / "numba"


def configure(game=None):
    """Point numba's cache at the folder of the core's (and ``game``'s) sources; call it
    before the kernels of those sources are defined."""
    base = base_folder()
    folder = base / f"{game or CORE}-{source_hash(kernel_sources(game))}"
    numba_config.CACHE_DIR = str(folder)
    if base.is_dir():
        cutoff = time.time() - STALE_DAYS * 86400
        for other in base.iterdir():
            if other != folder and other.is_dir() and other.stat().st_mtime < cutoff:
                shutil.rmtree(other, ignore_errors=True)
    return folder
