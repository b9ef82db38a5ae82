"""``python -m botarena.envs.dungeon``: the contest runner (see ``runner``)."""
import sys

from .runner import main

if __name__ == "__main__":
    sys.exit(main())
