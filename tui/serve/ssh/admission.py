"""Who may come in: the SSH arcade's counts of connections still logging in (in all and per source
address) and of running sessions (in all, per player, per source address), against their caps.

A connection over a cap is closed at once, so a flood of idle or half-open connections holds
few file descriptors; a session over a cap is told why in one line. Each `try_*` returns None
when admitted, else the reason (for the client and the operator's log)."""

from __future__ import annotations

import resource
from collections import Counter

from kaeru.tui.serve.processes.limits import FULL_MESSAGE, SessionLimits

# Connections that have not finished logging in: at most this many in all and per address.
# A login takes a fraction of a second; the cap only bites on a flood.
MAX_UNAUTHENTICATED = 64
MAX_UNAUTHENTICATED_PER_ADDRESS = 10


def open_files_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def login_caps(open_files: int) -> tuple[int, int]:
    """(in all, per address) connections logging in at once, for a process that may open
    `open_files` files: an eighth of them at most, and a quarter of that per address, so one
    address never holds them all."""
    total = max(4, min(MAX_UNAUTHENTICATED, open_files // 8))
    return total, max(1, min(MAX_UNAUTHENTICATED_PER_ADDRESS, total // 4))


class Admission:
    """The counts; every `try_*` that admits is paired with one `leave_*`."""

    def __init__(
        self,
        limits: SessionLimits,
        max_unauthenticated: int = MAX_UNAUTHENTICATED,
        max_unauthenticated_per_address: int = MAX_UNAUTHENTICATED_PER_ADDRESS,
    ) -> None:
        self.limits = limits
        self.max_unauthenticated = max_unauthenticated
        self.max_unauthenticated_per_address = max_unauthenticated_per_address
        self.logging_in: Counter[str] = Counter()
        self.by_player: Counter[str] = Counter()
        self.by_address: Counter[str] = Counter()

    @property
    def sessions(self) -> int:
        return sum(self.by_player.values())

    @property
    def unauthenticated(self) -> int:
        return sum(self.logging_in.values())

    def try_connect(self, address: str) -> str | None:
        if self.unauthenticated >= self.max_unauthenticated:
            return f"{self.max_unauthenticated} connections are logging in already"
        if self.logging_in[address] >= self.max_unauthenticated_per_address:
            return (
                f"{self.max_unauthenticated_per_address} connections from {address} "
                "are logging in already"
            )
        self.logging_in[address] += 1
        return None

    def leave_login(self, address: str) -> None:
        """The connection logged in, or went away before it did."""
        _decrement(self.logging_in, address)

    def try_session(self, player: str, address: str) -> str | None:
        limits = self.limits
        if self.sessions >= limits.max_sessions:
            return FULL_MESSAGE.format(limit=limits.max_sessions)
        if self.by_player[player] >= limits.max_per_player:
            return (
                f"kaeru serve: this key has {limits.max_per_player} sessions already; "
                "close one first."
            )
        if self.by_address[address] >= limits.max_per_address:
            return (
                f"kaeru serve: {limits.max_per_address} sessions from your address already; "
                "please try again later."
            )
        self.by_player[player] += 1
        self.by_address[address] += 1
        return None

    def leave_session(self, player: str, address: str) -> None:
        _decrement(self.by_player, player)
        _decrement(self.by_address, address)


def _decrement(counts: Counter[str], key: str) -> None:
    if counts[key] <= 1:
        counts.pop(key, None)
    else:
        counts[key] -= 1
