"""The river scene in the real app: crossings played to the end by keys, refusals with the
engine's reason in words, hint, solve and playback, an impossible variant said plainly, and
snapshots at 80×24."""

from __future__ import annotations

import time

import pytest
from textual.pilot import Pilot

from kaeru.engine.search import dispatch
from kaeru.tui.app import KaeruApp
from kaeru.tui.widgets.boards.river import KEYS, RiverBoard
from tests.app.conftest import SIZE, SNAPSHOT_SIZE, play_screen, settle, snapshot_app


def notes(app: KaeruApp) -> list[str]:
    return [n.message for n in app._notifications]


def slots_for(board: RiverBoard, move: tuple[str, ...]) -> list[int]:
    """Slots of people who can take this crossing (on the boat's bank)."""
    sides = board.sides()
    free = [i for i, left in enumerate(sides) if left == board.boat_left]
    chosen: list[int] = []
    for label in move:
        chosen.append(next(i for i in free if board.people[i] == label and i not in chosen))
    return chosen


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_jealous_husbands_played_to_the_end_by_number_keys():
    app = KaeruApp("jealous-husbands-3", resume=False)
    app.animation_level = "none"  # no sailing between crossings: the test runs faster
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        assert isinstance(board, RiverBoard)
        puzzle = screen.session.puzzle
        for move in dispatch.solve(puzzle, screen.session.state, screen.session.start).moves:
            for slot in slots_for(board, move):
                await pilot.press(KEYS[slot])
            assert board.load() == move
            await pilot.press("enter")
        assert screen.session.moves_made == 11 and screen.session.solved
        status = str(screen.query_one("#status").content)
        assert "Solved in 11 moves: a perfect game!" in status


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_missionaries_played_to_the_end_by_keys():
    """Identical people: any missionary on the boat's bank will do. The first crossings go by
    arrows and Space, the rest by number keys."""
    app = KaeruApp("missionaries-3", resume=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        puzzle = screen.session.puzzle
        solution = dispatch.solve(puzzle, screen.session.state, screen.session.start)
        for n, move in enumerate(solution.moves):
            for slot in slots_for(board, move):
                if n < 2:
                    while board.cursor != slot:
                        await pilot.press("right")
                    await pilot.press("space")
                else:
                    await pilot.press(KEYS[slot])
            await pilot.press("enter")
        assert screen.session.solved and screen.session.moves_made == 11


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_unsafe_crossings_are_refused_with_the_reason_in_words():
    app = KaeruApp("jealous-husbands-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        await pilot.press("enter")  # nobody aboard
        await pilot.pause()
        assert any("the boat needs a rower" in n for n in notes(app))
        await pilot.press("1", "enter")  # Ha alone leaves Wa with Hb and Hc
        await pilot.pause()
        assert any("Wa would be with Hb while Ha is across" in n for n in notes(app))
        assert screen.session.moves_made == 0 and board.load() == ("Ha",)  # still aboard
        await pilot.press("4", "enter")  # Ha and Wb in the boat together
        await pilot.pause()
        assert any("Wb would be in the boat with Ha without Hb" in n for n in notes(app))
        await pilot.press("6")  # a third passenger
        await pilot.pause()
        assert any("the boat holds 2" in n for n in notes(app))
        await pilot.press("4", "2")  # Wb ashore, Wa aboard: a couple crosses
        assert "Ha Wa" in board.render().plain  # drawn in the boat
        await pilot.press("enter")
        assert screen.session.moves_made == 1 and board.load() == ()
        await pilot.press("3")  # Hb stayed on the left; the boat is on the right
        await pilot.pause()
        assert any("Hb is on the left bank; the boat is on the right" in n for n in notes(app))
        await pilot.press("escape", "escape")  # the boat is empty: twice Escape leaves
        assert app.screen is not screen


async def test_only_the_farmer_rows():
    app = KaeruApp("wolf-goat-cabbage", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("3", "enter")  # the goat alone
        await pilot.pause()
        assert any("only the Farmer can row" in n for n in notes(app))
        await pilot.press("escape", "1", "2", "enter")  # empty the boat; farmer and wolf
        await pilot.pause()
        assert any("the Goat would eat the Cabbage on the left bank" in n for n in notes(app))
        assert screen.session.moves_made == 0


async def test_hint_marks_who_to_send():
    app = KaeruApp("wolf-goat-cabbage", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("i")
        await settle(pilot)
        assert screen.board.hint_move == ("Farmer", "Goat")
        text = screen.board.render().plain
        assert "1★Farmer" in text and "3★Goat" in text


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_solve_plays_the_crossings_back_with_the_boat_sailing():
    app = KaeruApp("jealous-husbands-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        board = screen.board
        await pilot.press("s")
        await settle(pilot)
        playback = screen.session.playback
        assert playback is not None and playback.length == 11
        await pilot.press("space", "home")  # pause, back to the start, then step by hand
        assert board.shown == screen.session.puzzle.layout(screen.session.start)
        # the crossing takes 0.3 s, less than a key press on a busy machine: record its frames
        frames: list[tuple[bool, tuple[str, ...], int] | None] = []
        step = board._sail_step

        def record() -> None:
            frames.append(board.sailing)
            step()

        board._sail_step = record  # type: ignore[method-assign]
        await pilot.press("right")
        deadline = time.monotonic() + 5
        while board.sailing is not None:
            assert time.monotonic() < deadline, "the boat did not land"
            await pilot.pause(0.05)
        # the boat was on its way with the first load, frame after frame
        loads = [frame[1] for frame in frames if frame is not None]
        assert len(loads) > 1 and set(loads) == {playback.solution.moves[0]}
        assert [frame[2] for frame in frames if frame is not None] == list(range(len(loads)))
        assert not board.boat_left
        await pilot.press("space")
        for _ in range(7):
            await pilot.press("plus")
        deadline = time.monotonic() + 20
        while not playback.at_end:
            assert time.monotonic() < deadline, "playback did not reach the end"
            await pilot.pause(0.05)
        assert board.shown == screen.session.puzzle.layout(
            screen.session.puzzle.goal(screen.session.start)
        )


async def test_an_impossible_variant_is_said_plainly():
    app = KaeruApp("jealous-husbands-4-boat2", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = play_screen(app)
        await pilot.press("s")
        await settle(pilot)
        assert screen.session.playback is None
        assert screen.session.message.startswith(
            "This position cannot be won: Jealous husbands (4 couples, boat of 2) cannot be done"
        )
        assert screen.session.outcome().optimal is None


# ---- snapshots (plain `def`: snap_compare runs its own event loop) ------------------------------
def test_snapshot_couple_aboard(snap_compare):
    async def board_two(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("2", "1", "right")
        await pilot.pause()

    assert snap_compare(
        snapshot_app("jealous-husbands-3"), terminal_size=SNAPSHOT_SIZE, run_before=board_two
    )


@pytest.mark.slow  # a longer scenario; the default run keeps its like
def test_snapshot_wolf_goat_cabbage_midway_without_colour(snap_compare, monkeypatch):
    """NO_COLOR: banks, water and boat still read by their characters."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(
        snapshot_app("wolf-goat-cabbage:Wolf Cabbage | boat Farmer Goat"),
        terminal_size=SNAPSHOT_SIZE,
        run_before=settle,
    )
