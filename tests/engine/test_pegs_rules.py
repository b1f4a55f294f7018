"""Peg solitaire rules: boards, hole names, the text format (the seed's lastone.dat), ids,
moves, chains, and the invariants the solver leans on (position classes, pagoda functions)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.game.session import Session
from kaeru.engine.pegs.bitboard import BitBoard
from kaeru.engine.pegs.boards import english, french, triangle
from kaeru.engine.pegs.pagoda import PagodaTest, is_pagoda, library, total
from kaeru.engine.pegs.position_class import position_class
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.search import dispatch

SEED_T = "... ... ....... ..ooo.. ...o... .o. ..."
SEED_T_FILE = "...\n...\n.......\n..ooo..\n...o...\n.o.\n...\n"
# The seed's printed answer for the T, state after state (its show() layout, one line each).
SEED_T_ANSWER = [
    "... ... ....... ..ooo.. ...o... .o. ...",
    "... ... ....... .o..o.. ...o... .o. ...",
    "... ... ....... .o.oo.. ....... ... ...",
    "... ... ....... .oo.... ....... ... ...",
    "... ... ....... ...o... ....... ... ...",
]


@pytest.mark.parametrize(
    ("geometry", "holes", "jumps", "symmetries", "centre"),
    [(english(), 33, 76, 8, "d4"), (french(), 37, 92, 8, "d4"), (triangle(), 15, 36, 6, None)],
)
def test_board_geometry(geometry, holes, jumps, symmetries, centre):
    assert geometry.size == holes
    assert len(geometry.jumps) == jumps
    assert len(geometry.symmetries) == symmetries
    assert (geometry.names[geometry.centre] if geometry.centre is not None else None) == centre
    jumps_set = set(geometry.jumps)
    for perm in geometry.symmetries:  # a symmetry maps every jump onto a jump
        assert {(perm[a], perm[b], perm[c]) for a, b, c in geometry.jumps} == jumps_set


def test_english_rows_and_names():
    board = english()
    assert [len(r) for r in board.rows] == [3, 3, 7, 7, 7, 3, 3]
    assert board.hole("d4") == 16 and board.hole(" C1 ") == 0 and board.names[-1] == "e7"
    assert [len(r) for r in french().rows] == [3, 5, 7, 7, 7, 5, 3]
    assert [len(r) for r in triangle().rows] == [1, 2, 3, 4, 5]
    with pytest.raises(BadInput, match="no hole 'a1' on the english board"):
        board.hole("a1")


def test_seed_format_one_line_and_file():
    puzzle = get_puzzle("pegs-english-t")
    one_line = puzzle.parse(SEED_T)
    assert puzzle.parse(SEED_T_FILE) == one_line == puzzle.initial()
    assert puzzle.format(one_line) == ".../.../......./..ooo../...o.../.o./..."
    assert puzzle.parse(puzzle.format(one_line)) == one_line
    assert puzzle.parse(SEED_T.replace(" ", "")) == one_line  # all 33 holes in one run
    # the seed's own printout indents the short rows
    assert puzzle.parse("  ...\n  ...\n.......\n..ooo..\n...o...\n  .o.\n  ...") == one_line


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("... ... ....... ..ooo.. ...o... .o.", "got 6 rows, expected 7 rows of 3-3-7-7-7-3-3"),
        ("... ... ...... ..ooo.. ...o... .o. ...", "row 3 (......) has 6 holes, expected 7"),
        ("... ... ....... ..oxo.. ...o... .o. ...", "unexpected 'x' in row 4"),
        ("... ... ....... ..o_o.. ...o... .o. ...", "unexpected '_' in row 4"),
        ("... ... ....... ....... ....... ... ...", "no peg at all"),
        ("", "no position given"),
    ],
)
def test_bad_positions_are_refused_with_one_clear_line(text, message):
    with pytest.raises(BadInput, match=re.escape(message)) as caught:
        get_puzzle("pegs-english").parse(text)
    assert "\n" not in str(caught.value)


def test_bad_file_through_the_session(tmp_path):
    path = tmp_path / "lastone.dat"
    path.write_text("...\n...\n.......\n..ooo..\n...o...\n.o.\n....\n")
    with pytest.raises(BadInput, match="row 7"):
        get_puzzle("pegs-english").parse(path.read_text())


def test_moves_describe_and_explain():
    puzzle = get_puzzle("pegs-english")
    start = puzzle.initial()
    assert sorted(puzzle.describe(m) for m in puzzle.moves(start)) == [
        "b4-d4", "d2-d4", "d6-d4", "f4-d4"]
    board = puzzle.geometry
    d2, d3, d4 = (board.hole(n) for n in ("d2", "d3", "d4"))
    after = puzzle.apply(start, (d2, d3, d4))
    assert puzzle.format(after) == "ooo/o.o/ooo.ooo/ooooooo/ooooooo/ooo/ooo"
    assert puzzle.move_cells(start, (d2, d3, d4)) == ((d2,), (d4,))
    d5, d6 = board.hole("d5"), board.hole("d6")
    assert "d4 is not empty" in puzzle.explain_illegal(after, (d6, d5, d4))
    assert "d1-d3 needs a peg in d2" in puzzle.explain_illegal(after, (board.hole("d1"), d2, d3))
    assert "not a jump" in puzzle.explain_illegal(start, (0, 1, 16))


def test_chains_group_one_pegs_jumps():
    puzzle = get_puzzle("pegs-english")
    board = puzzle.geometry
    h = board.hole
    moves = [(h("d2"), h("d3"), h("d4")), (h("d4"), h("e4"), h("f4")), (h("b4"), h("c4"), h("d4"))]
    assert puzzle.chains(moves) == ["d2-d4-f4", "b4-d4"]
    assert puzzle.chains([]) == []


def test_ids_goals_and_titles():
    assert get_puzzle("pegs-english").goal_hole == 16
    assert get_puzzle("pegs-english@any").goal_hole is None
    assert get_puzzle("pegs-english@c4").goal_hole == english().hole("c4")
    c1 = get_puzzle("pegs-english-c1")
    assert c1.initial() == english().full & ~1 and c1.goal_hole == 0
    assert get_puzzle("pegs-triangle").goal_hole is None
    assert "central game" in get_puzzle("pegs-french").title
    for bad, message in [
        ("pegs-hexagon", "no peg board 'hexagon'"),
        ("pegs-english-z9", "not a hole of the english board nor a shape"),
        ("pegs-english@", "give a hole or `any` after @"),
        ("pegs-english@h8", "no hole 'h8'"),
    ]:
        with pytest.raises(BadInput, match=message):
            get_puzzle(bad)


def test_game_id_round_trip():
    puzzle = get_puzzle("pegs-english-t@any")
    session = Session(puzzle)
    session.push(puzzle.moves(session.state)[0])
    again = Session.from_saved(session.saved())
    assert again.state == session.state and again.game_id == session.game_id
    assert Session.from_game_id(session.game_id).start == puzzle.initial()


def test_seed_answer_is_a_legal_game():
    puzzle = get_puzzle("pegs-english-t")
    states = [puzzle.parse(text) for text in SEED_T_ANSWER]
    for before, after in zip(states, states[1:], strict=False):
        assert after in {puzzle.apply(before, m) for m in puzzle.moves(before)}
    assert puzzle.is_goal(states[-1], states[0])


# ---- invariants --------------------------------------------------------------------------------
def random_game(puzzle, seed: int, jumps: int) -> list[int]:
    rng = random.Random(seed)
    states = [puzzle.initial()]
    for _ in range(jumps):
        moves = puzzle.moves(states[-1])
        if not moves:
            break
        states.append(puzzle.apply(states[-1], rng.choice(moves)))
    return states


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["pegs-english", "pegs-french", "pegs-triangle"]), st.integers(0, 10**6))
def test_jumps_keep_the_position_class_and_never_raise_a_pagoda_total(puzzle_id, seed):
    puzzle = get_puzzle(puzzle_id)
    board = puzzle.geometry
    functions = library(board)
    states = random_game(puzzle, seed, 30)
    for before, after in zip(states, states[1:], strict=False):
        assert position_class(board, before) == position_class(board, after)
        assert all(total(f, after) <= total(f, before) for f in functions)


@pytest.mark.parametrize("geometry", [english(), french(), triangle()])
def test_the_library_holds_only_pagoda_functions(geometry):
    functions = library(geometry)
    assert functions and all(is_pagoda(geometry, f) for f in functions)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["english", "french"]), st.integers(0, 2**37 - 1), st.integers(0, 36))
def test_packed_pagoda_test_agrees_with_plain_sums(key, bits, goal):
    geometry = english() if key == "english" else french()
    state = bits & geometry.full or 1
    goal_hole = goal % geometry.size
    test = PagodaTest(geometry, goal_hole, library(geometry))
    expected = any(total(f, state) < f[goal_hole] for f in test.functions)
    assert test.dead(state) == expected == (test.verdict(state) is not None)


def test_canonical_form_is_shared_by_symmetric_images():
    bits = BitBoard(english())
    state = random_game(get_puzzle("pegs-english"), 3, 10)[-1]
    images = bits.images(state)
    assert len(set(images)) > 1
    assert {bits.canonical(image) for image in images} == {min(images)}


@pytest.mark.parametrize(
    "puzzle_id", ["pegs-triangle", "pegs-triangle-b3", "pegs-english-fireplace"]
)
def test_layered_enumeration_matches_the_generic_search(puzzle_id):
    from kaeru.engine.search.enumerate import enumerate_bfs

    puzzle = get_puzzle(puzzle_id)
    ours = dispatch.enumerate_space(puzzle, puzzle.initial())
    generic = enumerate_bfs(puzzle, puzzle.initial())
    assert ours.histogram == generic.histogram and ours.farthest == generic.farthest
    assert len(ours.series["classes up to symmetry"]) == len(ours.histogram)
    if puzzle_id == "pegs-triangle":
        assert ours.positions == 3016  # every position reachable with a1 empty at the start
