# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Embers of Memory's compiled kernel, ``solver.kernels.embers``: the parts included below, one module for the game (see
``solver/kernels/__init__.py``); the twin of part ``src/embers_<part>.pxi`` is ``solver/twins/embers_<part>.py``."""

include "embers_mind.pxi"
include "embers_placement.pxi"
include "embers_plan.pxi"
include "embers_step.pxi"
