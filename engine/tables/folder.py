"""Where the engine keeps tables between runs, and what it says when it cannot.

The folder is $KAERU_CACHE_DIR when set, else the user cache folder (platformdirs). When it
cannot be used (a file stands in its place, it is read-only, the disk is full) tables are built
in memory and not kept, and a one-line notice says so once per folder: read the notices with
`notices()`, or be told as they come with `on_notice(listener)`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import platformdirs

from kaeru import APP_NAME  # the one app name (folders of cache, data, logs)

ENV_VAR = "KAERU_CACHE_DIR"

Listener = Callable[[str], None]

_notices: dict[str, str] = {}  # folder -> the notice given about it
_listeners: list[Listener] = []
_guard = threading.Lock()


def configured_dir() -> Path:
    """The cache folder named by the environment or the platform (it may not be usable)."""
    override = os.environ.get(ENV_VAR)
    return Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME))


def cache_dir() -> Path | None:
    """The cache folder, created if need be; None (and a notice) when it cannot be used."""
    path = configured_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
        if not path.is_dir():
            raise NotADirectoryError(f"not a folder: {path}")
    except OSError as error:
        unusable(path, error)
        return None
    return path


def cache_file(name: str) -> Path:
    """Where the table called `name` lives in the cache folder (it may not exist)."""
    return configured_dir() / name


def folder_bytes(folder: Path) -> int:
    """Bytes in the files under `folder` (0 when it does not exist). Files that vanish or cannot
    be read while counting are skipped; links are not followed."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def unusable(folder: Path, error: OSError) -> None:
    """Note that `folder` cannot hold tables (once per folder)."""
    reason = error.strerror or type(error).__name__
    notice(
        str(folder),
        f"cache folder {printable(str(folder))} is unusable ({reason}): "
        "new tables are built in memory and not kept",
    )


def notice(topic: str, message: str) -> None:
    """Record `message` unless a notice about `topic` was given already; tell the listeners."""
    with _guard:
        if topic in _notices:
            return
        _notices[topic] = message
        listeners = list(_listeners)
    for listener in listeners:
        listener(message)


def notices() -> tuple[str, ...]:
    """Every notice given so far, oldest first (each one line)."""
    with _guard:
        return tuple(_notices.values())


def on_notice(listener: Listener) -> None:
    """Call `listener(message)` for each notice from now on."""
    with _guard:
        _listeners.append(listener)


def forget_notices() -> None:
    """Forget the notices given and the listeners (tests start afresh with it)."""
    with _guard:
        _notices.clear()
        _listeners.clear()


def printable(text: str, limit: int = 120) -> str:
    """`text` on one line: control and other unprintable characters escaped, long text cut."""
    shown = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
