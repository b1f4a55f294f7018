"""The row board keeps the lines it drew for each cursor cell: a cursor move back to a cell
draws nothing again, and anything else that changes (letters, a new position) draws anew."""

from __future__ import annotations

import pytest

from kaeru.engine.rules.layout import BLACK, EMPTY, WHITE, Layout, LayoutMove, row_cells
from kaeru.tui.widgets.boards.row import RowBoard
from tests.app.board_host import SIZE, BoardHost

START = Layout(
    "row", 1, 3, row_cells([(BLACK, ""), (EMPTY, ""), (WHITE, "")]),
    (LayoutMove("black steps", "1 → 2", (0,), (1,)),),
)
AFTER = Layout("row", 1, 3, row_cells([(EMPTY, ""), (BLACK, ""), (WHITE, "")]), ())


def shown_lines(board: RowBoard) -> list[str]:
    """What the board shows now, line by line (as the screen draws it)."""
    return [board.render_line(y).text.rstrip() for y in range(board.size.height)]


def fresh_lines(board: RowBoard) -> list[str]:
    """What the board's state draws, rendered anew."""
    return [line.rstrip() for line in RowBoard.render(board).plain.split("\n")]


async def test_a_cursor_move_back_reuses_the_lines_and_a_change_draws_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = BoardHost(START)
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert isinstance(board, RowBoard)
        renders = 0
        draw = board.render

        def counted() -> object:
            nonlocal renders
            renders += 1
            return draw()

        monkeypatch.setattr(board, "render", counted)
        await pilot.press("right", "left")  # cells 2 and 1 drawn once each
        await pilot.pause()
        drawn = renders
        for _ in range(3):
            await pilot.press("right")
            await pilot.pause()
            assert board.cursor == 1 and shown_lines(board) == fresh_lines(board)
            await pilot.press("left")
            await pilot.pause()
            assert board.cursor == 0 and shown_lines(board) == fresh_lines(board)
        assert renders == drawn  # back and forth between cells drawn already: nothing drawn
        await pilot.press("v")  # letters: every line drawn again
        await pilot.pause()
        assert "B" in "".join(shown_lines(board)) and shown_lines(board) == fresh_lines(board)
        board.show(AFTER, last_move="black steps")  # a new position, the cursor on its piece
        await pilot.press("left", "right")
        await pilot.pause()
        assert shown_lines(board) == fresh_lines(board) and renders > drawn
