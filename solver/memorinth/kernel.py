"""The compiled Memorinth kernel (``solver.kernels.memorinth``), imported in this one module of the game.

The rules (``src/memorinth_rules.pxd``; readable twin ``solver/twins/memorinth_rules.py``, which documents the
state vector), the deal and the playouts run in ``src/memorinth_play.pxi``, the escape searches in
``src/memorinth_escape.pxi``, N games stepped together (the batched environment of ``openspiel.py``) in
``src/memorinth_step.pxi``. Every other module of the game calls ``kernel.<function>`` from here, so that a split
or rename of the compiled module's functions changes this file alone.
"""

from __future__ import annotations

from solver.kernels.memorinth import (apply_action, apply_actions_batch, count_solutions, deal, escape_distances,
                                      greedy_escape, layout, legal_actions, legal_actions_batch, legal_ranks,
                                      memo_words, path_bitboards, playouts, policy_action, random_legal, resample,
                                      shortest_escape, skip_to_player, step)

__all__ = ["apply_action", "apply_actions_batch", "count_solutions", "deal", "escape_distances", "greedy_escape",
           "layout", "legal_actions", "legal_actions_batch", "legal_ranks", "memo_words", "path_bitboards",
           "playouts", "policy_action", "random_legal", "resample", "shortest_escape", "skip_to_player", "step"]
