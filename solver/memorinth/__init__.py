"""Memorinth (Pegasus Spiele): rules kernel, states, hints from what each player has seen, shortest escapes, puzzles.

Entry points: :class:`solver.memorinth.game.MemorinthGame` (registered as ``memorinth``), the command line
``memory-solver memorinth ...`` and the engine. Rules and interpretations: ``docs/rules/memorinth.md``; formats:
``docs/formats/memorinth.md``.
"""
