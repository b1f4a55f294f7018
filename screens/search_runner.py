"""Running engine searches off the UI thread for a play screen: hint, solve, the optimal length
from the start, and the dead-end check, with live progress and cancellation."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from textual import work
from textual.screen import Screen
from textual.worker import Worker, get_current_worker

from kaeru.engine.control import Control
from kaeru.engine.core import BudgetExceeded, Cancelled, SearchStats, Solution, Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.session import Session
from kaeru.tui.widgets.stats import StatsPanel

OPTIMAL_BUDGET = 3_000_000  # positions for the silent "optimal from the start" search


class SearchRunner(Screen):
    """A Screen base that owns the search workers; the subclass reacts to their results."""

    session: Session
    search_task: str = ""
    search_serial: int = 0  # which hint/solve is current: late news of older ones is dropped

    # ---- hooks the play screen implements ----------------------------------------------------
    def search_finished(self, task: str, state: Hashable, solution: Solution) -> None: ...

    def search_failed(self, task: str, message: str, severity: str) -> None: ...

    def optimal_known(self, length: int | None, note: str) -> None: ...

    def dead_end_found(self, reason: str) -> None: ...

    # ---- the user's searches -----------------------------------------------------------------
    @property
    def searching(self) -> bool:
        return bool(self._workers_in("search"))

    def _workers_in(self, group: str) -> list[Worker[Any]]:
        return [w for w in self.app.workers if w.node is self and w.group == group and w.is_running]

    def start_search(self, task: str) -> None:
        """Start a hint or solve from the current position (replacing any running one)."""
        self.search_task = task
        self.search_serial += 1
        self.query_one(StatsPanel).show_stats(None, "running", task)
        self.run_search(task, self.session.state, self.session.start, self.search_serial)

    def cancel_search(self) -> bool:
        """Cancel the running hint/solve; True when there was one."""
        running = self._workers_in("search")
        self.app.workers.cancel_group(self, "search")
        return bool(running)

    def _call(self, callback: Callable[..., None], *args: Any) -> None:
        """From a worker thread: run `callback` on the UI thread unless the screen has gone."""
        if get_current_worker().is_cancelled and callback != self._ended:
            return
        try:
            self.app.call_from_thread(callback, *args)
        except RuntimeError:  # the app has stopped
            pass

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, task: str, state: Hashable, start: Hashable, serial: int) -> None:
        worker = get_current_worker()
        puzzle = self.session.puzzle

        def progress(stats: SearchStats) -> None:
            self._call(self._progress, serial, task, stats)

        try:
            control = Control(progress, lambda: worker.is_cancelled)
            solution = dispatch.solve(puzzle, state, start, control)
        except Cancelled:
            self._call(self._ended, serial, task, None, "cancelled", "Search cancelled.",
                       "information")
        except Unsolvable as error:
            self._call(self._ended, serial, task, error.stats, "done",
                       f"No solution: {error.reason}", "warning")
        except BudgetExceeded as error:
            self._call(self._ended, serial, task, error.stats, "failed", f"Gave up: {error}",
                       "warning")
        except Exception as error:  # a solver bug must not take the game down
            self._call(self._ended, serial, task, None, "failed",
                       f"The solver failed: {type(error).__name__}: {error}", "error")
        else:
            self._call(self._solved, serial, task, state, solution)

    def _current(self, serial: int) -> bool:
        return self.is_attached and serial == self.search_serial

    def _progress(self, serial: int, task: str, stats: SearchStats) -> None:
        if self._current(serial):
            self.query_one(StatsPanel).show_stats(stats, "running", task)

    def _solved(self, serial: int, task: str, state: Hashable, solution: Solution) -> None:
        if not self._current(serial):
            return
        self.query_one(StatsPanel).show_stats(solution.stats, "done", task)
        if state == self.session.start and solution.optimal:
            self.optimal_known(solution.length, "")
        self.search_finished(task, state, solution)

    def _ended(
        self,
        serial: int,
        task: str,
        stats: SearchStats | None,
        status: str,
        message: str,
        severity: str,
    ) -> None:
        if not self._current(serial):
            return  # a newer search replaced this one
        self.query_one(StatsPanel).show_stats(stats, status, task)
        self.search_failed(task, message, severity)

    # ---- background checks -------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="optimal")
    def find_optimal_length(self) -> None:
        """The optimal length from the start, quietly, so the move counter can show it."""
        worker = get_current_worker()
        session = self.session
        try:
            control = Control(None, lambda: worker.is_cancelled, OPTIMAL_BUDGET)
            solution = dispatch.solve(session.puzzle, session.start, session.start, control)
        except Unsolvable as error:
            self._call(self.optimal_known, None, f"no solution: {error.reason}")
        except (Cancelled, BudgetExceeded):
            return
        except Exception as error:
            self._call(self.optimal_known, None, f"solver failed: {error}")
        else:
            if solution.optimal:
                self._call(self.optimal_known, solution.length, "")

    @work(thread=True, exclusive=True, group="dead-end")
    def check_dead_end(self, state: Hashable) -> None:
        worker = get_current_worker()
        puzzle = self.session.puzzle
        try:
            control = Control(None, lambda: worker.is_cancelled)
            reason = dispatch.dead_end(puzzle, state, self.session.start, control)
        except (Cancelled, BudgetExceeded):
            return
        if reason and state == self.session.state:
            self._call(self.dead_end_found, reason)
