"""Compiled kernels, built by CMake from ``src/<game>.pyx`` (one module a game).

Each kernel ``solver.kernels.<game>`` is made of parts ``src/<game>_<part>.pxi``;
each part has a pure-Python twin ``solver.twins.<game>_<part>`` with the same
functions and signatures; the tests in ``tests/twins/`` check that they agree. One module a game rather than one
a part (issue 24, build time): every extension module costs its own boilerplate to translate and compile, and
the shared ``.pxd`` files a part cimports are compiled once for the game instead of once a part. The parts of a
game share one namespace: a name defined at the top level of one part is defined for all of them. There is no
silent fallback: if the package was not built, importing a kernel fails.
"""
