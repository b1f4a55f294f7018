"""The row board draws pieces by shape and turns cursor keys into the puzzle's own moves."""

from __future__ import annotations

from kaeru.tui.app import KaeruApp
from tests.app.conftest import SIZE, play_screen, settle


async def test_row_board_draws_shapes_not_only_colours():
    app = KaeruApp("flip-it-6:B_BWBW", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = play_screen(app).board.render().plain
        assert text.count("●") == 3 and text.count("○") == 2
        assert "▲" in text  # the cursor is marked, not only highlighted


async def test_oshidori_moves_the_pair_under_the_cursor():
    app = KaeruApp("oshidori", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("home", "right", "enter")  # cursor on cell 2: the pair 2-3 moves
        assert screen.session.state == "B__WBWBWWB"


async def test_number_reversal_click_moves_a_number():
    app = KaeruApp("number-reversal-5", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        # boxed cells are 4 columns wide after 1 column of padding and the frame
        await pilot.click(board, offset=(1 + 1 + 4 * 3 + 1, 1))  # cell 4 -> the empty cell 5
        assert screen.session.state == "123_4"
