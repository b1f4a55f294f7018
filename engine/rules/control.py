"""The one value every search job carries, and the meter a running search keeps with it.

A `Control` says where to report progress, how to ask whether the job was cancelled, and how
many distinct positions it may hold (its budget; by default what the memory available allows).
Every search takes one `control: Control`; inside, it builds a `Meter` from it, which counts
what the search does, reports a few times a second, and stops it on cancel or budget.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from kaeru.engine.rules.results import (
    DEFAULT_BUDGET,
    BudgetExceeded,
    CancelCheck,
    Cancelled,
    Progress,
    SearchStats,
)

CHECK_EVERY = 256  # expansions between cancel/progress checks: far under 100 ms in Python
REPORT_INTERVAL = 0.2  # seconds between progress reports
BYTES_PER_POSITION = 200  # a position held in Python sets and dicts, with its key: the default
MEMORY_SHARE = 0.5  # of the memory available when a search starts, what its positions may take
FALLBACK_MEMORY = 2 << 30  # bytes assumed available where the system does not say


def memory_available() -> int:
    """Bytes of memory available now: MemAvailable from /proc/meminfo, else the free physical
    pages from sysconf, else FALLBACK_MEMORY."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return FALLBACK_MEMORY


def memory_budget(bytes_per_position: int, cap_bytes: int | None = None) -> int:
    """How many positions a search that needs `bytes_per_position` each may hold: its share of
    the memory available (at most `cap_bytes`), at least a million."""
    room = int(memory_available() * MEMORY_SHARE)
    if cap_bytes is not None:
        room = min(room, cap_bytes)
    return max(1_000_000, room // max(1, bytes_per_position))


@dataclass(frozen=True)
class Control:
    """Progress callback, cancel check and position budget, travelling together."""

    progress: Progress = None
    cancelled: CancelCheck = None
    budget: int | None = DEFAULT_BUDGET

    def is_cancelled(self) -> bool:
        return self.cancelled is not None and self.cancelled()

    def budget_for(self, bytes_per_position: int, cap_bytes: int | None = None) -> int | None:
        """The budget in positions held: the one given, or when none was chosen (the default,
        DEFAULT_BUDGET) what the memory available allows at `bytes_per_position` each."""
        if self.budget == DEFAULT_BUDGET:
            return memory_budget(bytes_per_position, cap_bytes)
        return self.budget

    def unlimited(self) -> Control:
        """The same control without a budget (for searches whose size is known in advance)."""
        return Control(self.progress, self.cancelled, None)


QUIET = Control()
"""No progress reports, never cancelled, the default budget."""


class Meter:
    """Counts what a search does; reports a few times a second; stops it on cancel or budget."""

    def __init__(
        self,
        algorithm: str,
        control: Control = QUIET,
        *,
        bytes_per_position: int = BYTES_PER_POSITION,
        cap_bytes: int | None = None,
    ) -> None:
        """`bytes_per_position` (what one position held costs this search) and `cap_bytes` set
        the budget when the control leaves it to the memory available (Control.budget_for).
        The budget counts `held` (distinct positions held) for searches that set it, else
        `generated`."""
        self.algorithm = algorithm
        self.control = control
        self.progress = control.progress
        self.cancelled = control.cancelled
        self.budget = control.budget_for(bytes_per_position, cap_bytes)
        self.depth = 0
        self.expanded = 0
        self.generated = 0
        self.frontier = 0
        self.held: int | None = None  # distinct positions the search holds now, when it says
        self.extra: dict[str, str] = {}
        self.note = ""  # SearchStats.note: what is happening, in a player's words
        self.done: float | None = None  # SearchStats.progress: how far along (0-1), if known
        self.started = time.perf_counter()
        self._last_report = self.started
        self._countdown = CHECK_EVERY

    def tick(self, expanded: int = 1) -> None:
        """Count expansions; every so often check cancel and budget and report progress."""
        self.expanded += expanded
        self._countdown -= expanded
        if self._countdown <= 0:
            self._countdown = CHECK_EVERY
            self.check()

    def check(self) -> None:
        """Raise Cancelled or BudgetExceeded when due; report progress when due."""
        if self.cancelled is not None and self.cancelled():
            raise Cancelled("search cancelled")
        counted = self.generated if self.held is None else self.held
        if self.budget is not None and counted > self.budget:
            what = "generated" if self.held is None else "held"
            raise BudgetExceeded(
                f"gave up with {counted:,} positions {what} (budget {self.budget:,})",
                self.snapshot(),
            )
        now = time.perf_counter()
        if self.progress is not None and now - self._last_report >= REPORT_INTERVAL:
            self._last_report = now
            self.progress(self.snapshot())

    def snapshot(self) -> SearchStats:
        return SearchStats(
            algorithm=self.algorithm,
            depth=self.depth,
            expanded=self.expanded,
            generated=self.generated,
            frontier=self.frontier,
            seconds=time.perf_counter() - self.started,
            extra=tuple(self.extra.items()),
            note=self.note,
            progress=self.done,
        )

    def finish(self) -> SearchStats:
        """Final figures, also sent as a last progress report."""
        stats = self.snapshot()
        if self.progress is not None:
            self.progress(stats)
        return stats
