"""The search pool's process (`SearchPool` behind a unix socket), started by `kaeru serve ssh`:

    python -m kaeru.engine.service.pool_server SOCKET WORKERS MEMORY_MB [MAX_BUDGET]

Each arcade connects once (`pool_runner.PoolRunner`) and speaks the worker's own protocol
(`protocol`): ("run", job_id, JobRequest) and ("cancel", job_id) in; ("progress", ...),
("done", ...) out, for its own jobs only. A connection that closes (the player left, the arcade
ended) frees what it held in the pool. The socket's folder is the server's (mode 0700); the
process prints "ready" on stdout once it listens and ends when its stdin closes (the server is
gone) or on SIGTERM.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from multiprocessing.connection import Connection, Listener

from kaeru.engine.service import protocol
from kaeru.engine.service.pool import SearchPool


def serve_player(pool: SearchPool, connection: Connection) -> None:
    """Read one arcade's requests until it goes; then free what it held."""
    send_lock = threading.Lock()

    def send(message: tuple[object, ...]) -> None:
        with send_lock:
            connection.send(message)

    player = pool.connect(send)
    try:
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                return
            except Exception:  # a message that does not unpickle: that arcade is dropped
                return
            if message[0] == protocol.RUN:
                pool.run(player, int(message[1]), message[2])
            elif message[0] == protocol.CANCEL:
                pool.cancel(player, int(message[1]))
            elif message[0] == protocol.STOP:
                return
    finally:
        pool.disconnect(player)
        connection.close()


def accept(pool: SearchPool, listener: Listener) -> None:
    while True:
        try:
            connection = listener.accept()
        except OSError:
            return
        threading.Thread(
            target=serve_player, args=(pool, connection), name="pool-player", daemon=True
        ).start()


def main(argv: list[str]) -> int:
    address, workers, memory_mb = argv[0], int(argv[1]), int(argv[2])
    max_budget = int(argv[3]) if len(argv) > 3 and int(argv[3]) > 0 else None
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    pool = SearchPool(workers, memory_mb * 2**20 if memory_mb else None, max_budget)
    listener = Listener(address, "AF_UNIX")
    os.chmod(address, 0o600)
    threading.Thread(target=accept, args=(pool, listener), name="pool-accept", daemon=True).start()
    print("ready", flush=True)
    try:
        sys.stdin.read()  # until the server closes our stdin (or dies)
    finally:
        listener.close()
        pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
