# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Mnemonic's compiled kernels: one extension module, ``solver.kernels.mnemonic``, made of the parts below.

Each part ``src/mnemonic_<part>.pxi`` keeps its own docstring, and its pure-Python twin is
``solver/twins/mnemonic_<part>.py`` (same functions, same results; ``tests/twins/``). One module a game, not one
a part (issue 24, build time): every extension module costs its own boilerplate to translate and compile,
and the shared ``.pxd`` files a part cimports are compiled once for the game instead of once a part. The
parts share one namespace: a name defined at the top level of one part is defined for all of them.
"""

include "mnemonic_odds.pxi"
include "mnemonic_plan.pxi"
include "mnemonic_step.pxi"
