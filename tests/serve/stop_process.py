"""Ending a process a serving test started: SIGTERM, then SIGKILL when it has not ended within
a grace period (a loaded machine may be slow to say goodbye)."""

from __future__ import annotations

import subprocess
from typing import Any


def stop_process(process: subprocess.Popen[Any], grace: float = 10.0) -> None:
    """Terminate `process` if it still runs; kill it after `grace` seconds; reap it either way."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
