"""numba, loaded only by the modules that compile kernels (never at start-up), with its cache of
compiled code in the engine's cache folder, so only the first run on a machine compiles.

numba reads NUMBA_CACHE_DIR when it is first imported, so the folder is set here, before that
import; a folder the user set is left alone. When the cache folder cannot be used, numba's own
default (next to the sources, or nowhere) applies. The cache is checked before it is trusted
(`jit_cache`): damaged compiled code is compiled again.
"""

from __future__ import annotations

import os

from kaeru.engine.tables.folder import cache_dir

if "NUMBA_CACHE_DIR" not in os.environ:
    _folder = cache_dir()
    if _folder is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(_folder / "numba")

from numba import njit  # noqa: E402

from kaeru.engine.sliding.jit_cache import guard_numba_cache  # noqa: E402

guard_numba_cache()  # a damaged cache of compiled code is compiled again, never trusted

__all__ = ["njit"]
