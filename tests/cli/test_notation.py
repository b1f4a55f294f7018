"""The speedsolvers' notation (U D L R for the way a tile moves, runs such as R3): read and
written for every board size, round trips, a known sequence replays to the goal, and `kaeru
solve`/`kaeru grade` speak it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.sliding.board.geometry import DIRECTIONS, grid
from kaeru.engine.sliding.board.notation import (
    format_directions,
    format_slides,
    looks_like_notation,
    parse_directions,
    slides_from_notation,
)
from kaeru.tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@given(st.lists(st.sampled_from(DIRECTIONS), max_size=60), st.booleans())
def test_directions_round_trip(directions, runs):
    text = format_directions(directions, runs)
    assert parse_directions(text) == directions if directions else text == ""
    if not runs:
        assert len(text) == len(directions)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 8), st.integers(2, 8), st.integers(0, 2**32), st.integers(0, 80),
    st.booleans(),
)
def test_a_random_walk_round_trips_on_any_board(width, height, seed, length, lower):
    board = grid(width, height)
    rng = random.Random(seed)
    state = board.goal
    slides = []
    for _ in range(length):
        move = rng.choice(board.slides(state))
        slides.append(move)
        state = board.slide(state, move)
    text = format_slides(slides)
    text = text.lower() if lower else text
    assert slides_from_notation(board, board.goal, text) == slides


def test_the_letters_name_the_way_the_tile_moves():
    board = grid(3, 3)
    start = (1, 2, 3, 4, 5, 6, 0, 7, 8)  # the gap bottom left: 7 and 8 slide left twice
    assert [(s.tile, s.direction) for s in slides_from_notation(board, start, "L2")] == [
        (7, "left"), (8, "left")
    ]
    assert slides_from_notation(board, start, "LL") == slides_from_notation(board, start, "L2")


def test_a_known_sequence_replays_to_the_goal():
    board = grid(4, 4)  # a scramble written by hand, then its undoing in the notation
    state = board.goal
    for move in slides_from_notation(board, state, "D3 R3 U2 L D L2 U"):
        state = board.slide(state, move)
    assert state != board.goal
    for move in slides_from_notation(board, state, "D R2 U R D2 L3 U3"):
        state = board.slide(state, move)
    assert state == board.goal


@pytest.mark.parametrize("bad", ["R0", "X3", "R-2", "R9999999", "3R"])
def test_bad_notation_is_one_line(bad):
    with pytest.raises(BadInput) as caught:
        parse_directions(bad)
    assert "\n" not in str(caught.value)


def test_a_move_with_no_tile_is_named():
    with pytest.raises(BadInput, match="move 3 'D'"):
        slides_from_notation(grid(3, 3), grid(3, 3).goal, "D D D")  # on the top row after two


def test_our_own_move_texts_are_not_taken_for_the_notation():
    for words in (["7 left"], ["7"], ["left"], ["7", "up"], ["down"]):
        assert not looks_like_notation(words)
    assert looks_like_notation(["R3", "D", "lu2"]) and looks_like_notation(["RRDL"])


def test_solve_writes_the_notation_and_grade_reads_it_back(capsys):
    start = "8 6 7/2 5 4/3 _ 1"
    code, out, _ = run(capsys, "solve", "sliding-3x3", "--from", start, "--notation",
                       "slidysim", "--json")
    solved = json.loads(out)
    assert code == 0 and solved["length"] == 31
    written = solved["notation"]
    assert set(written) <= set("UDLR0123456789")
    code, out, _ = run(capsys, "grade", "sliding-3x3", "--from", start, written, "--json")
    graded = json.loads(out)
    assert code == 0 and graded["final"] == 0 and len(graded["moves"]) == 31
    assert all(m["verdict"] == "optimal" for m in graded["moves"])
    assert [m["move"] for m in graded["moves"]] == solved["moves"]


def test_solve_text_shows_the_notation_line(capsys):
    code, out, _ = run(capsys, "solve", "sliding-3x3", "--from", "1 2 3/4 5 6/_ 7 8",
                       "--notation", "slidysim")
    assert code == 0 and "slidysim: L2" in out


@pytest.mark.slow  # the 8x8's databases and kernels on first use: about 10 s
def test_grade_reads_a_timer_solution_on_a_big_board(capsys):
    tiles = [*map(str, range(1, 62)), "_", "62", "63"]  # 8x8, the gap two cells left of home
    start = "/".join(" ".join(tiles[i : i + 8]) for i in range(0, 64, 8))
    code, out, _ = run(capsys, "grade", "sliding-8x8", "--notation", "slidysim", "--from",
                       start, "L2", "--json")
    assert code == 0 and json.loads(out)["final"] == 0


def test_words_can_be_forced_and_other_families_refuse_the_notation(capsys):
    code, _, err = run(capsys, "grade", "sliding-3x3", "--notation", "words", "--from",
                       "1 2 3/4 5 6/_ 7 8", "L2")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "solve", "flip-it-5", "--notation", "slidysim")
    assert code == 2 and "for sliding puzzles" in err


def test_an_illegal_letter_in_grade_is_exit_2(capsys):
    code, _, err = run(capsys, "grade", "sliding-3x3", "--from", "1 2 3/4 5 6/_ 7 8", "R")
    assert code == 2 and "move 1 'R'" in err and err.count("\n") == 1
