"""Flip It's solver over the byte table (`engine.search.dense_path`): the same lengths as the
former sorted-layer search, a cancel honoured between chunks, the two-sided search away from the
start, and unsolvable starts proved."""

from __future__ import annotations

import random

import numpy as np
import pytest
from line_checks import assert_replays, random_walk

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.protocol import Cancelled
from kaeru.engine.search import dense_path as dense
from kaeru.engine.search.bfs import bfs
from kaeru.engine.search.dense_path import dense_path


@pytest.mark.parametrize("size", [5, 8, 11, 13])
def test_same_lengths_as_the_sorted_layers(size):
    puzzle = get_puzzle(f"flip-it-{size}")
    rng = random.Random(size)
    for _ in range(4):
        start = puzzle.random_start(rng)
        new = puzzle.own_solve(start, start, Control())
        old = puzzle.solve_layers(start, start, Control())
        assert_replays(puzzle, new, start, start)
        assert new.length == old.length and new.optimal


@pytest.mark.parametrize("size", [6, 9, 12])
def test_mid_game_the_two_sided_search_matches(size):
    puzzle = get_puzzle(f"flip-it-{size}")
    rng = random.Random(size)
    start = puzzle.random_start(rng)
    state = random_walk(puzzle, start, rng, 7)
    new = puzzle.own_solve(state, start, Control())
    assert new.stats.algorithm == "bidirectional BFS"
    assert_replays(puzzle, new, state, start)
    assert new.length == puzzle.solve_layers(state, start, Control()).length


def test_a_cancel_stops_between_chunks(monkeypatch):
    """A cancel is looked at after every chunk of a layer: with one-code chunks the search
    stops at the first look after the flag goes up, long before the answer."""
    monkeypatch.setattr(dense, "CHUNK", 1)
    puzzle = get_puzzle("flip-it-12")
    looks = []

    def cancelled() -> bool:
        looks.append(1)
        return len(looks) > 50

    start = puzzle.initial()
    with pytest.raises(Cancelled):
        puzzle.own_solve(start, start, Control(cancelled=cancelled))
    assert len(looks) == 51


def test_no_path_is_none_and_a_start_at_the_goal_is_itself():
    puzzle = get_puzzle("flip-it-4")
    meter = Meter("test")
    source = puzzle.encode("_BBB")
    target = puzzle.encode("_WWW")
    assert dense_path(puzzle.space_size, puzzle.expand_codes, source, target, meter) is None
    mirror = puzzle.mirror_packed
    assert dense_path(puzzle.space_size, puzzle.expand_codes, source, target, meter,
                      mirror) is None
    assert dense_path(puzzle.space_size, puzzle.expand_codes, 5, 5, meter) == [5]


def test_the_mirror_meets_where_the_images_are_known():
    puzzle = get_puzzle("flip-it-7")
    start = "_BBBBBB"
    codes = dense_path(puzzle.space_size, puzzle.expand_codes, puzzle.encode(start),
                       puzzle.encode("_WWWWWW"), Meter("test"), puzzle.mirror_packed)
    assert codes is not None and puzzle.decode(codes[-1]) == "_WWWWWW"
    assert len(codes) - 1 == bfs(puzzle, start, start).length
    steps = [puzzle.expand_codes(np.array([a], dtype=np.int64)) for a in codes[:-1]]
    assert all(b in around for b, around in zip(codes[1:], steps, strict=True))
