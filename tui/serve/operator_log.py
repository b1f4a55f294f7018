"""The operator's log of `kaeru serve ssh`: one line per login, refusal, disconnect and limit hit,
on stderr (the journal under systemd), never a traceback.

Lines about a flood (connections over a cap, failed logins) are throttled: the first of a kind
is written, then at most one every `THROTTLE_SECONDS` saying how many were left out. The event
loop's own error reports (a failed `accept`, an exception in a callback) become one line each,
throttled the same way. asyncssh's chatter (a line per packet exchange) is left out."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from typing import Any

log = logging.getLogger("kaeru.serve")
THROTTLE_SECONDS = 10.0
LINE_FORMAT = "%(asctime)s kaeru serve: %(message)s"


def setup(stream: Any = None) -> None:
    """Lines on `stream` (stderr); asyncssh only for its warnings and worse."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter(LINE_FORMAT, "%Y-%m-%d %H:%M:%S"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    logging.getLogger("asyncssh").setLevel(logging.CRITICAL)  # its errors are ours to say


class Throttle:
    """Says a repeated event once per `THROTTLE_SECONDS` per kind."""

    def __init__(self, seconds: float = THROTTLE_SECONDS) -> None:
        self.seconds = seconds
        self.last: dict[str, float] = {}
        self.skipped: dict[str, int] = {}

    def say(self, kind: str, message: str) -> None:
        now = time.monotonic()
        if now - self.last.get(kind, -self.seconds) < self.seconds:
            self.skipped[kind] = self.skipped.get(kind, 0) + 1
            return
        skipped = self.skipped.pop(kind, 0)
        self.last[kind] = now
        more = f" (and {skipped} more like it in the last {self.seconds:g} s)" if skipped else ""
        log.warning("%s%s", message, more)


throttle = Throttle()


def loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: one throttled line, no traceback."""
    error = context.get("exception")
    message = str(context.get("message", "error"))
    what = f"{type(error).__name__}: {error}" if error is not None else ""
    throttle.say(f"loop:{message}:{type(error).__name__}", f"{message} {what}".strip())


def install_loop_handler() -> None:
    asyncio.get_running_loop().set_exception_handler(loop_error)
