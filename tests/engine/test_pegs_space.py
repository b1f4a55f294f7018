"""The numpy peg-space enumeration against a plain set-based breadth-first search with explicit
canonical forms; its parts (symmetry tables, sorted unique, the vectorised pagoda test) against
their one-position versions; the budget's figures reached; the full English space (slow)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kaeru.engine.pegs.bitboard import BitBoard
from kaeru.engine.pegs.boards import Board, english, french, triangle
from kaeru.engine.pegs.enumeration import enumerate_positions
from kaeru.engine.pegs.pagoda import PagodaTest, library
from kaeru.engine.pegs.pagoda_arrays import PagodaArrays
from kaeru.engine.pegs.shapes import shape_state
from kaeru.engine.pegs.space import SymmetryTables, image_of, sorted_unique, symmetries_fixing
from kaeru.engine.puzzles.pegs import make_pegs
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.results import BudgetExceeded


def plain_classes(board: Board, root: int) -> tuple[list[int], list[int]]:
    """(classes, positions) per layer: Python sets, every image spelled out."""
    group = symmetries_fixing(board, root)

    def canonical(state: int) -> int:
        return min(image_of(p, state) for p in group)

    layer = {canonical(root)}
    classes, positions = [], []
    while layer:
        classes.append(len(layer))
        positions.append(sum(len({image_of(p, s) for p in group}) for s in layer))
        following = set()
        for state in layer:
            for a, b, c in board.jumps:
                if state >> a & 1 and state >> b & 1 and not state >> c & 1:
                    following.add(canonical(state ^ (1 << a | 1 << b | 1 << c)))
        layer = following
    return classes, positions


CASES = [
    ("triangle a1", triangle(), triangle().full & ~1),
    ("triangle b3", triangle(), triangle().full & ~(1 << triangle().hole("b3"))),
    ("english fireplace", english(), shape_state("fireplace")),
    ("english plus", english(), shape_state("plus")),
    ("english cross", english(), shape_state("cross")),
]


@pytest.mark.parametrize(("name", "board", "root"), CASES, ids=[c[0] for c in CASES])
def test_layers_match_the_plain_search(name, board, root):
    found = enumerate_positions(board, root)
    classes, positions = plain_classes(board, root)
    assert list(found.series["classes up to symmetry"]) == classes
    assert list(found.histogram) == positions
    assert found.totals["positions_up_to_symmetry"] == sum(classes)
    pegs = root.bit_count()
    assert list(found.series["pegs left"]) == [pegs - d for d in range(len(classes))]


def test_triangle_space_counted_without_symmetry():
    board = triangle()
    root = board.full & ~1
    seen, layer = {root}, {root}
    while layer:
        layer = {
            s ^ (1 << a | 1 << b | 1 << c)
            for s in layer
            for a, b, c in board.jumps
            if s >> a & 1 and s >> b & 1 and not s >> c & 1
        }
        seen |= layer
    assert enumerate_positions(board, root).positions == len(seen) == 3016


def test_farthest_positions_are_the_last_layer():
    board = english()
    found = enumerate_positions(board, shape_state("fireplace"))
    last = found.histogram[-1]
    assert len(found.farthest) == min(last, 100)
    assert all(text.count("o") == found.series["pegs left"][-1] for text in found.farthest)


def test_symmetry_tables_match_the_bitboard():
    rng = random.Random(5)
    for board in (english(), french(), triangle()):
        bits = BitBoard(board)
        tables = SymmetryTables(board.size, board.symmetries)
        states = [rng.getrandbits(board.size) for _ in range(500)]
        codes = np.array(states, dtype=np.uint64)
        assert tables.canonical(codes).tolist() == [bits.canonical(s) for s in states]
        orbits = tables.orbit_sizes(codes).tolist()
        assert orbits == [len(set(bits.images(s))) for s in states]


def test_sorted_unique_matches_numpy():
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 1000, 5000).astype(np.uint64)
    assert sorted_unique(codes.copy()).tolist() == np.unique(codes).tolist()
    assert sorted_unique(codes[:0]).size == 0


@pytest.mark.parametrize("board", [english(), french()], ids=["english", "french"])
def test_vectorised_pagoda_test_matches_the_packed_one(board):
    rng = random.Random(7)
    for goal in (board.centre, 0, None):
        test = PagodaTest(board, goal, library(board))
        arrays = PagodaArrays(test)
        for pegs in (2, 6, 12, 20):
            states = [sum(1 << h for h in rng.sample(range(board.size), pegs)) for _ in range(300)]
            dead = arrays.dead(np.array(states, dtype=np.uint64), pegs).tolist()
            assert dead == [test.dead(s) for s in states]


def test_budget_stops_with_the_figures_reached():
    board = english()
    root = board.full & ~(1 << board.centre)
    with pytest.raises(BudgetExceeded) as stop:
        enumerate_positions(board, root, Control(budget=2_000))
    message = str(stop.value)
    assert "too large" in message and "finished" in message and "pegs left" in message
    assert "\n" not in message


def test_the_puzzle_reports_the_count_up_to_symmetry():
    puzzle = make_pegs("pegs-english-fireplace")
    found = puzzle.own_enumerate(puzzle.initial(), Control())
    out = found.as_dict()
    assert out["positions_up_to_symmetry"] == sum(out["classes up to symmetry"])
    assert out["positions"] == sum(out["histogram"])


@pytest.mark.slow
def test_the_whole_english_space():
    """George Bell's count: 23,475,688 positions reachable from the central vacancy up to the
    board's 8 symmetries (187,636,299 in all)."""
    board = english()
    found = enumerate_positions(board, board.full & ~(1 << board.centre), Control(budget=None))
    assert found.totals["positions_up_to_symmetry"] == 23_475_688
    assert found.positions == 187_636_299
    assert found.series["classes up to symmetry"][17] == 3_626_632  # the widest layer
    assert found.max_depth == 31


@pytest.mark.slow
def test_the_french_space_gives_up_with_the_figures_reached(capsys):
    from kaeru.tui.cli.main import main

    assert main(["enumerate", "pegs-french", "--json"]) == 3
    out = capsys.readouterr().out
    assert "too large" in out and "classes up to symmetry" in out
