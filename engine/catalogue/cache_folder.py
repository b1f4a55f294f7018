"""The cache folder as the player sees it on the settings screen: where it is, how much it
holds, and clearing it without breaking a game in progress.

The folder is the one the tables use (`engine.tables.folder.configured_dir`: $KAERU_CACHE_DIR,
else the platform's user cache folder). Clearing deletes the tables and numba's compiled code;
tables already loaded stay in memory, so a game in progress goes on, and whatever is needed
later is built again on first use. Nothing a build is using is touched:

- a table whose `<key>.lock` another build holds (engine.tables.store locks it while building
  and saving) is kept, lock file and all; the others are deleted while their lock is held here,
  so no build can start writing one meanwhile, and the lock file goes when it is let go;
- temporary (hidden) files younger than TEMPORARY_GRACE (a write may be under way) are kept;
- folders are kept (numba recreates its files, not always its folders).

When the folder is shared by every player of an `kaeru serve` server ($KAERU_PLAYER is set),
one player may not clear it for everyone (`shared()`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from kaeru.engine.rules.words import plural
from kaeru.engine.tables.first_use import home_short, megabytes
from kaeru.engine.tables.folder import configured_dir, folder_bytes, printable
from kaeru.engine.tables.lock_file import let_go, try_hold

LOCK_SUFFIX = ".lock"
TEMPORARY_GRACE = 600.0  # seconds: a younger temporary file may be a write under way
PLAYER_ENV = "KAERU_PLAYER"  # set by `kaeru serve` for each player's arcade


def location() -> Path:
    """The cache folder (it may not exist yet)."""
    return configured_dir()


def shown_location(folder: Path | None = None) -> str:
    """The folder for players: one line, the home folder as ~."""
    return printable(home_short(location() if folder is None else folder))


def size_on_disk(folder: Path | None = None) -> int:
    """Bytes the cache folder holds (0 when there is none)."""
    return folder_bytes(location() if folder is None else folder)


def shared() -> bool:
    """Whether the folder is shared by the players of a server (then it is not theirs to
    clear)."""
    return bool(os.environ.get(PLAYER_ENV))


@dataclass(frozen=True)
class Cleared:
    """What clearing did: files deleted, bytes freed, and files kept (a build was using them,
    or they could not be deleted)."""

    removed: int
    freed: int
    kept: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line for players."""
        if not self.removed and not self.kept:
            return "The cache folder was already empty."
        line = f"Cleared {megabytes(self.freed)} ({plural(self.removed, 'file')})."
        if self.kept:
            line += (
                f" Kept {plural(len(self.kept), 'file')} a table build is using: "
                "clear again when it is done."
            )
        return line


def clear(folder: Path | None = None, grace: float = TEMPORARY_GRACE) -> Cleared:
    """Delete what the cache folder holds, except what a build is using (see the module)."""
    folder = location() if folder is None else folder
    if not folder.is_dir():
        return Cleared(0, 0)
    tally = _Tally()
    try:
        names = sorted(p.name for p in folder.iterdir())
    except OSError:
        return Cleared(0, 0)
    busy: list[str] = []  # keys whose build is under way
    for lock_name in (n for n in names if n.endswith(LOCK_SUFFIX)):
        key = lock_name.removesuffix(LOCK_SUFFIX)
        with _try_lock(folder / lock_name) as held:
            if not held:
                busy.append(key)
                continue
            for name in names:
                if _belongs(name, key) and name != lock_name:
                    tally.delete(folder / name, grace)
        if not (folder / lock_name).exists():  # letting go of the lock removed its file
            tally.removed += 1
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            path = Path(root) / name
            owner = next((k for k in busy if _belongs(name, k)), None)
            if path.parent == folder and owner is not None:
                tally.kept.append(name)
            else:
                tally.delete(path, grace)
    return Cleared(tally.removed, tally.freed, tuple(sorted(set(tally.kept))))


class _Tally:
    def __init__(self) -> None:
        self.removed = 0
        self.freed = 0
        self.kept: list[str] = []

    def delete(self, path: Path, grace: float) -> None:
        try:
            info = path.lstat()
        except OSError:
            return  # gone already
        if _is_temporary(path.name) and time.time() - info.st_mtime < grace:
            self.kept.append(path.name)
            return
        try:
            path.unlink()
        except FileNotFoundError:
            return
        except OSError:
            self.kept.append(path.name)
            return
        self.removed += 1
        self.freed += info.st_size


def _belongs(name: str, key: str) -> bool:
    """Whether `name` is a file of table `key`: its versions, their temporary files, its lock."""
    return name.startswith((f"{key}.v", f".{key}.v")) or name == f"{key}{LOCK_SUFFIX}"


def _is_temporary(name: str) -> bool:
    """A file that may be being written: hidden ones (the tables' `.<name>.<random>.tmp`, the
    catalogue's `.catalogue-<random>`) and numba's `<name>.tmp.<id>`."""
    return name.startswith(".") or name.endswith(".tmp") or ".tmp." in name


@contextmanager
def _try_lock(path: Path) -> Iterator[bool]:
    """Hold `path`'s lock if no one else does; yields whether it is held. A lock that cannot be
    taken for another reason (no locks on this file system) counts as free: builds there save
    nothing (engine.tables.store saves only under the lock)."""
    try:
        held = try_hold(path)
    except OSError:
        yield True
        return
    if held is None:
        yield False
        return
    try:
        yield True
    finally:
        let_go(held)
