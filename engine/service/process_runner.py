"""Process mode: jobs run in one persistent worker process per service, started on first use
and reused, so tables it loads stay warm. The app's process keeps the GIL to itself.

A worker that crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, or an exit it did not choose)
is restarted at once and its jobs are retried once, in a worker that does not use the cache of
compiled code (damaged compiled code is the likeliest cause); a second crash, or a worker the OS
or a person kills (SIGKILL, SIGTERM), ends the jobs as "failed" with a one-line message, and
the next job gets a fresh worker. The worker's start never depends on the caller's `__main__`
(a program read from standard input has no file spawn could import again). `shutdown()`
stops the worker and leaves no process behind. The worker is started with the "spawn" context,
never "fork" (the app has threads), and not "forkserver" (whose server process would outlive
the service).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Callable
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess

from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.text_input import shown
from kaeru.engine.service import protocol
from kaeru.engine.service.jobs import Job, failed_result
from kaeru.engine.service.worker import worker_main

log = logging.getLogger(__name__)

MEMORY_ENV = "KAERU_SEARCH_MEMORY_MB"
STOP_SECONDS = 1.0  # how long shutdown lets the worker end by itself before terminating it
WORKER_NICENESS = 10  # searches yield the CPU to anything interactive (keys); idle cores: no cost
CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT}
_main_swap = threading.Lock()


def crashed(process: BaseProcess) -> bool:
    """Whether the worker ended by a crash (not by a kill, and not asked to end)."""
    code = process.exitcode
    if code is None or code == 0:
        return False
    return code > 0 or -code in CRASH_SIGNALS


def start_without_main(process: BaseProcess) -> None:
    """Start a spawned `process` as if the caller had no `__main__` module: the worker's target
    lives in the engine, and spawn would otherwise run the caller's main file again in the
    child (or fail, when the program was read from standard input: `<stdin>`)."""
    with _main_swap:
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            process.start()
        finally:
            if main is not None:
                sys.modules["__main__"] = main


def default_memory_limit() -> int | None:
    """$KAERU_SEARCH_MEMORY_MB (0: no limit), else half the machine's memory, at most 8 GiB;
    BadInput when the variable is not a whole number."""
    override = os.environ.get(MEMORY_ENV)
    if override is not None:
        try:
            megabytes = int(override)
        except ValueError:
            raise BadInput(
                f"${MEMORY_ENV} must be a whole number of megabytes (0: no limit),"
                f" not {shown(override)}"
            ) from None
        return megabytes * 2**20 if megabytes > 0 else None
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # AttributeError: no sysconf (Windows)
        return 8 * 2**30
    return min(8 * 2**30, total // 2)


def ended_message(process: BaseProcess, memory_limit: int | None) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        how = f"was killed ({name})"
    else:
        how = f"ended (exit code {code})"
    limit = f"; memory limit {memory_limit // 2**20:,} MB" if memory_limit else ""
    return f"The search process {how}{limit}."


class WorkerHandle:
    """One worker process, its pipes, the jobs sent to it, and the thread reading its replies."""

    def __init__(
        self,
        memory_limit: int | None,
        niceness: int,
        *,
        compiled_cache: bool = True,
        on_crash: Callable[[list[Job]], bool] | None = None,
    ) -> None:
        self.memory_limit = memory_limit
        self.compiled_cache = compiled_cache
        self.on_crash = on_crash  # given the lost jobs of a crash: True when it took them
        context = multiprocessing.get_context("spawn")
        command_out, self.commands = context.Pipe(duplex=False)
        self.results, result_in = context.Pipe(duplex=False)
        self.process = context.Process(
            target=worker_main,
            args=(command_out, result_in, memory_limit, niceness, compiled_cache),
            name="kaeru-search-worker",
            daemon=True,
        )
        self.jobs: dict[int, Job] = {}
        self.lock = threading.Lock()
        # waitpid from two threads at once loses the exit code: one thread at a time reaps
        self.reap_lock = threading.Lock()
        self.started_at = time.perf_counter()
        self.ready_at: float | None = None  # when the worker said it was up
        self.ended = False
        self.stopping = False  # shutdown asked it to end
        start_without_main(self.process)
        command_out.close()  # the worker's ends: closed here so each side sees the other's EOF
        result_in.close()
        self.reader = threading.Thread(
            target=self._read, name=f"kaeru-search-reader-{self.process.pid}", daemon=True
        )
        self.reader.start()

    @property
    def startup_seconds(self) -> float | None:
        """From starting the process to its first message (interpreter and engine imported)."""
        return None if self.ready_at is None else self.ready_at - self.started_at

    @property
    def alive(self) -> bool:
        with self.reap_lock:
            return not self.ended and self.process.is_alive()

    def send(self, message: tuple[object, ...]) -> None:
        with self.lock:
            self.commands.send(message)

    def run(self, job: Job) -> bool:
        """Send `job` to this worker; False when the worker has already ended."""
        with self.lock:
            if self.ended:
                return False
            self.jobs[job.id] = job
        try:
            self.send((protocol.RUN, job.id, job.request))
        except (OSError, ValueError):
            return True  # the worker is gone: the reader fails every job it held, this one too
        job.add_stop_hook(lambda: self._cancel(job.id))
        if job.cancel_requested:  # cancelled before the hook was in place
            self._cancel(job.id)
        return True

    def _cancel(self, job_id: int) -> None:
        if not self.ended:
            try:
                self.send((protocol.CANCEL, job_id))
            except (OSError, ValueError):
                pass

    # ---- the reader thread -------------------------------------------------------------------
    def _read(self) -> None:
        try:
            while True:
                ready = wait([self.results, self.process.sentinel])
                if self.results in ready:
                    try:
                        message = self.results.recv()
                    except (EOFError, OSError):
                        break
                    self._handle(message)
                elif self.process.sentinel in ready:
                    self._drain()
                    break
        except Exception:
            log.exception("reading from the search worker failed")
        finally:
            self._ended()

    def _drain(self) -> None:
        """Handle the replies the worker sent before it ended."""
        try:
            while self.results.poll():
                self._handle(self.results.recv())
        except (EOFError, OSError):
            pass

    def _handle(self, message: tuple) -> None:
        kind = message[0]
        if kind == protocol.READY:
            self.ready_at = time.perf_counter()
        elif kind == protocol.PROGRESS:
            job = self.jobs.get(message[1])
            if job is not None:
                job.report(message[2])
        elif kind == protocol.NOTICE:  # told in the app as the engine's own notices are
            from kaeru.engine.tables.folder import notice

            notice(f"worker:{message[1]}", str(message[1]))
        elif kind == protocol.DONE:
            with self.lock:
                job = self.jobs.pop(message[1], None)
            if job is not None:
                result = message[2]
                if result.detail:
                    log.error("search job %s failed:\n%s", job.id, result.detail)
                job.finish(result)

    def _ended(self) -> None:
        with self.reap_lock:
            self.process.join(STOP_SECONDS)
        with self.lock:
            self.ended = True
            orphans = list(self.jobs.values())
            self.jobs.clear()
        message = ended_message(self.process, self.memory_limit)
        lost = [job for job in orphans if not job.cancel_requested]
        if lost and not self.stopping and crashed(self.process) and self.on_crash is not None:
            if self.on_crash(lost):
                log.warning("%s %d job(s) retried without the compiled cache", message, len(lost))
                orphans = [job for job in orphans if job not in lost]
                lost = []
        if lost and not self.stopping:
            log.warning("%s %d job(s) lost", message, len(lost))
        for job in orphans:
            job.finish(failed_result(job.request, message))
        for end in (self.commands, self.results):
            end.close()

    # ---- ending ------------------------------------------------------------------------------
    def stop(self) -> None:
        """Ask the worker to end, then terminate and kill it if it does not; reap it."""
        self.stopping = True
        try:
            self.send((protocol.STOP,))
        except (OSError, ValueError):
            pass
        with self.reap_lock:
            self.process.join(STOP_SECONDS)
            if self.process.is_alive():
                self.process.terminate()
                self.process.join(STOP_SECONDS)
            if self.process.is_alive():
                self.process.kill()
                self.process.join()


class ProcessRunner:
    """Keeps one worker process (started lazily, replaced after it dies) and sends jobs to it."""

    def __init__(self, memory_limit: int | None = None, niceness: int = WORKER_NICENESS) -> None:
        self.memory_limit = memory_limit if memory_limit is not None else default_memory_limit()
        self.niceness = niceness
        self._worker: WorkerHandle | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.workers_started = 0
        self.compiled_cache = True  # off for good once a worker crashed
        self._retried: set[int] = set()  # ids of jobs already retried after a crash
        self._crashed_count = 0

    def worker(self) -> WorkerHandle:
        """The live worker, starting a fresh one when there is none (or it died)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the search service is shut down")
            if self._worker is None or not self._worker.alive:
                self._worker = WorkerHandle(
                    self.memory_limit,
                    self.niceness,
                    compiled_cache=self.compiled_cache,
                    on_crash=self._retry,
                )
                self.workers_started += 1
            return self._worker

    def _retry(self, jobs: list[Job]) -> bool:
        """A worker crashed holding `jobs`: run them again once, in a fresh worker without the
        compiled cache. False (the jobs fail) when any was retried already or the service is
        shutting down."""
        with self._lock:
            if self._closed or any(job.id in self._retried for job in jobs):
                return False
            self._retried.update(job.id for job in jobs)
            self.compiled_cache = False
        try:
            for job in jobs:
                self.start(job)
        except Exception:  # no fresh worker: the caller fails the jobs it still holds
            log.exception("the crashed worker's jobs could not be retried")
            return False
        from kaeru.engine.tables.folder import notice

        self._crashed_count += 1
        notice(
            f"search-worker-crash-{id(self)}-{self._crashed_count}",
            "The search process crashed: the search runs again without the compiled-code"
            " cache.",
        )
        return True

    @property
    def handle(self) -> WorkerHandle | None:
        """The current worker, if one was started (alive or not)."""
        return self._worker

    @property
    def pid(self) -> int | None:
        """The live worker's process id, if one is running."""
        handle = self._worker
        return handle.process.pid if handle is not None and handle.alive else None

    def start(self, job: Job) -> None:
        while not self.worker().run(job):
            pass  # that worker ended an instant ago: the next call starts a fresh one

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
            handle, self._worker = self._worker, None
        if handle is not None:
            handle.stop()
