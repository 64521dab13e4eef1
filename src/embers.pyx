# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Embers of Memory's compiled kernels: one extension module, ``solver.kernels.embers``, made of the parts below.

Each part ``src/embers_<part>.pxi`` keeps its own docstring, and its pure-Python twin is
``solver/twins/embers_<part>.py`` (same functions, same results; ``tests/twins/``). One module a game, not one
a part (issue 24, build time): every extension module costs its own boilerplate to translate and compile,
and the shared ``.pxd`` files a part cimports are compiled once for the game instead of once a part. The
parts share one namespace: a name defined at the top level of one part is defined for all of them.
"""

include "embers_mind.pxi"
include "embers_placement.pxi"
include "embers_plan.pxi"
include "embers_step.pxi"
