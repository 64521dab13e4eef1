"""The compiled core is really compiled, and every kernel has a twin with the same signatures."""

import importlib
import importlib.machinery
import inspect
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
KERNELS = sorted(p.stem for p in SRC.glob("*.pyx"))


def test_there_are_kernels():
    assert KERNELS, "src/ holds no .pyx kernel"


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_is_an_extension_module(name):
    module = importlib.import_module(f"solver.kernels.{name}")
    assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (
        f"solver.kernels.{name} was imported from {module.__file__}, not from a compiled build")


@pytest.mark.parametrize("name", KERNELS)
def test_twin_has_the_same_public_functions_and_signatures(name):
    kernel = importlib.import_module(f"solver.kernels.{name}")
    twin = importlib.import_module(f"solver.twins.{name}")
    public = sorted(n for n, obj in vars(kernel).items()
                    if callable(obj) and not n.startswith("_") and not isinstance(obj, type)
                    and getattr(obj, "__module__", kernel.__name__) == kernel.__name__)
    assert public, f"kernel {name} exposes no function"
    for fn in public:
        assert hasattr(twin, fn), f"twin solver.twins.{name} lacks {fn}"
        kernel_params = list(inspect.signature(getattr(kernel, fn)).parameters)
        twin_params = list(inspect.signature(getattr(twin, fn)).parameters)
        assert kernel_params == twin_params, f"{name}.{fn}: kernel {kernel_params} != twin {twin_params}"
