# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Aetherya's compiled kernel, ``solver.kernels.aetherya``: the parts included below, one module for the game (see
``solver/kernels/__init__.py``); the twin of part ``src/aetherya_<part>.pxi`` is ``solver/twins/aetherya_<part>.py``."""

include "aetherya_opt.pxi"
include "aetherya_play.pxi"
include "aetherya_score.pxi"
include "aetherya_step.pxi"
