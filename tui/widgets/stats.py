"""The stats panel: what the current (or last) search did — algorithm, depth, positions, rate."""

from __future__ import annotations

from textual.markup import escape
from textual.widgets import Static

from kaeru.engine.core import SearchStats


def _count(value: int) -> str:
    return f"{value:,}"


class StatsPanel(Static):
    """Shows live SearchStats while a search runs and the final figures after."""

    DEFAULT_CSS = """
    StatsPanel { border: round $primary; padding: 0 1; height: auto; width: 100%; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.border_title = "Search"
        self.search_status = "idle"
        self.stats: SearchStats | None = None
        self.search_name = ""

    def on_mount(self) -> None:
        self._redraw()

    def show_stats(self, stats: SearchStats | None, status: str, task: str = "") -> None:
        """Update the panel; status is one of running, done, cancelled, failed, idle."""
        self.stats = stats
        self.search_status = status
        if task:
            self.search_name = task
        self._redraw()

    def _redraw(self) -> None:
        lines = [f"[b]{self.search_name or 'No search yet'}[/b]  [dim]({self.search_status})[/dim]"]
        stats = self.stats
        if stats is not None:
            rows = [
                ("algorithm", stats.algorithm),
                ("depth", _count(stats.depth)),
                ("expanded", _count(stats.expanded)),
                ("generated", _count(stats.generated)),
                ("frontier", _count(stats.frontier)),
                ("rate", f"{stats.rate:,.0f}/s"),
                ("elapsed", f"{stats.seconds:.2f} s"),
                *stats.extra,
            ]
            lines += [f"{name:<10} {escape(str(value))}" for name, value in rows]
        else:
            lines.append("[dim]i hint · s solve[/dim]")
        self.update("\n".join(lines))
