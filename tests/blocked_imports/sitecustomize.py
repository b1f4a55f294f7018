"""Make modules unimportable, as they are on another system: with
`KAERU_TEST_BLOCK_MODULES=fcntl,resource` it is Windows as far as our code can tell (no `fcntl`,
no `resource`); with `asyncssh,textual_serve`, an install without the `serve` extra.

Put this folder first on PYTHONPATH and set the variable: Python imports this file at start (as
`sitecustomize`), in every process of the run, the search worker included. `pytest
--no-posix-modules` does both (tests/conftest.py); `install()` does it in the current process.
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from collections.abc import Sequence
from types import ModuleType

ENV_VAR = "KAERU_TEST_BLOCK_MODULES"
POSIX_ONLY = ("fcntl", "resource")


class Blocked(importlib.abc.MetaPathFinder):
    """A finder, first on sys.meta_path, that refuses the named modules and their submodules."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> None:
        if fullname.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r} (blocked)", name=fullname)
        return None


def install(names: Sequence[str]) -> None:
    """Refuse `names` from now on in this process (modules already imported are forgotten;
    whoever holds them keeps them)."""
    sys.meta_path.insert(0, Blocked(names))
    for name in list(sys.modules):
        if name.partition(".")[0] in names:
            del sys.modules[name]


_names = [n for n in os.environ.get(ENV_VAR, "").split(",") if n]
if _names:
    install(_names)
