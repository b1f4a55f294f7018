"""Every command but `serve` works where `fcntl` and `resource` cannot be imported (Windows): a
few commands in a child process that cannot import them, so this stays true between full runs
of `pytest --no-posix-modules`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import kaeru
from kaeru.tui.cli.exit_codes import EXIT_BAD_INPUT, EXIT_OK

REPO = Path(kaeru.__file__).resolve().parent.parent
BLOCKED_IMPORTS = REPO / "tests" / "blocked_imports"

COMMANDS = """
import contextlib, io, json, sys
from kaeru.tui.cli.main import main
runs = [["--version"], ["list"], ["solve", "two-blank-3x3"], ["hint", "flip-it-6"],
        ["completion", "fish"], ["man"], ["serve", "ssh", "--guest"]]
codes = []
for words in runs:
    with contextlib.redirect_stdout(io.StringIO()):
        codes.append(main(words))
blocked = []
for name in ("fcntl", "resource"):
    try:
        __import__(name)
    except ImportError:
        blocked.append(name)
print(json.dumps({"codes": codes, "blocked": blocked}))
"""


def test_the_commands_run_without_fcntl_and_resource(tmp_path: Path):
    cache = tmp_path / "cache"
    env = {
        **os.environ,
        "PYTHONPATH": str(BLOCKED_IMPORTS),
        "KAERU_TEST_BLOCK_MODULES": "fcntl,resource",
        "KAERU_CACHE_DIR": str(cache),
        "KAERU_DATA_DIR": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [sys.executable, "-c", COMMANDS], cwd=REPO, capture_output=True, text=True, timeout=300,
        env=env, check=False,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["blocked"] == ["fcntl", "resource"]
    assert report["codes"] == [EXIT_OK] * 6 + [EXIT_BAD_INPUT], done.stderr
    said = done.stderr.strip().splitlines()[-1]  # serve ssh: one line, why not here
    assert "needs a POSIX system" in said and ("'fcntl'" in said or "'resource'" in said)
    assert any(cache.glob("two-blank-3x3*.table"))  # the table was kept...
    assert not any(cache.glob("*.lock"))  # ...and its lock file went with the lock
