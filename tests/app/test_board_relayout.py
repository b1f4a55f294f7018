"""A new position lays the screen out again only when the board's size may change: a slide of
the 15-puzzle (a move, a playback step) repaints the board, a board of another size is laid out."""

from __future__ import annotations

import pytest

from kaeru.engine.puzzles.registry import get_puzzle
from tests.app.board_host import SIZE, BoardHost


async def test_a_move_repaints_and_a_new_size_lays_out(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = get_puzzle("sliding-3x3"), get_puzzle("sliding-4x4")
    start = small.initial()
    app = BoardHost(small.layout(start))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        layouts = 0
        refresh = board.refresh

        def counted(*regions: object, **options: bool) -> object:
            nonlocal layouts
            layouts += bool(options.get("layout"))
            return refresh(*regions, **options)  # type: ignore[arg-type]

        monkeypatch.setattr(board, "refresh", counted)
        move = small.layout(start).moves[0].move
        board.show(small.layout(small.apply(start, move)), last_move=move)
        await pilot.pause()
        assert layouts == 0 and board.moved
        before = board.size
        board.show(large.layout(large.initial()))
        await pilot.pause()
        assert layouts >= 1 and board.size.height > before.height
