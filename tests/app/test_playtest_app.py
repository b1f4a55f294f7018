"""Points of a full play-test (issue 25) driven with Pilot: keys that lead where they say."""

from __future__ import annotations

from kaeru.screens.home import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenGame
from tests.app.conftest import SIZE, play_screen, settle


async def test_q_from_a_puzzle_opened_inside_a_game_goes_back_to_the_list():
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.post_message(OpenGame("frogs-3"))
        await settle(pilot)
        app.post_message(OpenGame("flip-it-6"))  # as the command palette does, inside a game
        await settle(pilot)
        assert play_screen(app).puzzle_id == "flip-it-6"
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
