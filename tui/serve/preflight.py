"""What `kaeru serve ssh` sets up and checks before it listens, and `--check`:

- a writable temp folder: under systemd's `ProtectSystem=strict` without `PrivateTmp=yes` there
  is none, and asyncssh needs one when it is imported (`ctypes.util.find_library` runs a
  compiler probe in it), so the server makes `<data>/tmp` (mode 0700) and points TMPDIR at it;
- the soft limit on open files raised to the hard limit (each player holds a pty, pipes and a
  socket);
- whether the 15-puzzle's 7-8 pattern databases are built, and whether the search pool (or,
  without one, an arcade) under the memory limit may build them
  (`pty_session.table_build_allowed`).

Nothing here imports asyncssh: it runs before it is imported."""

from __future__ import annotations

import os
import resource
import tempfile
from collections.abc import Callable
from pathlib import Path

from kaeru.tui.serve.ssh.pty_session import PDB_BUILD_MEMORY_MB, table_build_allowed


def ensure_temp_dir(root: Path) -> str | None:
    """Make sure `tempfile` has a writable folder; a note when the server had to make one."""
    try:
        tempfile.gettempdir()
        return None
    except FileNotFoundError:
        pass
    folder = root / "tmp"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = None  # look again, with TMPDIR set
    tempfile.gettempdir()
    return f"no writable temp folder: using {folder} (TMPDIR)"


def raise_fd_limit() -> tuple[int, int]:
    """Raise the soft limit on open files to the hard one; (soft, hard) after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft, hard


def tables_built() -> bool:
    """Whether the 15-puzzle's 7-8 pattern databases are in the table cache."""
    from kaeru.engine.sliding.databases import pdb78

    return pdb78.ready()


def table_line(
    memory_mb: int, built: Callable[[], bool] = tables_built, pooled: bool = True
) -> str:
    """The start line about the large tables: built, or who may build them. `pooled`: the
    server's shared search pool runs every search (the default), so its workers load and build
    the tables; else each arcade's own worker does."""
    who = "the search pool's workers" if pooled else "the arcades"
    one = "a search pool worker" if pooled else "an arcade"
    limited = "the search pool" if pooled else "an arcade"
    if built():
        return f"the 15-puzzle's 7-8 pattern databases are built: {who} map them (one copy)"
    if table_build_allowed(memory_mb):
        return (
            f"the 15-puzzle's 7-8 pattern databases are not built: {one} whose 15-puzzle "
            "search runs long builds them (about a minute of CPU, 1.2 GB, once); "
            "`kaeru tables build` builds them ahead"
        )
    return (
        f"the 15-puzzle's 7-8 pattern databases are not built, and {limited} under "
        f"--memory-limit {memory_mb} MB does not build them (they need {PDB_BUILD_MEMORY_MB}): "
        "its 15-puzzle solver uses the smaller 7-7-1 ones; run `kaeru tables build` once, "
        "as the server's user, to build them ahead"
    )


def writable(folder: Path) -> str | None:
    """None when `folder` can be made and written; else why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".kaeru-check-"):
            pass
    except OSError as error:
        return f"{folder} is not writable ({error.strerror or error})"
    return None
