"""numba, loaded only by the modules that compile kernels (never at start-up), with its cache of
compiled code in the engine's cache folder, so only the first run on a machine compiles.

numba reads NUMBA_CACHE_DIR when it is first imported, so the folder is set here, before that
import; a folder the user set is left alone. When the cache folder cannot be used, numba's own
default (next to the sources, or nowhere) applies. The cache is checked before it is trusted
(`jit_cache`): damaged compiled code is compiled again.

A compile cannot be stopped (seconds of LLVM on first use): `compiling()` says whether one is
under way in this process (numba's "numba:compile" events), so the search worker, asked to
cancel, can end itself rather than leave a core busy (`engine.service.worker`).
"""

from __future__ import annotations

import os
import threading

from kaeru.engine.tables.folder import cache_dir

if "NUMBA_CACHE_DIR" not in os.environ:
    _folder = cache_dir()
    if _folder is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(_folder / "numba")

from numba import njit
from numba.core import event

from kaeru.engine.sliding.jit_cache import guard_numba_cache

guard_numba_cache()  # a damaged cache of compiled code is compiled again, never trusted


class _Compiles(event.Listener):
    """Counts the compiles under way (nested ones too: a kernel's inlined helpers)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0

    def on_start(self, _: event.Event) -> None:
        with self.lock:
            self.running += 1

    def on_end(self, _: event.Event) -> None:
        with self.lock:
            self.running -= 1


_compiles = _Compiles()
event.register("numba:compile", _compiles)


def compiling() -> bool:
    """Whether numba is compiling a kernel in this process now (a load from its cache is not
    a compile: it ends in well under a second)."""
    return _compiles.running > 0


__all__ = ["compiling", "njit"]
