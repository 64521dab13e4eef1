# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Memorinth's compiled kernel, ``solver.kernels.memorinth``: the parts included below, one module for the game (see
``solver/kernels/__init__.py``); the twin of part ``src/memorinth_<part>.pxi`` is ``solver/twins/memorinth_<part>.py``."""

include "memorinth_escape.pxi"
include "memorinth_play.pxi"
include "memorinth_step.pxi"
