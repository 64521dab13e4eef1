"""Compiled kernels, built by CMake from ``src/*.pyx`` (one module per concern).

Each kernel ``solver.kernels.<name>`` has a pure-Python twin
``solver.twins.<name>`` with the same functions and signatures; the tests in
``tests/twins/`` check that they agree. There is no silent fallback: if the
package was not built, importing a kernel fails.
"""
