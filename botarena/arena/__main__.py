"""``python -m botarena.arena``: the ``botarena`` command (see ``cli``)."""
import sys

from .cli import main

sys.exit(main())
