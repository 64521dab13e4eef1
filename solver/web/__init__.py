"""The table-side web board (``memory-solver serve``, ``docs/web.md``)."""
