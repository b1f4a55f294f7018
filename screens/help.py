"""The help screen: a puzzle's rules in a few lines and every key that works on its screen."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from kaeru.engine.core import Puzzle

GENERAL_KEYS = [
    ("u / Backspace", "undo"),
    ("r", "redo"),
    ("R", "restart (the moves stay on redo)"),
    ("i", "hint: the first move of an optimal solution, highlighted on the board"),
    ("s", "solve, then play the solution back"),
    ("n", "new game: a typed layout or a shuffle"),
    ("Escape", "cancel a search, leave playback, or go back"),
    ("ctrl+p", "command palette: open any puzzle, switch theme"),
    ("ctrl+q", "quit"),
]
PLAYBACK_KEYS = [
    ("Space / p", "play or pause"),
    ("← → / h l", "step back or forward"),
    ("+ / -", "faster, slower"),
    ("t", "take over from this step"),
    ("Escape", "leave playback"),
]


def key_lines(widget: Widget) -> list[tuple[str, str]]:
    """The keys a widget binds, as (keys, description), from its BINDINGS."""
    lines = []
    for binding in type(widget).BINDINGS:
        if isinstance(binding, Binding) and binding.description:
            lines.append((binding.key.replace(",", " / "), binding.description))
    return lines


class HelpScreen(ModalScreen[None]):
    """Rules and keys for one puzzle; any of Escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 76; max-width: 100%; height: auto; max-height: 90%;
                                  border: thick $primary; background: $surface; padding: 1 2; }
    """

    def __init__(self, puzzle: Puzzle, board: Widget | None = None) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.board = board

    def compose(self) -> ComposeResult:
        board_keys = key_lines(self.board) if self.board is not None else []
        parts = [f"[b]{escape(self.puzzle.title)}[/b]", "", escape(self.puzzle.rules), ""]
        if board_keys:
            parts.append("[b]On the board[/b]")
            parts += [f"  {escape(k):<16} {escape(d)}" for k, d in board_keys]
            parts.append("")
        parts.append("[b]Game[/b]")
        parts += [f"  {escape(k):<16} {escape(d)}" for k, d in GENERAL_KEYS]
        parts += ["", "[b]Playback[/b]"]
        parts += [f"  {escape(k):<16} {escape(d)}" for k, d in PLAYBACK_KEYS]
        parts += ["", "[dim]Escape closes this help.[/dim]"]
        with VerticalScroll():
            yield Static("\n".join(parts))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
