"""The messages between the app and its search worker process, one pickled tuple each.

To the worker (its command pipe):   ("run", job_id, JobRequest) · ("cancel", job_id) · ("stop",)
From the worker (its result pipe):  ("ready", pid) · ("progress", job_id, SearchStats)
                                    · ("done", job_id, JobResult)
"""

from __future__ import annotations

from typing import Final

RUN: Final = "run"
CANCEL: Final = "cancel"
STOP: Final = "stop"

READY: Final = "ready"
PROGRESS: Final = "progress"
DONE: Final = "done"
