"""The state-space explorer: every position a puzzle can reach from a root, by depth.

Generic over puzzles: it calls `dispatch.enumerate_space(puzzle, root, control)` in a thread
worker, shows a progress bar and the live stats panel while it runs, then a bar chart of
positions per depth (with any extra series, such as the two-blank pair-at-the-end count), the
totals, and the farthest positions; Enter on one opens it as a game (`app.open_game`).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from kaeru.engine.core import BadInput, Puzzle, SearchStats
from kaeru.engine.results import Enumeration
from kaeru.engine.search import dispatch
from kaeru.engine.service.inline import Searcher
from kaeru.engine.service.jobs import CANCELLED as CANCELLED_OUTCOME
from kaeru.engine.service.jobs import DONE, GAVE_UP, Job, JobKind, JobRequest, JobResult
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.messages import OpenGame
from kaeru.tui.widgets.depth_chart import DepthChart, series_title
from kaeru.tui.widgets.safe_option_list import SafeOptionList
from kaeru.tui.widgets.stats import StatsPanel

TASK = "Enumeration"
CANCELLED = "Cancelled: r counts again, Escape leaves."
KEYS_NOTE = "n numbers · g log scale · f farthest (Enter plays)"
SHORT = 34  # terminal rows below which the finished run's stats panel makes room


class ExploreScreen(Screen[None]):
    """Positions per depth for `puzzle` from `root`; Escape cancels a run, then leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "toggle_numbers", "Numbers"),
        Binding("g", "toggle_log", "Log scale"),
        Binding("f", "focus_farthest", "Farthest"),
        Binding("r", "run", "Run again"),
        Binding("escape", "escape", "Cancel/Back"),
    ]

    DEFAULT_CSS = """
    ExploreScreen #heading { height: auto; padding: 0 1; }
    ExploreScreen #progress-row { height: auto; padding: 0 1; }
    ExploreScreen #progress-row ProgressBar { width: auto; }
    ExploreScreen #status { height: auto; padding: 0 1; color: $text-accent; }
    ExploreScreen #main { height: 1fr; }
    ExploreScreen #chart-box { width: 1fr; height: 1fr; border: round $primary; }
    ExploreScreen #side { width: 40; height: 1fr; }
    ExploreScreen #totals { height: auto; border: round $secondary; padding: 0 1; }
    ExploreScreen #farthest { height: 1fr; min-height: 4; border: round $secondary; }
    ExploreScreen StatsPanel { height: auto; }
    ExploreScreen.short.finished StatsPanel { display: none; }
    """

    def __init__(self, puzzle: Puzzle, root: Hashable, searcher: Searcher) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.root = root
        self.searcher = searcher
        self.job: Job | None = None
        self.result: Enumeration | None = None
        self.status = "idle"  # running, done, cancelled, failed
        self.serial = 0  # which run is current: late news from a replaced run is dropped

    # ---- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        puzzle = self.puzzle
        yield Header(icon=HEADER_ICON)
        yield Static(
            f"[b]State space: {escape(puzzle.title)}[/b]  [dim]{escape(puzzle.id)}[/dim]\n"
            f"from {escape(puzzle.format(self.root))}",
            id="heading",
        )
        with Horizontal(id="progress-row"):
            yield ProgressBar(total=self.expected_total(), show_eta=False, id="progress")
        yield Static(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="chart-box"):
                yield DepthChart(id="chart")
            with Vertical(id="side"):
                yield Static(id="totals")
                yield SafeOptionList(id="farthest")
                yield StatsPanel(id="stats")
        yield Footer()

    def on_mount(self) -> None:
        self._ui_thread = threading.get_ident()
        self.title = "Kaeru Arcade"
        self.sub_title = f"Explore {self.puzzle.title}"
        self.query_one("#chart-box").border_title = "Positions per depth"
        self.query_one("#totals").border_title = "Totals"
        self.query_one("#farthest").border_title = "Farthest positions"
        self.query_one(StatsPanel).border_title = TASK
        self.query_one("#chart-box").focus()
        self.set_class(self.app.size.height < SHORT, "short")
        self.action_run()

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.height < SHORT, "short")

    def expected_total(self) -> int | None:
        """How many positions the bar counts to, when the puzzle knows (two-blank, coded
        puzzles); None draws an indeterminate bar."""
        total = dispatch.space_size(self.puzzle)
        return total if total is not None and total > 0 else None

    # ---- running -------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.job is not None and not self.job.done

    def action_run(self) -> None:
        self.serial += 1
        self.status = "running"
        self.remove_class("finished")
        self.result = None
        self.query_one(DepthChart).clear()
        self.query_one("#farthest", OptionList).clear_options()
        self.query_one("#totals", Static).update("[dim]counting…[/dim]")
        self.query_one("#progress", ProgressBar).update(total=self.expected_total(), progress=0)
        self.query_one(StatsPanel).show_stats(SearchStats("starting"), "running", TASK)
        self.say("Counting every position… (Escape cancels)")
        self.enumerate_space(self.serial)

    def enumerate_space(self, serial: int) -> None:
        """Count the space as a job on the search service (a worker process in the app), so
        keys never wait on it; news of a replaced run is dropped by its serial."""
        if self.job is not None:
            self.job.cancel()
        request = JobRequest(JobKind.ENUMERATE, self.puzzle.id, self.puzzle.format(self.root),
                             "", tag="explore")
        self.job = self.searcher.submit(
            request,
            on_progress=lambda job, stats: self._from_worker(serial, self.show_progress, stats),
            on_done=lambda job, result: self._from_worker(serial, self.job_done, result),
        )

    def job_done(self, result: JobResult) -> None:
        if result.outcome == DONE and result.enumeration is not None:
            self.finished(result.enumeration)
        elif result.outcome == CANCELLED_OUTCOME:
            self.ended("cancelled", CANCELLED)
        elif result.outcome == GAVE_UP:
            self.ended("failed", f"Too many positions: {result.message}")
        else:  # an engine bug must not take the app down
            self.ended("failed", f"Enumeration failed: {result.message}")

    def _from_worker(self, serial: int, callback: Any, *args: Any) -> None:
        """Run `callback` on the UI thread if this run is still the current one."""

        def deliver() -> None:
            if self.is_attached and serial == self.serial:
                callback(*args)

        if threading.get_ident() == self._ui_thread:  # a searcher that answers at once
            deliver()
            return
        try:
            self.app.call_from_thread(deliver)
        except RuntimeError:  # the app has stopped
            pass

    def show_progress(self, stats: SearchStats) -> None:
        if self.status != "running":
            return
        self.query_one(StatsPanel).show_stats(stats, "running", TASK)
        bar = self.query_one("#progress", ProgressBar)
        if bar.total is not None:
            bar.update(progress=min(stats.expanded, bar.total))

    def ended(self, status: str, message: str) -> None:
        if self.status != "running":
            return
        self.status = status
        self.stop_progress()
        panel = self.query_one(StatsPanel)
        panel.show_stats(panel.stats or SearchStats("none"), status, TASK)
        self.query_one("#totals", Static).update(f"[dim]{status}[/dim]")
        self.say(message)

    def stop_progress(self) -> None:
        """Freeze the bar where the run ended: an indeterminate bar (no total) would go on
        animating after "too many positions" or a cancel."""
        bar = self.query_one("#progress", ProgressBar)
        if bar.total is None:
            bar.update(total=max(bar.progress, 1), progress=bar.progress)

    def finished(self, result: Enumeration) -> None:
        self.status = "done"
        self.add_class("finished")
        self.result = result
        self.query_one(StatsPanel).show_stats(result.stats, "done", TASK)
        self.query_one("#progress", ProgressBar).update(
            total=result.positions, progress=result.positions
        )
        self.query_one(DepthChart).show(result.histogram, result.series)
        self.query_one("#totals", Static).update(self.totals_text(result))
        farthest = self.query_one("#farthest", OptionList)
        farthest.add_options(
            Option(escape(text), id=str(i)) for i, text in enumerate(result.farthest)
        )
        if len(result.farthest) < result.histogram[-1]:
            farthest.border_subtitle = f"first {len(result.farthest)} of {result.histogram[-1]:,}"
        else:
            farthest.border_subtitle = f"{len(result.farthest)} at depth {result.max_depth}"
        self.say(f"{result.positions:,} positions. {KEYS_NOTE}")

    def totals_text(self, result: Enumeration) -> str:
        lines = [
            f"positions  [b]{result.positions:,}[/b]",
            f"depths     0–{result.max_depth}",
            f"farthest   {result.histogram[-1]:,} at depth {result.max_depth}",
        ]
        for name, values in result.series.items():
            lines.append(f"{escape(series_title(name))}  [b]{sum(values):,}[/b]")
        return "\n".join(lines)

    def say(self, message: str) -> None:
        self.query_one("#status", Static).update(escape(message))

    # ---- keys ----------------------------------------------------------------------------------
    def action_toggle_numbers(self) -> None:
        chart = self.query_one(DepthChart)
        chart.show_numbers = not chart.show_numbers

    def action_toggle_log(self) -> None:
        chart = self.query_one(DepthChart)
        chart.log_scale = not chart.log_scale

    def action_focus_farthest(self) -> None:
        farthest = self.query_one("#farthest", OptionList)
        farthest.focus()
        if farthest.option_count and farthest.highlighted is None:
            farthest.highlighted = 0

    def action_escape(self) -> None:
        if self.running and self.job is not None:
            self.job.cancel()
            self.ended("cancelled", CANCELLED)
        else:
            self.app.pop_screen()

    def on_unmount(self) -> None:
        if self.job is not None:
            self.job.cancel()

    @on(OptionList.OptionSelected, "#farthest")
    def open_farthest(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.result is None or event.option_id is None:
            return
        text = self.result.farthest[int(event.option_id)]
        try:
            game_id = self.puzzle.game_id(self.puzzle.parse(text))
        except BadInput as error:
            self.notify(str(error), severity="error")
            return
        self.post_message(OpenGame(game_id))
