"""The search worker process: reads commands, runs each job in a thread of its own, sends
progress and results back. Tables a search loads stay warm here from one job to the next.

Work that cannot stop at a cancel ends the worker, once every job it holds is cancelled (the
service starts a fresh one for the next job), so Escape frees the core at once: a kernel numba
is still compiling CANCEL_GRACE seconds after the cancel (seconds of LLVM on first use), or a
cancelled job still running STUCK_AFTER seconds after it. A search that stops as asked (within
milliseconds, or a few hundred on a busy machine) keeps its warm worker.

It runs under a memory limit (RLIMIT_AS, where the system has one: not on Windows), so a
runaway search fails as "out of memory" in here instead of taking the app down; it writes
nothing to the terminal (its stdout and stderr go to /dev/null: the app owns the screen); it
ends when the app closes its command pipe, the app's death included.
"""

from __future__ import annotations

import os
import pickle
import shutil
import signal
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection

from kaeru.engine.rules.protocol import SearchStats
from kaeru.engine.service import protocol
from kaeru.engine.service.execute import execute
from kaeru.engine.service.jobs import JobRequest, failed_result

CANCEL_GRACE = 0.05  # seconds after a cancel from which a compile still running ends the worker
STUCK_AFTER = 1.0  # seconds after a cancel from which a job still running ends the worker
CANCEL_WATCH = 2.0  # seconds the worker keeps looking for work a cancel left running
CANCEL_LOOK = 0.02  # seconds between those looks


def limit_memory(limit_bytes: int | None) -> None:
    """Cap the address space of this process (soft limit; never above the hard one). Where
    there is no `resource` module (Windows) the search runs uncapped."""
    if limit_bytes is None:
        return
    try:
        import resource  # POSIX only
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit_bytes = min(limit_bytes, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, hard))


def lower_priority(niceness: int) -> None:
    """Raise this process's nice value by `niceness`, where there is one (Windows has no
    `os.nice`: there the worker runs at the app's priority)."""
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)


def silence_output() -> None:
    """Point fds 1 and 2 at /dev/null so nothing the worker prints reaches the app's screen."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


class Worker:
    """The worker's state: the result pipe (shared by job threads) and each job's cancel flag."""

    def __init__(self, results: Connection) -> None:
        self.results = results
        self.send_lock = threading.Lock()
        self.flags: dict[int, threading.Event] = {}
        self.threads: dict[int, threading.Thread] = {}

    def send(self, message: tuple[object, ...]) -> None:
        with self.send_lock:
            self.results.send(message)

    def start_job(self, job_id: int, request: JobRequest) -> None:
        flag = threading.Event()
        self.flags[job_id] = flag
        thread = threading.Thread(
            target=self.run_job, args=(job_id, request, flag), name=f"job-{job_id}", daemon=True
        )
        self.threads[job_id] = thread
        thread.start()

    def run_job(self, job_id: int, request: JobRequest, flag: threading.Event) -> None:
        def progress(stats: SearchStats) -> None:
            self.send((protocol.PROGRESS, job_id, stats))

        result = execute(request, progress, flag.is_set)
        self.flags.pop(job_id, None)
        self.threads.pop(job_id, None)
        try:
            self.send((protocol.DONE, job_id, result))
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            self.send(
                (
                    protocol.DONE,
                    job_id,
                    failed_result(
                        request,
                        f"The result could not be sent back: {type(error).__name__}: {error}",
                    ),
                )
            )

    def cancel(self, job_id: int) -> None:
        flag = self.flags.get(job_id)
        if flag is not None:
            flag.set()
            threading.Thread(target=self.end_if_stuck, args=(job_id,), daemon=True,
                             name=f"cancel-{job_id}").start()

    def stuck(self, job_id: int, waited: float) -> bool:
        """Whether work a cancel could not stop is still running `waited` seconds after it: a
        compile, or the cancelled job past STUCK_AFTER; only when every job here is cancelled
        (a job still wanted may need that compile)."""
        if any(not flag.is_set() for flag in list(self.flags.values())):
            return False
        jit = sys.modules.get("kaeru.engine.sliding.jit")  # numba loaded: kernels compile
        if jit is not None and jit.compiling():
            return True
        thread = self.threads.get(job_id)
        return waited >= STUCK_AFTER and thread is not None and thread.is_alive()

    def end_if_stuck(self, job_id: int) -> None:
        """From CANCEL_GRACE after the cancel, for CANCEL_WATCH seconds: end the worker when
        `stuck` (a compile may begin after the job ended: a search's kernel thread compiles)."""
        asked = time.monotonic()
        time.sleep(CANCEL_GRACE)
        while (waited := time.monotonic() - asked) < CANCEL_WATCH:
            if self.stuck(job_id, waited):
                os._exit(0)  # a clean end: the service starts a fresh worker for the next job
            time.sleep(CANCEL_LOOK)


def forward_notices(worker: Worker) -> None:
    """The engine's one-line notices (an unusable cache folder, damaged compiled code) go to
    the app, which shows them: nothing here can reach the screen."""
    from kaeru.engine.tables.folder import on_notice

    def forward(line: str) -> None:
        try:
            worker.send((protocol.NOTICE, line))
        except (OSError, ValueError, EOFError):
            pass  # the app is gone

    on_notice(forward)


def without_compiled_cache() -> str:
    """Point numba's cache at a fresh empty folder of this process (before numba is imported):
    kernels are compiled again instead of loaded from a cache that may be damaged."""
    folder = tempfile.mkdtemp(prefix="kaeru-numba-")
    os.environ["NUMBA_CACHE_DIR"] = folder
    return folder


def worker_main(
    commands: Connection,
    results: Connection,
    memory_limit: int | None,
    niceness: int,
    compiled_cache: bool = True,
) -> None:
    """The worker process's body (the target of a spawned multiprocessing.Process).
    `compiled_cache` False: a previous worker crashed, so compiled code is not read from the
    cache (the folder used instead is removed when the worker ends)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the app's to handle, not ours
    fresh_cache = None if compiled_cache else without_compiled_cache()
    silence_output()
    limit_memory(memory_limit)
    from kaeru.engine.sliding.databases.pdb78 import allow_unasked_builds

    allow_unasked_builds()  # a long-lived process: it may build the 7-8 databases when a
    # 15-puzzle search runs long (a one-shot command never does)
    lower_priority(niceness)
    worker = Worker(results)
    forward_notices(worker)
    try:
        worker.send((protocol.READY, os.getpid()))
        while True:
            try:
                message = commands.recv()
            except (EOFError, OSError):
                break  # the app is gone
            if message[0] == protocol.RUN:
                worker.start_job(message[1], message[2])
            elif message[0] == protocol.CANCEL:
                worker.cancel(message[1])
            else:
                break
    finally:
        for flag in list(worker.flags.values()):
            flag.set()
        if fresh_cache is not None:
            shutil.rmtree(fresh_cache, ignore_errors=True)
        sys.stdout.flush()
        os._exit(0)  # never wait for job threads still unwinding
