"""``core.cache``: numba's cache folder follows the sources compiled code is built from."""
from pathlib import Path

from botarena.core import cache

CORE = Path(cache.__file__).parent


def names(paths):
    return {str(path.relative_to(cache.PACKAGE)) for path in paths}


def test_the_core_modules_compiled_code_reads_are_hashed_and_the_front_ends_are_not():
    hashed = names(cache.kernel_sources())
    for module in ("jit", "rng", "grid", "rewards", "layout", "prefetch", "batched"):
        assert f"core/{module}.py" in hashed
    for module in ("parallel_env", "frame", "window", "snapshot", "config"):
        assert f"core/{module}.py" not in hashed
    for path in CORE.glob("*.py"):          # every module that uses numba is in
        if b"numba" in path.read_bytes() or b"from .jit import" in path.read_bytes():
            assert f"core/{path.name}" in hashed


def test_a_game_hashes_its_whole_folder_and_an_edit_changes_the_folder(tmp_path, monkeypatch):
    own = names(cache.kernel_sources("towers")) - names(cache.kernel_sources())
    assert own == names(sorted((cache.PACKAGE / "envs" / "towers").rglob("*.py")))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    # configure() points numba at its folder: put this process's setting back afterwards
    monkeypatch.setattr(cache.numba_config, "CACHE_DIR", cache.numba_config.CACHE_DIR)
    before = cache.configure("towers")
    assert before.parent == tmp_path and before.name.startswith("towers-")
    sources = cache.kernel_sources("towers")
    original = cache.source_hash(sources)
    # the hash covers each file's path and bytes: another file list gives another folder
    assert cache.source_hash(sources[:-1]) != original
    assert cache.configure("towers") == before       # the same sources, the same folder
