"""The player's data seen through the app: a win becomes a record, the records screen shows it, a
daily win gives a share line on the clipboard, settings and games outlive the app."""

from __future__ import annotations

from textual.widgets import DataTable, OptionList

from kaeru.engine.search import dispatch
from kaeru.engine.store import IN_PROGRESS, Store
from kaeru.screens.home.puzzle_list import MARKS
from kaeru.screens.records import RecordsScreen
from kaeru.screens.settings import SettingsScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenGame, OpenScreen
from tests.app.conftest import SIZE, play_screen, settle


async def win_by_hand(pilot, screen) -> None:
    session = screen.session
    solution = dispatch.solve(session.puzzle, session.state, session.start)
    for move in solution.moves:
        session.push(move)
    await settle(pilot)


async def test_a_win_becomes_a_record_and_the_records_screen_shows_it():
    app = KaeruApp("frogs-2", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("i")  # one hint: the game counts as helped
        await settle(pilot)
        await win_by_hand(pilot, screen)
        records = app.store.records()
        assert len(records) == 1
        record = records[0]
        assert record.game_id == "frogs-2:BB_WW" and record.move_count == record.optimal == 8
        assert record.hints == 1 and record.helped
        app.post_message(OpenScreen("records"))
        await settle(pilot)
        assert isinstance(app.screen, RecordsScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        assert table.get_row_at(0)[:4] == ["Frog jump (2 a side)", "1", "0", "1"]


async def test_a_daily_win_shows_and_copies_the_share_line():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(OpenGame("frogs-1", fresh=True, daily="2026-11-23"))
        await settle(pilot)
        await win_by_hand(pilot, play_screen(app))
        assert app.clipboard.startswith("Kaeru 2026-11-23 · Frog jump · 3 moves (optimal 3) · ")
        assert app.store.records()[0].daily == "2026-11-23"


async def test_settings_and_games_outlive_the_app():
    app = KaeruApp("frogs-3")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3", "enter")
        app.theme = "textual-light"
        app.post_message(OpenScreen("settings"))
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("down", "enter")  # the game clock: on -> off
        await pilot.pause()
    assert Store.open().get_setting("timer") == "off"
    again = KaeruApp("frogs-3")
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "textual-light"
        screen = play_screen(again)
        assert screen.session.moves_made == 1 and not screen.show_timer


async def test_home_marks_progress_and_opens_records_daily_and_random_games():
    from kaeru.screens.daily import DailyScreen
    from kaeru.screens.home.screen import HomeScreen

    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        await pilot.press("right", "down", "down", "enter")  # Flip It opened: flip-it-6
        await settle(pilot)
        play_screen(app).session.push((2, 0))
        await pilot.press("q")  # back to the list
        await pilot.pause()
        assert home.player_marks["flip-it-6"] == IN_PROGRESS
        line = home.query_one("#puzzles", OptionList).get_option("flip-it-6").prompt
        assert str(line).rstrip().endswith(MARKS[IN_PROGRESS])
        await pilot.press("n")  # a random Flip It 6 game
        await settle(pilot)
        assert play_screen(app).session.puzzle.id == "flip-it-6"
        await pilot.press("q")
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RecordsScreen)
        await pilot.press("escape", "d")
        await settle(pilot)
        assert isinstance(app.screen, DailyScreen)
