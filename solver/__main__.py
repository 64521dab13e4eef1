"""``python -m solver`` is the same as the ``memory-solver`` command."""

import sys

from solver.cli import console

sys.exit(console())
