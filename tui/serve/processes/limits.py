"""Per-session limits of the SSH arcade: how many sessions at once (in all, per player key, per
source address), how long a session may sit idle or leave its output unread, how long a login
may take, and how much address space (RLIMIT_AS) each arcade process and its search worker get.
Also the largest window a client may ask for (`clamp_size`)."""

from __future__ import annotations

import resource
from dataclasses import dataclass

FULL_MESSAGE = "kaeru serve: the arcade is full ({limit} players); please try again later."
IDLE_MESSAGE = "kaeru serve: no key pressed for {seconds:g} s; disconnected."
MAX_COLUMNS = 1000  # a window wider or taller than this is drawn at this size
MAX_ROWS = 1000
# Below this address space a Textual arcade cannot start its threads (measured: 512 MB fails
# with "can't start new thread", 768 MB plays); refused at start with one line.
MIN_MEMORY_MB = 768


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    """A window size a pty and an arcade can take: 1..MAX_COLUMNS × 1..MAX_ROWS."""
    return min(max(int(columns), 1), MAX_COLUMNS), min(max(int(rows), 1), MAX_ROWS)


@dataclass(frozen=True)
class SessionLimits:
    """`max_sessions` players at once, at most `max_per_player` for one key and
    `max_per_address` from one source address; `idle_timeout` seconds without a key (0: none);
    `stall_timeout` seconds with the output unread before a disconnect; `login_timeout` seconds
    to authenticate; `memory_mb` of address space per arcade process (0: no limit)."""

    max_sessions: int = 16
    idle_timeout: float = 1800.0
    memory_mb: int = 2048
    max_per_player: int = 3
    max_per_address: int = 8
    stall_timeout: float = 60.0
    login_timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.max_sessions < 1:
            raise ValueError("--max-sessions must be at least 1")
        if self.max_per_player < 1 or self.max_per_address < 1:
            raise ValueError("--max-per-key and --max-per-address must be at least 1")
        if self.idle_timeout < 0:
            raise ValueError("--idle-timeout must be 0 (none) or more seconds")
        if self.stall_timeout <= 0 or self.login_timeout <= 0:
            raise ValueError("--stall-timeout and --login-timeout must be more than 0 seconds")
        if self.memory_mb < 0:
            raise ValueError("--memory-limit must be 0 (none) or more megabytes")
        if 0 < self.memory_mb < MIN_MEMORY_MB:
            raise ValueError(
                f"--memory-limit {self.memory_mb} is too small for an arcade to start: "
                f"give {MIN_MEMORY_MB} MB or more (0: none)"
            )

    @property
    def memory_bytes(self) -> int | None:
        return self.memory_mb * 2**20 if self.memory_mb else None


def apply_memory_limit(limit_bytes: int | None) -> None:
    """Set RLIMIT_AS (soft and hard, so the process cannot raise it back) in this process.

    Runs in the arcade's own process before the arcade starts; inherited by its search worker."""
    if limit_bytes is not None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
