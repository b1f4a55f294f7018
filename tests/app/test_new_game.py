"""The new-game dialog: shuffles at an exact distance or within a band, built off the UI thread."""

from __future__ import annotations

import random

import pytest

from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.search import dispatch
from kaeru.screens.new_game import pick_depth
from kaeru.tui.app import KaeruApp
from tests.app.conftest import SIZE, new_game_dialog, play_screen, settle


def test_pick_depth_reads_a_number_a_band_or_nothing():
    rng = random.Random(1)
    assert pick_depth("", rng) is None
    assert pick_depth("20", rng) == 20
    assert all(18 <= pick_depth("18-24", rng) <= 24 for _ in range(50))
    for bad in ("-3", "24-18", "x"):
        with pytest.raises(BadInput):
            pick_depth(bad, rng)


async def test_shuffle_at_an_exact_distance_opens_a_game_that_far_from_the_goal():
    app = KaeruApp("two-blank-4x3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await new_game_dialog(pilot)
        dialog.query_one("#depth").focus()
        await pilot.press(*"24", "enter")
        await settle(pilot)
        screen = play_screen(app)
        session = screen.session
        assert dispatch.solve(session.puzzle, session.state, session.start).length == 24
        assert session.outcome().optimal in (None, 24)


@pytest.mark.parametrize("puzzle_id", [
    pytest.param("frogs-2", marks=pytest.mark.slow), "sliding-3x3",
    pytest.param("knights-3x4", marks=pytest.mark.slow),
    pytest.param("pegs-english", marks=pytest.mark.slow),
    pytest.param("missionaries-3", marks=pytest.mark.slow)])
async def test_the_dialog_explains_the_text_format_with_the_start_drawn(puzzle_id):
    app = KaeruApp(puzzle_id, resume=False)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await new_game_dialog(pilot)
        puzzle = dialog.puzzle
        example = puzzle.format(puzzle.initial())
        help_text = str(dialog.query_one("#format-help").content)
        assert help_text.startswith("Type ") and repr(example) in help_text
        assert "the layout as the game id shows it" not in help_text  # a known board kind
        picture = dialog.query_one("#goal-position")
        assert picture.shown == puzzle.layout(puzzle.initial()) and picture.region.height > 0
