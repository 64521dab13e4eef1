"""Pure-Python twins of the compiled kernels (``solver.kernels``), same names and signatures."""
