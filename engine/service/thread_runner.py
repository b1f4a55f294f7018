"""Thread mode: every job runs in its own daemon thread of the calling process.

Cheap to start and shares the process's warm tables, but a pure-Python search holds the GIL,
so it slows every other thread of the process (the UI's key echo included): see
bench/search_latency.py."""

from __future__ import annotations

import os
import threading

from kaeru.engine.service.execute import execute
from kaeru.engine.service.jobs import Job

JOIN_SECONDS = 0.5  # at most this long in all, shutdown waits for cancelled threads


def lower_thread_priority(niceness: int) -> None:
    """Raise this thread's nice value by `niceness` (Linux sets nice per thread; elsewhere,
    or when not allowed, nothing happens)."""
    if niceness <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        tid = threading.get_native_id()
        now = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, now + niceness))
    except OSError:
        pass


class ThreadRunner:
    """Runs each job in a thread; cancel is the job's flag, read by the search's Control."""

    def __init__(self, niceness: int = 0) -> None:
        self.niceness = niceness
        self._threads: dict[int, threading.Thread] = {}
        self._lock = threading.Lock()

    def start(self, job: Job) -> None:
        thread = threading.Thread(
            target=self._run, args=(job,), name=f"kaeru-search-{job.id}", daemon=True
        )
        with self._lock:
            self._threads[job.id] = thread
        thread.start()

    def _run(self, job: Job) -> None:
        lower_thread_priority(self.niceness)
        try:
            result = execute(job.request, job.report, lambda: job.cancel_requested)
            job.finish(result)
        finally:
            with self._lock:
                self._threads.pop(job.id, None)

    def shutdown(self) -> None:
        """Wait a moment for the (already cancelled) threads; they are daemons in any case."""
        with self._lock:
            threads = list(self._threads.values())
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(JOIN_SECONDS / max(1, len(threads)))
