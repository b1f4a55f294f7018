"""The one value every search job carries: where to report progress, how to ask whether it was
cancelled, and how many positions it may hold (its budget)."""

from __future__ import annotations

from dataclasses import dataclass

from kaeru.engine.core import DEFAULT_BUDGET, CancelCheck, Progress


@dataclass(frozen=True)
class Control:
    """Progress callback, cancel check and position budget, travelling together."""

    progress: Progress = None
    cancelled: CancelCheck = None
    budget: int | None = DEFAULT_BUDGET

    def is_cancelled(self) -> bool:
        return self.cancelled is not None and self.cancelled()


QUIET = Control()
