"""Sliding boards up to 10×10 in the app: the new-game dialog opens another size (and says
what a size is when it is not one), and a 9×9 or 10×10 board is drawn whole in an 80×24
terminal."""

from __future__ import annotations

import asyncio

from textual.widgets import Input

from kaeru.tui.app import KaeruApp
from tests.app.conftest import SIZE, new_game_dialog, play_screen, settle
from tests.app.fit_sweep import fit_problems, report


async def test_the_new_game_dialog_opens_a_10x10_board_that_plays():
    app = KaeruApp("sliding-3x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await new_game_dialog(pilot)
        field = dialog.query_one("#size", Input)
        field.focus()
        await pilot.press(*"12x12", "enter")
        await pilot.pause()
        assert "2 to 10 columns and rows" in str(dialog.query_one("#error").content)
        assert app.screen is dialog
        field.value = ""
        await pilot.press(*"10x10", "enter")
        await settle(pilot)
        screen = play_screen(app)
        session = screen.session
        assert session.puzzle.id == "sliding-10x10" and len(session.state) == 100
        for key in ("up", "down", "left", "right"):  # one of them slides a tile
            await pilot.press(key)
            if session.moves_made:
                break
        assert session.moves_made == 1


def test_9x9_and_10x10_boards_fit_80x24():
    """Drawn whole with the goal and the search panel (a smaller terminal says the size it
    needs, as `test_play_fits` shows for 8×8)."""
    failures = asyncio.run(fit_problems((80, 24), ["sliding-9x9", "sliding-10x10"]))
    assert not failures, report(failures)
