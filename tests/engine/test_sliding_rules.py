"""Sliding puzzles: ids, text forms, moves and their descriptions, game ids."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.puzzles.sliding import SlidingPuzzle, make_sliding, sized_id
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.sliding.board.geometry import Slide
from kaeru.engine.sliding.board.shuffle import shuffle_solvable

sides = st.integers(min_value=2, max_value=10)


def test_ids_cover_every_size_and_refuse_the_rest():
    p = get_puzzle("sliding-4x3")
    assert (p.width, p.height) == (4, 3) and p.title == "11-puzzle (4×3)"
    assert get_puzzle("sliding-3x3").title == "8-puzzle (3×3)"
    assert get_puzzle("sliding-8x8").grid.cells == 64
    assert get_puzzle("sliding-9x3").grid.cells == 27
    assert get_puzzle("sliding-9x9").title.startswith("80-puzzle")
    assert get_puzzle("sliding-10x10").grid.cells == 100
    with pytest.raises(BadInput, match="2 to 10 columns and rows"):
        get_puzzle("sliding-11x3")
    with pytest.raises(BadInput, match="unknown puzzle id"):
        get_puzzle("sliding-big")


def test_a_typed_size_names_its_puzzle_or_says_what_a_size_is():
    assert sized_id("10x10") == "sliding-10x10"
    assert sized_id(" 9 X 9 ") == sized_id("9") == "sliding-9x9"
    assert sized_id("5×4") == "sliding-5x4"
    with pytest.raises(BadInput, match="2 to 10 columns and rows"):
        sized_id("12x12")
    for bad in ("big", "9" * 5000, "3x3x3", ""):
        with pytest.raises(BadInput, match="give a size like 10x10"):
            sized_id(bad)


def test_text_round_trip_and_the_accepted_forms():
    p = get_puzzle("sliding-3x3")
    state = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    assert p.format(state) == "8 6 7/2 5 4/3 _ 1"
    for text in ("8 6 7/2 5 4/3 _ 1", "8,6,7/2,5,4/3,0,1", "8 6 7\n2 5 4\n3 _ 1",
                 "8672543_1", "  8 6 7 2 5 4 3 0 1 "):
        assert p.parse(text) == state


@settings(max_examples=40, deadline=None)
@given(sides, sides, st.integers(0, 10**6))
def test_parse_format_round_trip_on_every_size(w, h, seed):
    p = make_sliding(w, h)
    state = shuffle_solvable(p.grid, random.Random(seed))
    assert p.parse(p.format(state)) == state
    assert Session.from_game_id(p.game_id(state)).start == state


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("1 2 3/4 5 6/7 8", "got 8 tiles"),
        ("1 2 3/4 5 6/7 8 8", "tile 8 appears twice"),
        ("1 2 3/4 5 6/7 9 _", "'9' is not a tile"),
        ("1 2 3 4/5 6/7 8 _", "rows have 4, 2, 3 tiles"),
        ("", "empty layout"),
        ("1 2 3/4 5 6/7 8 x", "'x' is not a tile"),
        ("_ 2 3/4 5 6/7 8 0", "the gap appears twice"),
    ],
)
def test_bad_layouts_say_what_is_wrong_in_one_line(text, complaint):
    with pytest.raises(BadInput) as error:
        get_puzzle("sliding-3x3").parse(text)
    message = str(error.value)
    assert complaint in message and "\n" not in message
    assert "e.g. '1 2 3/4 5 6/7 8 _'" in message


def test_moves_are_the_tiles_beside_the_gap():
    p = get_puzzle("sliding-3x3")
    state = p.parse("1 2 3/4 _ 5/6 7 8")
    moves = p.moves(state)
    assert moves == [Slide(2, "down"), Slide(7, "up"), Slide(4, "right"), Slide(5, "left")]
    assert [p.describe(m) for m in moves] == ["2 down", "7 up", "4 right", "5 left"]
    after = p.apply(state, Slide(5, "left"))
    assert p.format(after) == "1 2 3/4 5 _/6 7 8"
    assert p.move_cells(state, Slide(5, "left")) == ((5,), (4,))
    corner = p.moves(p.parse("_ 1 2/3 4 5/6 7 8"))
    assert corner == [Slide(3, "up"), Slide(1, "left")]


def test_illegal_moves_are_explained():
    p = get_puzzle("sliding-3x3")
    state = p.parse("1 2 3/4 _ 5/6 7 8")
    assert p.explain_illegal(state, Slide(1, "down")) == "tile 1 is not next to the gap"
    assert "can only slide left" in p.explain_illegal(state, Slide(5, "right"))
    session = Session(p, state)
    with pytest.raises(BadInput, match="not next to the gap"):
        session.push(Slide(8, "up"))


def test_every_move_can_be_taken_back():
    p = get_puzzle("sliding-4x3")
    state = p.initial()
    for move in p.moves(state):
        after = p.apply(state, move)
        assert any(p.apply(after, back) == state for back in p.moves(after))


def test_game_id_has_no_spaces_and_round_trips():
    p = get_puzzle("sliding-4x4")
    start = p.initial()
    game_id = p.game_id(start)
    assert " " not in game_id and game_id.startswith("sliding-4x4:")
    assert Session.from_game_id(game_id).start == start


def test_standard_start_is_solvable_and_fixed():
    for w, h in ((3, 3), (4, 4), (5, 5), (2, 3)):
        p = SlidingPuzzle(w, h)
        assert p.unsolvable_reason(p.initial(), p.initial()) is None
        assert p.initial() == SlidingPuzzle(w, h).initial() != p.grid.goal
    assert get_puzzle("sliding-3x3").format(get_puzzle("sliding-3x3").initial()) == (
        "8 6 7/2 5 4/3 _ 1"
    )
    assert get_puzzle("sliding-3x3").explore_root() == (1, 2, 3, 4, 5, 6, 7, 8, 0)
