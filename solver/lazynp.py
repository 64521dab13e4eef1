"""numpy, imported the first time one of its names is read: ``from solver.lazynp import np``.

A short hint from the command line (issue 24) runs modules that use numpy elsewhere but not on its own path;
``import numpy`` is half of such a process's CPU. Modules on that path read numpy through :data:`np`: the first
name read imports numpy and copies its namespace into the proxy, so later reads are plain attribute reads
(as fast as a module's). This is the one place numpy is imported lazily.
"""

from __future__ import annotations

import importlib
from typing import Any


class LazyNumpy:
    """A stand-in for the ``numpy`` module that imports it on the first attribute read."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        module = importlib.import_module("numpy")
        self.__dict__.update(vars(module))
        return getattr(module, name)  # a name numpy itself loads lazily (numpy.random, ...) is read through it

    def loaded(self) -> bool:
        """Whether numpy has been imported through this proxy."""
        return bool(self.__dict__)


#: the proxy every lazily-numpy module imports
np: Any = LazyNumpy()
