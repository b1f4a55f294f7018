"""A preset's ✓ and its bests belong to games from its own start (`engine.catalogue.marks`):
the ✓ stays after one more move or a restart, a daily or a typed layout of the same puzzle
neither marks the preset nor becomes its best; the records list those as "other starts"."""

from __future__ import annotations

from textual.widgets import DataTable

from kaeru.engine.search import dispatch
from kaeru.engine.store import SOLVED
from kaeru.screens.home.screen import HomeScreen
from kaeru.screens.records import OTHER_STARTS, RecordsScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenGame, OpenScreen
from tests.app.conftest import SIZE, play_screen, settle


async def win_by_hand(pilot, app) -> None:
    session = play_screen(app).session
    for move in dispatch.solve(session.puzzle, session.state, session.start).moves:
        session.push(move)
    await settle(pilot)
    assert session.solved


async def home_marks(pilot, app) -> dict[str, str]:
    await pilot.press("q")
    await settle(pilot)
    home = app.screen
    assert isinstance(home, HomeScreen)
    return home.player_marks


async def test_the_mark_stays_solved_after_a_move_past_the_win_or_a_restart():
    app = KaeruApp("number-reversal-4", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await win_by_hand(pilot, app)
        session = play_screen(app).session
        session.push(session.legal_moves()[0])  # one more move after the win
        await settle(pilot)
        assert (await home_marks(pilot, app))["number-reversal-4"] == SOLVED
        app.post_message(OpenGame("number-reversal-4"))
        await settle(pilot)
        await pilot.press("R")
        session = play_screen(app).session
        session.push(session.legal_moves()[0])
        await settle(pilot)
        assert (await home_marks(pilot, app))["number-reversal-4"] == SOLVED


async def test_a_daily_or_typed_start_is_kept_apart_from_the_preset():
    app = KaeruApp(resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.post_message(OpenGame("frogs-4:WWB_WWBBB", fresh=True, daily="2026-11-23"))
        await settle(pilot)
        await win_by_hand(pilot, app)
        app.post_message(OpenGame("sliding-3x3:1 2 3/4 5 6/7 _ 8", fresh=True))
        await settle(pilot)
        await win_by_hand(pilot, app)
        marks = await home_marks(pilot, app)
        assert "frogs-4" not in marks and "sliding-3x3" not in marks
        app.post_message(OpenScreen("records"))
        await settle(pilot)
        assert isinstance(app.screen, RecordsScreen)
        table = app.screen.query_one(DataTable)
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        assert [row[0] for row in rows] == [
            "8-puzzle (3×3)", OTHER_STARTS, "Frog jump (4 a side)", OTHER_STARTS
        ]
        assert rows[0][1:] == ["0", "0", "0", "–", "–", "–", "0"]  # no best from a 1-move layout
        assert rows[1][1:3] == ["1", "1"] and rows[1][5] == "1"
        assert table.virtual_size.width <= table.scrollable_content_region.width  # "streak" too
