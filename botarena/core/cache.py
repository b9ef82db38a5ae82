"""Numba's on-disk cache, keyed by the source of every jitted module.

numba's ``cache=True`` checks only the file of the cached function itself: a kernel in
``kernel.py`` that calls a rule in ``rules.py`` would go on running the old rule after
``rules.py`` changed.  botarena therefore points numba's cache at a folder named after a
hash of the sources the kernels are built from, so that any edit there starts a fresh
cache (compiled once, then reused by every later process): ``botarena/core`` for the
core (``configure()``, run by ``botarena/__init__``), and the core plus the game's own
folder for each game (``configure("paint")`` at the top of the game package, before its
modules are imported), so that editing one game leaves the others' caches alone.

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


def source_hash(folders):
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
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
    folders = (CORE,) if game is None else (CORE, f"envs/{game}")
    base = base_folder()
    folder = base / f"{game or CORE}-{source_hash(folders)}"
    numba_config.CACHE_DIR = str(folder)
    if base.is_dir():
        cutoff = time.time() - STALE_DAYS * 86400
        for other in base.iterdir():
            if other != folder and other.is_dir() and other.stat().st_mtime < cutoff:
                shutil.rmtree(other, ignore_errors=True)
    return folder
