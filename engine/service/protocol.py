"""The messages between the app and its search worker process, one pickled tuple each.

To the worker (its command pipe):   ("run", job_id, JobRequest) · ("cancel", job_id) · ("stop",)
From the worker (its result pipe):  ("ready", pid) · ("progress", job_id, SearchStats)
                                    · ("done", job_id, JobResult) · ("notice", line)
(a notice: one line for the player from the engine's cache, `tables.folder.notice`)
"""

from __future__ import annotations

from typing import Final

RUN: Final = "run"
CANCEL: Final = "cancel"
STOP: Final = "stop"

READY: Final = "ready"
PROGRESS: Final = "progress"
DONE: Final = "done"
NOTICE: Final = "notice"
