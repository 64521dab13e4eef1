# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Forgotten's compiled kernel, ``solver.kernels.forgotten``: the parts included below, one module for the game (see
``solver/kernels/__init__.py``); the twin of part ``src/forgotten_<part>.pxi`` is ``solver/twins/forgotten_<part>.py``."""

include "forgotten_exact.pxi"
include "forgotten_paths.pxi"
include "forgotten_playout.pxi"
