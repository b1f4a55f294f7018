"""The records screen: for every puzzle played, by name, the games won (clean apart from helped),
the best moves against the optimal, the best time and the streak, and a chart of moves over the
optimal in the recent games of the line under the cursor. A puzzle's own line counts the games
from its standard start; dailies, draws and typed layouts are a line of their own ("other
starts", `engine.catalogue.marks`), so a 1-move layout is never the 8-puzzle's best."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from kaeru.engine.catalogue.marks import summaries
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock
from kaeru.engine.store import PuzzleSummary, Store
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.widgets.keys_footer import KeysFooter

NAME_WIDTH = 24  # the name column: the table fits 80 columns with every figure whole
OTHER_STARTS = "  other starts"


def puzzle_name(puzzle_id: str) -> str:
    """The puzzle's title, cut to the name column (its id when the id no longer names one)."""
    try:
        title = get_puzzle(puzzle_id).title
    except BadInput:
        title = puzzle_id
    return title if len(title) <= NAME_WIDTH else title[: NAME_WIDTH - 1] + "…"


def over_text(value: int | None) -> str:
    if value is None:
        return "–"
    return "optimal" if value == 0 else f"+{value}"


def chart_text(summary: PuzzleSummary, width: int = 30) -> str:
    """Moves over the optimal in the recent games, one bar a game (▒ when helped)."""
    if not summary.recent:
        return "No finished game with a known optimal yet."
    top = max(1, max(over for over, _ in summary.recent))
    lines = ["Moves over the optimal, oldest first (▒ = helped):"]
    for over, helped in summary.recent:
        bar = ("▒" if helped else "█") * max(0, round(width * over / top))
        lines.append(f"{over:>4} {bar or '·'}")
    return "\n".join(lines)


class RecordsScreen(Screen[None]):
    """Personal records; Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="records.back"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.summaries: dict[str, PuzzleSummary] = {}

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Vertical(id="records-body"):
            yield DataTable(id="records-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="records-chart")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "Records"
        table = self.query_one(DataTable)
        table.add_columns("puzzle", "won", "clean", "helped", "best", "moves", "time", "streak")
        puzzle_ids = sorted({game.puzzle_id for game in self.store.records()}, key=puzzle_name)
        for puzzle_id in puzzle_ids:
            own, others = summaries(self.store, puzzle_id)
            self.add_line(table, f"{puzzle_id}", puzzle_name(puzzle_id), own)
            if others.solved:
                self.add_line(table, f"{puzzle_id} other", OTHER_STARTS, others)
        chart = self.query_one("#records-chart", Static)
        if not puzzle_ids:
            chart.update("No game won yet: records appear here after your first win.")
        table.focus()

    def add_line(self, table: DataTable[str], key: str, name: str, summary: PuzzleSummary) -> None:
        self.summaries[key] = summary
        best_time = "–" if summary.best_seconds is None else clock(summary.best_seconds)
        table.add_row(
            name, str(summary.solved), str(summary.clean), str(summary.helped),
            over_text(summary.best_over_optimal),
            "–" if summary.best_moves is None else str(summary.best_moves),
            best_time, str(summary.streak), key=key,
        )

    @on(DataTable.RowHighlighted)
    def show_chart(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value if event.row_key is not None else None  # empty table
        if key in self.summaries:
            self.query_one("#records-chart", Static).update(chart_text(self.summaries[key]))
