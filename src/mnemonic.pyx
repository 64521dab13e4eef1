# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Mnemonic's compiled kernel, ``solver.kernels.mnemonic``: the parts included below, one module for the game (see
``solver/kernels/__init__.py``); the twin of part ``src/mnemonic_<part>.pxi`` is ``solver/twins/mnemonic_<part>.py``."""

include "mnemonic_odds.pxi"
include "mnemonic_plan.pxi"
include "mnemonic_step.pxi"
