"""A real, temporary PostgreSQL server on loopback for the tests: `initdb` into a temporary
folder, `pg_ctl start` on a free port (run as the `postgres` user when the tests run as root,
since PostgreSQL refuses to run as root), stopped at the end. Debian's postgresql 15 is looked
for under /usr/lib/postgresql; `KAERU_PG_BIN` names another folder of its binaries."""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

PG_ROOT = Path("/usr/lib/postgresql")


def pg_bin() -> Path | None:
    """The folder holding initdb and pg_ctl, or None when PostgreSQL is not installed."""
    named = os.environ.get("KAERU_PG_BIN")
    candidates = [Path(named)] if named else sorted(PG_ROOT.glob("*/bin"), reverse=True)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and shutil.which("initdb") else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """One temporary PostgreSQL server; `url(db)` addresses a database on it."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="kaeru-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "kaeru", "--no-sync",
                  "-E", "UTF8", "--locale=C")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.binaries / tool), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
                   " -c fsync=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://kaeru@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its address."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def remove(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


_SHARED: list[Cluster | None] = []


def shared() -> Cluster | None:
    """One cluster for the whole test run (started on first use, removed at exit), or None
    when PostgreSQL or psycopg is missing."""
    if not _SHARED:
        binaries = pg_bin()
        try:
            import psycopg  # noqa: F401
        except ImportError:
            binaries = None
        made = None if binaries is None else Cluster(binaries)
        if made is not None:
            atexit.register(made.remove)
            made.start()
        _SHARED.append(made)
    return _SHARED[0]


SKIP_REASON = "PostgreSQL (initdb, pg_ctl under /usr/lib/postgresql) or psycopg is not installed"
