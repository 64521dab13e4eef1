"""Stopping Embers searches on time and on ``terminate``: the shared watcher (``solver.search.Watch``)."""

from solver.search import WATCH_EVERY, Watch  # noqa: F401  (the Embers move to the standard layout removes this file)
