"""A lock file held across processes, through `filelock`: `flock` on Linux and macOS, the
Windows locking call on Windows, an existence lock where neither is to be had.

`try_hold(path)` makes one attempt and never waits, so a caller can report and be cancelled
while another process builds; `let_go(lock)` releases it and removes the file, so the cache
folder keeps no empty `.lock` files between builds.

Removing a file that others `flock` is safe only for its holder, before it lets go: a process
that opened the old file and gets its lock afterwards finds it unlinked and opens the path
again (filelock checks the link count). The Windows and existence locks remove their file
themselves on release.
"""

from __future__ import annotations

import os
import warnings
from contextlib import suppress
from pathlib import Path

with warnings.catch_warnings():  # without fcntl (not Windows) it warns that it falls back
    warnings.simplefilter("ignore")
    from filelock import BaseFileLock, FileLock, Timeout, UnixFileLock, has_fcntl

__all__ = ["BaseFileLock", "let_go", "try_hold"]


def try_hold(path: Path) -> BaseFileLock | None:
    """The lock of `path` when no one else holds it, else None. OSError when the file cannot be
    made or locked (a read-only folder; a file system without locks, which filelock would
    otherwise replace with an existence lock that a crash leaves behind)."""
    lock = FileLock(path, fallback_to_soft=False)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        return None
    return lock


def let_go(lock: BaseFileLock) -> None:
    """Remove the lock's file while it is still held (see the module), then release it."""
    if has_fcntl and isinstance(lock, UnixFileLock):
        with suppress(OSError):
            os.unlink(lock.lock_file)
    lock.release()
