"""After a win: the game's distance to the goal over its moves against the optimal diagonal, the
moves that were not optimal, and "replay from here" on a chosen one (a new game from the same
start with the moves before that one replayed). The distances are worked out by an ANALYSIS job
of the search service (a depth table where the family has one, else the solver; what the coach
already knew first), in the search worker process; the screen awaits it in an async worker and
shows the positions done as they are told; leaving the screen cancels the job."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.coach.analysis import Analysis
from kaeru.engine.coach.distance import unit_of
from kaeru.engine.game.session import Session
from kaeru.engine.service.jobs import DONE, FAILED, GAVE_UP, JobKind, JobRequest, JobResult
from kaeru.screens.engine_job import await_job
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.safe_option_list import SafeOptionList
from kaeru.tui.words import plural

Replay = Callable[[int], None]


class AnalysisScreen(Screen[None]):
    """The analysis of one won game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back", id="analysis.close"),
    ]

    def __init__(self, session: Session[Any, Any], replay: Replay | None = None) -> None:
        super().__init__()
        self.session = session
        self.replay = replay
        self.analysis: Analysis | None = None
        self.moves = session.history
        self.states = session.states  # the positions along `moves`, from its start
        self.memo = dict(session.coach.memo)

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Vertical(id="analysis-body"):
            yield Static(id="analysis-summary")
            yield Static(id="analysis-chart")
            yield Static(
                "Moves that were not optimal (Enter: replay from before it)",
                id="analysis-list-title",
            )
            yield SafeOptionList(id="analysis-mistakes")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.title = "Analysis"
        self.sub_title = self.session.puzzle.title  # the id is on the play screen
        self.query_one("#analysis-summary", Static).update("Working out the distances…")
        self.work_out()

    class Answered(Message):
        """The search service's answer to the ANALYSIS job."""

        def __init__(self, result: JobResult) -> None:
            super().__init__()
            self.result = result

    class Told(Message):
        """Positions worked out so far, told by the running job."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    @work(exclusive=True, group="analysis")
    async def work_out(self) -> None:
        result = await await_job(self.app, self.analysis_request(), self.told)
        self.post_message(self.Answered(result))

    def analysis_request(self) -> JobRequest:
        """The game as an ANALYSIS job: its start and moves as text, with the distances the
        coach already knew along it (so they are not searched again)."""
        puzzle, start = self.session.puzzle, self.session.start
        known = tuple(
            (index, found.moves, found.reason, int(found.exact))
            for index, state in enumerate(self.states)
            if (found := self.memo.get(state)) is not None
        )
        moves = tuple(puzzle.format_move(move) for move in self.moves)
        return JobRequest(
            JobKind.ANALYSIS, puzzle.id, puzzle.format(start), "", tag="analysis",
            args=(moves, known),
        )

    def told(self, value: object) -> None:
        if isinstance(value, tuple) and len(value) == 2:
            self.post_message(self.Told(*value))

    @on(Told)
    def progress_told(self, event: Told) -> None:
        if self.analysis is None:
            self.show_progress(event.done, event.total)

    @on(Answered)
    def answered(self, event: Answered) -> None:
        result = event.result
        if result.outcome == DONE and isinstance(result.value, Analysis):
            self.show_analysis(result.value)
        elif result.outcome in (GAVE_UP, FAILED):
            self.show_failure(result.message)

    def show_progress(self, done: int, total: int) -> None:
        self.query_one("#analysis-summary", Static).update(
            f"Working out the distances… {done}/{total} positions"
        )

    def show_failure(self, reason: str) -> None:
        self.query_one("#analysis-summary", Static).update(f"No analysis: {escape(reason)}")

    def show_analysis(self, found: Analysis) -> None:
        self.analysis = found
        unit = unit_of(self.session.puzzle)
        made = len(found.graded)
        optimal = found.optimal
        summary = f"{plural(made, unit)} made"
        if optimal is not None and self.session.puzzle.capabilities.chains:
            # pegs: every win takes the same jumps; moves (chains) are what a player counts
            chains = len(self.session.puzzle.chains(self.session.history))
            summary += f", as {plural(chains, 'move')} (every win takes {optimal} {unit}s)"
        elif optimal is not None:
            summary += f"; optimal from the start: {optimal}"
            extra = found.wasted_moves or 0
            summary += "  — a perfect game!" if extra == 0 else f"  ({extra} more than needed)"
        self.query_one("#analysis-summary", Static).update(escape(summary))
        chart = "\n".join(found.chart(width=max(20, self.size.width - 12), height=12))
        legend = "\n[dim]● your distance to the goal   · the optimal diagonal   ◆ both[/dim]"
        self.query_one("#analysis-chart", Static).update(escape(chart) + legend)
        options = self.query_one(OptionList)
        options.clear_options()
        for index, graded in found.mistakes:
            before = "—" if graded.before.moves is None else graded.before.moves
            after = "—" if graded.after.moves is None else graded.after.moves
            text = f"move {index + 1}: {graded.move}   {before} → {after}   {graded.verdict}"
            if graded.reason:
                text += f" ({graded.reason})"
            options.add_option(Option(escape(text), id=f"mistake-{index}"))
        if not found.mistakes:
            options.add_option(Option("Every move was optimal.", disabled=True))
        else:
            options.highlighted = 0
        options.focus()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if not option_id.startswith("mistake-") or self.replay is None:
            return
        count = int(option_id.removeprefix("mistake-"))
        replay = self.replay
        self.dismiss()
        replay(count)

    def action_close(self) -> None:
        self.dismiss()
