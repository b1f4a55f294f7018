"""The state-space explorer: every position of a puzzle by its distance to the goal.

It counts on the search service (a worker process in the app) as an EXPLORE job:
`engine.catalogue.explorable.count_to_goal` counts from the goal of the puzzle's standard game, so
depth is "moves to the goal" and the farthest positions are the hardest starts for that goal. The
chart grows while the count runs, from the progress reports (each says how many positions lie
at one depth), redrawn at most REDRAWS_PER_SECOND times a second; then come the totals and the
farthest positions, Enter on one opening it as a game with the usual goal (`OpenGame`). Puzzles
the explorer cannot count to the end (`explore_refusal`) get that one line instead of a count.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.catalogue.explorable import explore_refusal, game_towards_goal, goal_of
from kaeru.engine.rules.protocol import BadInput, Puzzle, SearchStats
from kaeru.engine.rules.results import Enumeration
from kaeru.engine.rules.words import plural
from kaeru.engine.service.inline import Searcher
from kaeru.engine.service.jobs import CANCELLED as CANCELLED_OUTCOME
from kaeru.engine.service.jobs import DONE, GAVE_UP, Job, JobKind, JobRequest, JobResult
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.messages import OpenGame, OpenHelp
from kaeru.tui.widgets.depth_chart import DepthChart, series_title
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.safe_option_list import SafeOptionList

CANCELLED = "Cancelled: r counts again, Escape leaves."
REDRAWS_PER_SECOND = 10
KEYS = "n numbers · g log"
ABOUT = (
    "The explorer counts every position of this puzzle by its distance to the goal of the "
    "standard game: the chart has one bar per number of moves to the goal. The farthest "
    "positions are the hardest starts; Enter on one plays it, with the usual goal."
)


class ExploreScreen(Screen[None]):
    """Positions per distance to `puzzle`'s goal; Escape cancels a count, then leaves."""

    HELP_ABOUT: ClassVar[str] = ABOUT
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "focus_farthest", "Farthest", id="explore.farthest"),
        Binding("n", "toggle_numbers", "Numbers", id="explore.numbers", show=False),
        Binding("g", "toggle_log", "Log scale", id="explore.log", show=False),
        Binding("r", "run", "Recount", id="explore.recount"),
        Binding("question_mark,f1", "help", "Help", id="explore.help"),
        Binding("escape", "cancel", "Cancel", id="explore.cancel"),
        Binding("escape", "back", "Back", id="explore.back"),
    ]

    DEFAULT_CSS = """
    ExploreScreen #heading { height: auto; padding: 0 1; }
    ExploreScreen #status { height: auto; padding: 0 1; color: $text-accent; }
    ExploreScreen #main { height: 1fr; }
    ExploreScreen #chart-box { width: 1fr; height: 1fr; border: round $primary; }
    ExploreScreen #side { width: 50%; max-width: 40; height: 1fr; }
    ExploreScreen #totals { height: auto; border: round $secondary; padding: 0 1; }
    ExploreScreen #farthest { height: 1fr; min-height: 3; border: round $secondary; }
    """

    def __init__(self, puzzle: Puzzle[Any, Any], searcher: Searcher) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.searcher = searcher
        self.goal = goal_of(puzzle)
        self.refusal = explore_refusal(puzzle)
        self.job: Job | None = None
        self.result: Enumeration | None = None
        self.status = "idle"  # running, done, cancelled, failed, refused
        self.serial = 0  # which run is current: late news from a replaced run is dropped
        self.depth_counts: dict[int, int] = {}  # positions per depth reported so far
        self.counted: SearchStats | None = None  # the last progress report
        self._dirty = False  # layers changed since the chart was last drawn
        self._redraw_timer: Timer | None = None

    # ---- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        puzzle = self.puzzle
        yield Header(icon=HEADER_ICON)
        yield Static(
            f"[b]{escape(puzzle.title)}[/b]: positions by moves to the goal\n"
            f"[dim]goal[/dim] {escape(puzzle.format(self.goal))}",
            id="heading",
        )
        yield Static(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="chart-box"):
                yield DepthChart(id="chart")
            with Vertical(id="side"):
                yield Static(id="totals")
                yield SafeOptionList(id="farthest")
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        self._ui_thread = threading.get_ident()
        self.title = "Kaeru Arcade"
        self.sub_title = f"Explore {self.puzzle.title}"
        self.query_one("#chart-box").border_title = "Positions per distance"
        self.query_one("#totals").border_title = "Totals"
        self.query_one("#farthest").border_title = "Farthest from the goal"
        self.query_one("#chart-box").focus()
        self._redraw_timer = self.set_interval(1 / REDRAWS_PER_SECOND, self.redraw_live)
        if self.refusal is not None:
            self.status = "refused"
            self.query_one("#totals", Static).update("[dim]not counted[/dim]")
            self.say(self.refusal)
            return
        self.action_run()

    # ---- running -------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """Whether a count is under way (a cancelled one is over at once for the keys)."""
        return self.status == "running"

    def action_run(self) -> None:
        if self.refusal is not None:
            self.say(self.refusal)
            return
        self.serial += 1
        self.status = "running"
        self.result = None
        self.depth_counts = {0: 1}  # the goal itself
        self.counted = None
        self._dirty = True
        self.query_one(DepthChart).clear()
        farthest = self.query_one("#farthest", OptionList)
        farthest.clear_options()
        farthest.border_subtitle = ""
        self.query_one("#totals", Static).update("[dim]counting…[/dim]")
        self.say("Counting every position… (Escape cancels)")
        self.count(self.serial)
        self.refresh_bindings()

    def count(self, serial: int) -> None:
        """Count as a job on the search service, so keys never wait on it; news of a replaced
        run is dropped by its serial."""
        if self.job is not None:
            self.job.cancel()
        text = self.puzzle.format(self.goal)
        request = JobRequest(JobKind.EXPLORE, self.puzzle.id, text, "", tag="explore")
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
            self.ended("failed", f"The count failed: {result.message}")

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
        """A progress report: `frontier` positions lie at distance `depth` (every enumerator
        reports the layer it is working from); the chart is redrawn by the timer."""
        if self.status != "running":
            return
        self.counted = stats
        if stats.frontier > 0:
            self.depth_counts[stats.depth] = stats.frontier
            self._dirty = True

    def redraw_live(self) -> None:
        """Draw the layers reported since the last redraw (at most REDRAWS_PER_SECOND)."""
        if not self._dirty or self.status != "running":
            return
        self._dirty = False
        self.query_one(DepthChart).show_partial(self.depth_counts)
        self.query_one("#chart-box", VerticalScroll).scroll_end(animate=False)
        seconds = self.counted.seconds if self.counted is not None else 0.0
        self.query_one("#totals", Static).update(
            f"[dim]counting…[/dim]\nso far    [b]{self.found_so_far():,}[/b]\n"
            f"distance  {max(self.depth_counts)}\ntime      {seconds:.1f} s"
        )

    def found_so_far(self) -> int:
        """Positions found so far: the search's own figure where it gives one ("positions",
        "12,345" or "12,345 of 32,400"), else the depths reported added up."""
        figures = dict(self.counted.extra) if self.counted is not None else {}
        words = str(figures.get("positions", "")).split()
        if words and words[0].replace(",", "").isdigit():
            return int(words[0].replace(",", ""))
        return sum(self.depth_counts.values())

    def ended(self, status: str, message: str) -> None:
        if self.status != "running":
            return
        self.status = status
        self.query_one("#totals", Static).update(f"[dim]{status}[/dim]")
        self.say(message)
        self.refresh_bindings()

    def finished(self, result: Enumeration) -> None:
        self.status = "done"
        self.result = result
        self.query_one(DepthChart).show(result.histogram, result.series)
        self.query_one("#chart-box", VerticalScroll).scroll_home(animate=False)
        self.query_one("#totals", Static).update(self.totals_text(result))
        farthest = self.query_one("#farthest", OptionList)
        farthest.clear_options()
        farthest.add_options(
            Option(escape(text), id=str(i)) for i, text in enumerate(result.farthest)
        )
        at = plural(result.max_depth, "move")
        if len(result.farthest) < result.histogram[-1]:
            farthest.border_subtitle = f"first {len(result.farthest)} of {result.histogram[-1]:,}"
        else:
            farthest.border_subtitle = f"{len(result.farthest)} at {at}"
        self.say(f"{result.positions:,} positions, farthest {at}. f, Enter: play one · {KEYS}")
        self.refresh_bindings()

    def totals_text(self, result: Enumeration) -> str:
        lines = [
            f"positions [b]{result.positions:,}[/b]",
            f"farthest  {result.histogram[-1]:,} at {plural(result.max_depth, 'move')}",
            f"time      {result.stats.seconds:.1f} s",
        ]
        for name, values in result.series.items():
            lines.append(f"{escape(series_title(name))}  [b]{sum(values):,}[/b]")
        return "\n".join(lines)

    def say(self, message: str) -> None:
        self.query_one("#status", Static).update(escape(message))

    # ---- keys ----------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.running
        if action == "back":
            return not self.running
        return True

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

    def action_help(self) -> None:
        self.post_message(OpenHelp(self.puzzle.id))

    def action_cancel(self) -> None:
        if self.running and self.job is not None:
            self.job.cancel()
            self.ended("cancelled", CANCELLED)

    def action_back(self) -> None:
        self.app.pop_screen()

    def on_unmount(self) -> None:
        if self.job is not None:
            self.job.cancel()
        if self._redraw_timer is not None:
            self._redraw_timer.stop()

    @on(OptionList.OptionSelected, "#farthest")
    def open_farthest(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.result is None or event.option_id is None:
            return
        text = self.result.farthest[int(event.option_id)]
        try:
            game_id = game_towards_goal(self.puzzle, self.puzzle.parse(text))
        except BadInput as error:
            self.notify(str(error), severity="error")
            return
        self.post_message(OpenGame(game_id))
