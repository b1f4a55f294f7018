"""The goal, drawn as a small locked board of the same kind as the game's (same glyphs), with a
one-line caption; in words only where the goal is a test rather than one position (a peg board
whose goal is "one peg left, anywhere"). It draws what it is given; it reads no rule."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.markup import escape
from textual.widgets import Static

from kaeru.engine.rules.layout import Layout
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class

REACH = "Reach this position"
TEXT_WIDTH = 30  # a goal in words wraps at this width


def goal_caption(words: str) -> str:
    """The caption: the goal in words where there are some, else REACH."""
    return words[0].upper() + words[1:] if words else REACH


def goal_position(layout: Layout) -> BoardWidget:
    """A locked, unfocusable board of the layout's kind, held to its compact form."""
    board = board_class(layout.kind)(layout, id="goal-position")
    board.locked = True
    board.picture = True
    board.can_focus = False
    board.styles.max_width = board.needed_size()[0]
    return board


class GoalBoard(Vertical):
    """`layout`: the goal position's layout, or None when there is no one goal position;
    `words`: the goal in words (the caption, or all there is when there is no layout; "" when
    the picture says it all)."""

    DEFAULT_CSS = """
    GoalBoard { height: auto; width: auto; }
    GoalBoard > #goal-caption { height: auto; width: auto; padding: 0 1; color: $text-muted; }
    GoalBoard > #goal-caption.-words { max-width: 32; color: $text; text-style: bold; }
    """

    def __init__(self, layout: Layout | None, words: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.goal_layout = layout
        self.words = words
        self.board = goal_position(layout) if layout is not None else None

    def compose(self) -> ComposeResult:
        caption = Static(escape(goal_caption(self.words)), id="goal-caption")
        caption.set_class(self.board is None, "-words")
        yield caption
        if self.board is not None:
            yield self.board

    def set_goal(self, layout: Layout | None, words: str) -> None:
        """Another game's goal (a new start of the same puzzle)."""
        old = self.goal_layout
        same_kind = layout is not None and old is not None and layout.kind == old.kind
        self.goal_layout, self.words = layout, words
        if same_kind and self.board is not None and layout is not None:
            self.board.show(layout)
            self.query_one("#goal-caption", Static).update(escape(goal_caption(words)))
        else:
            self.board = goal_position(layout) if layout is not None else None
            self.refresh(recompose=True)

    def needed_size(self) -> tuple[int, int]:
        """(columns, rows): the caption and under it the compact board."""
        caption = len(goal_caption(self.words)) + 2  # and its padding
        if self.board is None:
            return min(caption, TEXT_WIDTH + 2), -(-caption // TEXT_WIDTH)
        width, height = self.board.needed_size()
        return max(width, caption), height + 1

    @on(BoardWidget.MoveChosen)
    @on(BoardWidget.Refused)
    def keep_quiet(self, event: BoardWidget.MoveChosen | BoardWidget.Refused) -> None:
        """A click on the goal is no move and no mistake: nothing reaches the screen."""
        event.stop()
