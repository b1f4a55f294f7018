"""numba's cache of compiled code, checked before it is trusted: a damaged cache is a cache miss
(the kernel is compiled again and the cache rewritten), never an error or a crash.

numba reads its cache files with `pickle` and loads the object code in them as it is: a
truncated or emptied file raised `EOFError`/`UnpicklingError` out of every solve, and a single
flipped bit in a kernel could crash the process. `guard_numba_cache()` (called once by `jit`)
wraps numba's cache file so that:

- every data file is written with a SHA-256 of its bytes beside it (`<name>.nbc.sha256`), and
  read back only when the digest matches (a file without one, from before, is compiled again);
- an index that cannot be read for any reason (truncated, not a pickle, a folder in its place)
  counts as empty;
- any error while loading a kernel is a miss, and any error while saving one is ignored (the
  kernel is used from memory), so a cache folder that cannot be used never stops a search.

Damage found is told in one line through the cache folder's notices (`tables.folder.notice`:
the CLI prints them after its output, the app shows them).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
from typing import Any

log = logging.getLogger(__name__)

DIGEST_SUFFIX = ".sha256"
_guarded = False


def tell_damage(path: str, error: object) -> None:
    """One line for the player about a damaged file of compiled code (once per file)."""
    from kaeru.engine.tables.folder import notice, printable

    notice(
        f"numba:{path}",
        f"compiled code in the cache was damaged ({printable(str(error), 80)}): compiled again"
        f" ({printable(os.path.basename(path), 60)})",
    )


class DamagedCacheFile(OSError):
    """A compiled-code file whose bytes do not match the digest written with it."""


def digest_path(path: str) -> str:
    return path + DIGEST_SUFFIX


def guard_numba_cache() -> None:
    """Wrap numba's cache (once per process); see the module's docstring."""
    global _guarded
    if _guarded:
        return
    from numba.core import caching

    cache_file = caching.IndexDataCacheFile
    original_index = cache_file._load_index

    def load_index(self: Any) -> dict[Any, Any]:
        try:
            return dict(original_index(self))
        except Exception as error:  # any damage: an empty index, rewritten later
            log.warning("numba cache index %s unreadable (%s): compiling again",
                        self._index_path, error)
            tell_damage(str(self._index_path), error)
            return {}

    def save_data(self: Any, name: str, data: Any) -> None:
        raw = self._dump(data)
        path = self._data_path(name)
        with self._open_for_write(path) as handle:
            handle.write(raw)
        with self._open_for_write(digest_path(path)) as handle:
            handle.write(hashlib.sha256(raw).hexdigest().encode())

    def load_data(self: Any, name: str) -> Any:
        path = self._data_path(name)
        with open(path, "rb") as handle:
            raw = handle.read()
        try:
            with open(digest_path(path), "rb") as handle:
                expected = handle.read().decode("ascii", "replace").strip()
        except OSError:
            expected = ""
        if hashlib.sha256(raw).hexdigest() != expected:
            if expected:  # a file of before the digests is only compiled again, not damage
                tell_damage(path, "its bytes do not match their digest")
            raise DamagedCacheFile(f"{os.path.basename(path)} does not match its digest")
        return pickle.loads(raw)

    cache_file._load_index = load_index  # type: ignore[method-assign]
    cache_file._save_data = save_data  # type: ignore[method-assign]
    cache_file._load_data = load_data  # type: ignore[method-assign]

    cache = caching.Cache
    original_load, original_save = cache.load_overload, cache.save_overload

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return original_load(self, sig, target_context)
        except Exception as error:  # a miss: compiled again
            log.warning("numba cache of %s unusable (%s): compiling again", self._name, error)
            tell_damage(str(self._name), error)
            return None

    def save_overload(self: Any, sig: Any, data: Any) -> None:
        try:
            original_save(self, sig, data)
        except Exception as error:  # the kernel works from memory all the same
            log.warning("numba cache of %s not written (%s)", self._name, error)

    cache.load_overload = load_overload  # type: ignore[method-assign]
    cache.save_overload = save_overload  # type: ignore[method-assign]
    _guarded = True
