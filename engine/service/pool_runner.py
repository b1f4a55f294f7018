"""Pool mode: an arcade served by `kaeru serve ssh` sends its searches to the server's shared
search pool (`pool_server`) instead of starting a worker of its own. Chosen by the service when
$KAERU_SEARCH_POOL names the pool's socket (the server sets it for its arcades; the
single-player app never has it, and keeps its own worker).

Same protocol and guarantees as the process runner: jobs are sent as ("run", id, request),
cancelled as ("cancel", id), and each job's progress and result come back to this arcade only.
When the pool cannot be reached or goes away, the open jobs fail with one line; the next job
connects again.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from multiprocessing.connection import Client, Connection

from kaeru.engine.service import protocol
from kaeru.engine.service.jobs import Job, failed_result

log = logging.getLogger(__name__)

POOL_ENV = "KAERU_SEARCH_POOL"
GONE_MESSAGE = "The server's search pool is not reachable."


def pool_address() -> str | None:
    """The pool's socket from the environment, if this arcade is served with one."""
    return os.environ.get(POOL_ENV) or None


class PoolRunner:
    """Sends jobs to the shared pool over one connection, read by one thread."""

    def __init__(self, address: str) -> None:
        self.address = address
        self._connection: Connection | None = None
        self._jobs: dict[int, Job] = {}
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._closed = False

    def _connect(self) -> Connection:
        with self._lock:
            if self._closed:
                raise RuntimeError("the search service is shut down")
            if self._connection is None:
                connection = Client(self.address, "AF_UNIX")
                self._connection = connection
                threading.Thread(
                    target=self._read, args=(connection,), name="kaeru-pool-reader", daemon=True
                ).start()
            return self._connection

    def _send(self, connection: Connection, message: tuple[object, ...]) -> None:
        with self._send_lock:
            connection.send(message)

    def start(self, job: Job) -> None:
        connection = self._connect()  # OSError: no pool (the service says so, or falls back)
        with self._lock:
            self._jobs[job.id] = job
        try:
            self._send(connection, (protocol.RUN, job.id, job.request))
        except (OSError, ValueError):
            return  # the reader fails every job it held, this one too
        job.add_stop_hook(lambda: self._cancel(connection, job.id))
        if job.cancel_requested:
            self._cancel(connection, job.id)

    def _cancel(self, connection: Connection, job_id: int) -> None:
        try:
            self._send(connection, (protocol.CANCEL, job_id))
        except (OSError, ValueError):
            pass

    def _read(self, connection: Connection) -> None:
        try:
            while True:
                try:
                    message = connection.recv()
                except (EOFError, OSError, TypeError):  # TypeError: closed under the read
                    break
                self._handle(message)
        finally:
            self._lost(connection)

    def _handle(self, message: tuple) -> None:
        kind = message[0]
        if kind == protocol.PROGRESS:
            job = self._jobs.get(message[1])
            if job is not None:
                job.report(message[2])
        elif kind == protocol.DONE:
            with self._lock:
                job = self._jobs.pop(message[1], None)
            if job is not None:
                job.finish(message[2])
        elif kind == protocol.NOTICE:
            from kaeru.engine.tables.folder import notice

            notice(f"pool:{message[1]}", str(message[1]))

    def _lost(self, connection: Connection) -> None:
        with self._lock:
            if self._connection is connection:
                self._connection = None
            orphans = list(self._jobs.values())
            self._jobs.clear()
        connection.close()
        for job in orphans:
            job.finish(failed_result(job.request, GONE_MESSAGE))

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
            connection, self._connection = self._connection, None
        if connection is not None:
            try:
                self._send(connection, (protocol.STOP,))
                # wake the reader, which closes the connection (closing it here, under a
                # blocked read, would pull the descriptor from under it)
                with socket.socket(fileno=os.dup(connection.fileno())) as end:
                    end.shutdown(socket.SHUT_RDWR)
            except (OSError, ValueError):
                pass
