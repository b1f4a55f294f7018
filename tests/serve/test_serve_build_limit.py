"""The 7-8 databases build within the address space `kaeru serve` lets a search build them in
(`PDB_BUILD_MEMORY_MB`): the operator's `--memory-limit` from there up never fails a build."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from kaeru.tui.serve.ssh.pty_session import PDB_BUILD_MEMORY_MB

BUILD = "from kaeru.tui.cli import main; raise SystemExit(main(['tables', 'build', " \
    "'sliding-4x4:7-8', '--json']))"


def _limit() -> None:
    size = PDB_BUILD_MEMORY_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (size, size))


@pytest.mark.slow  # the whole 7-8 build: about a minute of CPU
def test_the_7_8_databases_build_under_the_serving_build_limit(tmp_path: Path) -> None:
    env = {**os.environ, "KAERU_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", BUILD], env=env, preexec_fn=_limit,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    tables = sorted(p.name for p in tmp_path.glob("sliding-4x4.pdb-*.table"))
    assert len(tables) == 2, tables
