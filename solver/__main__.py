"""``python -m solver`` is the same as the ``memory-solver`` command."""

import sys

from solver.cli import main

sys.exit(main())
