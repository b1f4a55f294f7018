"""The home screen and the command palette: every listed puzzle can be reached by keys."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from kaeru.engine.puzzles.registry import all_ids
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.boards import board_classes
from tests.app.conftest import SIZE, play_screen, settle


async def test_home_lists_every_puzzle_under_its_family():
    app = KaeruApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        for puzzle_id in all_ids():  # each one is reached by opening its group
            home.select_preset(puzzle_id)
            assert home.chosen_id == puzzle_id
        options = home.query_one("#puzzles", OptionList).options
        headers = [o.id for o in options if o.id and o.id.startswith("family:")]
        assert "family:flip-it" in headers and "family:frogs" in headers


async def test_every_listed_puzzle_has_a_board_widget():
    from kaeru.engine.puzzles.registry import get_puzzle

    kinds = {get_puzzle(pid).layout(get_puzzle(pid).initial()).kind for pid in all_ids()}
    assert kinds <= set(board_classes())


async def test_keyboard_navigation_opens_the_highlighted_puzzle():
    app = KaeruApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        await pilot.press("down", "enter")  # past Flip It to Oshidori, opened
        await pilot.press("down", "down")
        chosen = home.chosen_id
        assert chosen == "oshidori-bw"
        await pilot.press("enter")
        await settle(pilot)
        assert play_screen(app).session.puzzle.id == chosen


async def test_command_palette_opens_a_puzzle_by_name():
    app = KaeruApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Play Frog jump (3 a side)")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(pilot)
        assert play_screen(app).session.puzzle.id == "frogs-3"


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_theme_switches_from_the_command_palette():
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = app.theme
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Theme")
        await pilot.pause(0.5)
        await pilot.press("enter")  # the theme picker opens, its own list of themes
        await pilot.pause(0.5)
        await pilot.press("down", "enter")
        await pilot.pause(0.5)
        assert app.theme != before
        assert play_screen(app).session.puzzle.id == "frogs-3"  # the game is untouched
