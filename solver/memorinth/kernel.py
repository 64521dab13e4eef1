"""The compiled Memorinth kernel, imported in this one module of the game.

The rules, the deal, the playouts and the escape searches run in ``src/memorinth_core.pyx`` (its readable twin:
``solver/twins/memorinth_core.py``, which documents the state vector). Every other module of the game calls
``kernel.<function>`` from here, so that a split or rename of the compiled module changes this file alone.
"""

from __future__ import annotations

from solver.kernels.memorinth_core import (apply_action, count_solutions, deal, escape_distances, greedy_escape,
                                           layout, legal_actions, path_bitboards, playouts, policy_action,
                                           resample, shortest_escape, skip_to_player)

__all__ = ["apply_action", "count_solutions", "deal", "escape_distances", "greedy_escape", "layout",
           "legal_actions", "path_bitboards", "playouts", "policy_action", "resample", "shortest_escape",
           "skip_to_player"]
