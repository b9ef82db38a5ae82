"""Where the tests find the contest data that is not ours to ship: the real maps and the
games recorded from the original engines (``BOTARENA_SHARED``, default ``../shared``
beside the repository).

A user's clone has no such folder: the tests that read it are then skipped, each with
the reason, and the rest of the suite runs as usual.  CI runs with the folder present and
``BOTARENA_REQUIRE_SHARED=1``, under which a missing folder fails the tests instead.
"""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("BOTARENA_SHARED", ROOT.parent / "shared"))


def shared_path(*parts):
    """``SHARED / parts``."""
    return SHARED.joinpath(*parts)


REQUIRED = os.environ.get("BOTARENA_REQUIRE_SHARED") == "1"


def needs_shared(*parts):
    """A ``skipif`` mark for tests that read ``SHARED / parts`` (with
    ``BOTARENA_REQUIRE_SHARED=1``, a missing folder is an error at collection)."""
    path = shared_path(*parts)
    if REQUIRED and not path.exists():
        raise FileNotFoundError(f"contest data {path} not found and BOTARENA_REQUIRE_SHARED=1 "
                                f"(set BOTARENA_SHARED)")
    return pytest.mark.skipif(not path.exists(),
                              reason=f"contest data {path} not found (set BOTARENA_SHARED)")


def shared_files(folder, pattern):
    """Parameters for a test over the files ``SHARED / folder / pattern`` (ids: their
    stems); without the folder, one parameter skipped with ``needs_shared``'s reason (not
    pytest's empty parameter set, which names no setting)."""
    parts = folder.split("/")
    files = sorted(shared_path(*parts).glob(pattern))
    if files:
        return [pytest.param(path, id=path.stem) for path in files]
    return [pytest.param(None, id="no-data", marks=needs_shared(*parts))]
