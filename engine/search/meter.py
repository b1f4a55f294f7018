"""The Meter every search carries: counts, progress reports, cancellation and the budget."""

from __future__ import annotations

import time

from kaeru.engine.core import BudgetExceeded, CancelCheck, Cancelled, Progress, SearchStats

CHECK_EVERY = 256  # expansions between cancel/progress checks: far under 100 ms in Python
REPORT_INTERVAL = 0.2  # seconds between progress reports


class Meter:
    """Counts what a search does; reports a few times a second; stops it on cancel or budget."""

    def __init__(
        self,
        algorithm: str,
        progress: Progress = None,
        cancelled: CancelCheck = None,
        budget: int | None = None,
    ) -> None:
        self.algorithm = algorithm
        self.progress = progress
        self.cancelled = cancelled
        self.budget = budget
        self.depth = 0
        self.expanded = 0
        self.generated = 0
        self.frontier = 0
        self.extra: dict[str, str] = {}
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
        if self.budget is not None and self.generated > self.budget:
            raise BudgetExceeded(
                f"gave up after {self.generated:,} positions (budget {self.budget:,})",
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
        )

    def finish(self) -> SearchStats:
        """Final figures, also sent as a last progress report."""
        stats = self.snapshot()
        if self.progress is not None:
            self.progress(stats)
        return stats
