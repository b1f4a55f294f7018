"""numba, loaded only by the modules that compile kernels (never at start-up), with its cache of
compiled code in the engine's cache folder, so only the first run on a machine compiles.

numba reads NUMBA_CACHE_DIR when it is first imported, so the folder is set here, before that
import; a folder the user set is left alone. When the cache folder cannot be used, numba's own
default (next to the sources, or nowhere) applies.
"""

from __future__ import annotations

import os

from kaeru.engine.tables.folder import cache_dir

if "NUMBA_CACHE_DIR" not in os.environ:
    _folder = cache_dir()
    if _folder is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(_folder / "numba")

from numba import njit  # noqa: E402

__all__ = ["njit"]
