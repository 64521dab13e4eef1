"""Compiled kernels, built by CMake from ``src/<game>.pyx`` (one module a game).

Each kernel ``solver.kernels.<game>`` is made of parts ``src/<game>_<part>.pxi``;
each part has a pure-Python twin ``solver.twins.<game>_<part>`` with the same
functions and signatures; the tests in ``tests/twins/`` check that they agree. There is no silent fallback: if the
package was not built, importing a kernel fails.
"""
