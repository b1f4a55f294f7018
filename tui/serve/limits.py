"""Per-session limits of the SSH arcade: how many sessions at once, how long a session may sit
idle, and how much address space (RLIMIT_AS) each arcade process and its search worker get."""

from __future__ import annotations

import resource
from dataclasses import dataclass

FULL_MESSAGE = "kaeru serve: the arcade is full ({limit} players); please try again later."
IDLE_MESSAGE = "kaeru serve: no key pressed for {seconds:g} s; disconnected."


@dataclass(frozen=True)
class SessionLimits:
    """`max_sessions` players at once; `idle_timeout` seconds without a key (0: none);
    `memory_mb` of address space per arcade process (0: no limit)."""

    max_sessions: int = 16
    idle_timeout: float = 1800.0
    memory_mb: int = 2048

    def __post_init__(self) -> None:
        if self.max_sessions < 1:
            raise ValueError("--max-sessions must be at least 1")
        if self.idle_timeout < 0:
            raise ValueError("--idle-timeout must be 0 (none) or more seconds")
        if self.memory_mb < 0:
            raise ValueError("--memory-limit must be 0 (none) or more megabytes")

    @property
    def memory_bytes(self) -> int | None:
        return self.memory_mb * 2**20 if self.memory_mb else None


def apply_memory_limit(limit_bytes: int | None) -> None:
    """Set RLIMIT_AS (soft and hard, so the process cannot raise it back) in this process.

    Runs in the child between fork and exec; inherited by the search worker it starts."""
    if limit_bytes is not None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


class SessionCounter:
    """The running sessions, against the cap."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.active = 0

    def try_enter(self) -> bool:
        if self.active >= self.limit:
            return False
        self.active += 1
        return True

    def leave(self) -> None:
        self.active = max(0, self.active - 1)
