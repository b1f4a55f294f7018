"""The stats panel: what the current (or last) search did, in a player's words — the positions
looked at, the distance, the time — with the algorithm's own figures (its name, expanded,
generated, frontier, rate and the extras it reports) behind a toggle. When the search is busy
with something else first (a table built on first use), its note says what, and a progress bar
shows how far along it is."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.widgets import ProgressBar, Static

from kaeru.engine.game.record import SearchStatus
from kaeru.engine.rules.protocol import SearchStats
from kaeru.tui.widgets.text_update import update_text
from kaeru.tui.words import duration, plural, short_count

STATUS_WORDS = {"running": "searching…", "idle": "", "gave up": "gave up",
                "earlier": "past position"}
# The distance row by how the search ended: only a finished search found a distance; a stopped
# one's depth is how deep it had looked (an IDA* bound), not a distance.
DISTANCE_WORDS = {"no solution": "cannot be won", "cancelled": "not found",
                  "gave up": "not found", "failed": "not found"}
OVER_OPTIMUM = "over optimum"  # the extra a near-optimal search states its bound in
ROW_WIDTH = 27  # a name and its value, the value right-aligned (the panel's narrowest inside)


def row(name: str, value: str, width: int = ROW_WIDTH) -> str:
    """`name` and `value` on one line `width` cells wide, the value right-aligned (markup)."""
    return f"{name} {escape(value):>{max(1, width - len(name) - 1)}}"


class StatsPanel(Vertical):
    """Shows live SearchStats while a search runs and the final figures after."""

    DEFAULT_CSS = """
    StatsPanel { border: round $primary; padding: 0 0 0 1; height: auto; width: 100%; }
    StatsPanel > #stats-text { height: auto; }
    StatsPanel > ProgressBar { height: 1; width: 100%; }
    StatsPanel > ProgressBar > Horizontal { width: 100%; }
    StatsPanel > ProgressBar Bar { width: 1fr; }
    StatsPanel.-no-progress > ProgressBar { display: none; }
    """

    def __init__(self, *, id: str | None = None, details: bool = False) -> None:
        super().__init__(id=id, classes="-no-progress")
        self.border_title = "Search"
        self.search_status: SearchStatus = "idle"
        self.stats: SearchStats | None = None
        self.search_name = ""
        self.unit = "move"
        self.details = details  # the algorithm's own figures (key `.` on the play screen)
        self.text = ""
        self.row_width = ROW_WIDTH  # the text's width as laid out (less with a scrollbar)

    def compose(self) -> ComposeResult:
        yield Static(id="stats-text")
        yield ProgressBar(total=1.0, show_eta=False, id="stats-progress")

    def on_mount(self) -> None:
        self._redraw()

    def show_stats(
        self, stats: SearchStats | None, status: SearchStatus, task: str = "", unit: str = ""
    ) -> None:
        """Update the panel with how the last search stands;
        `unit` is what a distance counts ("move", or "jump" for pegs)."""
        self.stats = stats
        self.search_status = status
        if task:
            self.search_name = task
        if unit:
            self.unit = unit
        self._redraw()

    def toggle_details(self) -> bool:
        self.details = not self.details
        self._redraw()
        return self.details

    def rows(self, details: bool | None = None) -> list[str]:
        """The panel's lines (Textual markup, values escaped); `details`: with the algorithm's
        own figures (default: as toggled)."""
        status = STATUS_WORDS.get(self.search_status, self.search_status)
        heading = f"[b]{escape(self.search_name or 'No search yet')}[/b]"
        lines = [heading + (f"  [dim]{escape(status)}[/dim]" if status else "")]
        stats = self.stats
        if stats is None:
            lines.append("[dim]i hint · s solve · . details[/dim]")
            return lines
        if stats.note:
            lines.append(escape(stats.note))
        if self.search_status == "running":
            reached = f"{plural(stats.depth, self.unit)} so far"
        else:
            reached = DISTANCE_WORDS.get(self.search_status, plural(stats.depth, self.unit))
        rows = [
            # a table walk generates nothing: the positions it stepped through are its work
            ("positions looked at", short_count(max(stats.generated, stats.expanded))),
            ("distance", reached),
            ("time", duration(stats.seconds)),
        ]
        over = dict(stats.extra).get(OVER_OPTIMUM)  # a near-optimal answer's proved bound
        if over is not None and self.search_status == "done":
            rows.insert(2, (OVER_OPTIMUM, over))
        if self.search_status == "earlier":  # the game moved on since: no distance of here
            del rows[1]
        if stats.note:  # busy with something else first (a table build): its note says what
            rows = rows[-1:]
        lines += [row(name, value, self.row_width) for name, value in rows]
        if self.details if details is None else details:
            lines.append(f"[dim]{escape(stats.algorithm)}[/dim]")
            figures = [
                ("depth", str(stats.depth)),
                ("expanded", short_count(stats.expanded)),
                ("generated", short_count(stats.generated)),
                ("frontier", short_count(stats.frontier)),
                ("rate", f"{short_count(round(stats.rate))}/s"),
                *stats.extra,
            ]
            lines += [f"[dim]{escape(name):<12}[/dim] {escape(str(value))}"
                      for name, value in figures]
        return lines

    def rows_needed(self, width: int = ROW_WIDTH) -> int:
        """The rows the panel's text and bar take inside, wrapped at `width` (at least 4, so
        the panel keeps its size from one search to the next). The details are not counted:
        turned on, they may scroll rather than move everything else."""
        lengths = [Content.from_markup(line).cell_length for line in self.rows(details=False)]
        wrapped = sum(max(1, -(-length // width)) for length in lengths)
        bar = 0 if self.has_class("-no-progress") else 1
        return max(4, wrapped + bar)

    def on_resize(self) -> None:
        """A scrollbar came or went beside the panel: the rows fit the new width."""
        self._redraw()

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        text_widget = self.query_one("#stats-text", Static)
        width = text_widget.content_size.width
        if width > 0:
            self.row_width = min(ROW_WIDTH, width)  # a row never wraps its own value
        self.text = "\n".join(self.rows())
        old = text_widget.content
        # the same number of lines, none wrapping: the panel keeps its size, no new layout
        same_shape = (
            isinstance(old, str) and old.count("\n") == self.text.count("\n") and width > 0
            and all(Content.from_markup(line).cell_length <= width
                    for line in self.text.split("\n"))
        )
        update_text(text_widget, self.text, layout=not same_shape)
        progress = self.stats.progress if self.stats is not None else None
        running = self.search_status == "running"
        self.set_class(progress is None or not running, "-no-progress")
        if progress is not None:
            self.query_one(ProgressBar).update(total=1.0, progress=max(0.0, min(1.0, progress)))
