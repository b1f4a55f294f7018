"""The parity rule against brute force, and seed 003's shuffle: always solvable, uniform."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.puzzles.sliding import make_sliding
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.sliding.board.geometry import Grid, grid
from kaeru.engine.sliding.board.parity import is_solvable, unsolvable_reason
from kaeru.engine.sliding.board.shuffle import fisher_yates, parity_fix_cells, shuffle_solvable


def reachable(g: Grid) -> set[tuple[int, ...]]:
    """Every layout reachable from the goal, by a plain breadth-first search."""
    seen = {g.goal}
    layer = [g.goal]
    while layer:
        following = []
        for state in layer:
            for move in g.slides(state):
                child = g.slide(state, move)
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        layer = following
    return seen


@pytest.mark.parametrize(("w", "h"), [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)])
def test_parity_rule_matches_brute_force(w, h):
    g = grid(w, h)
    found = reachable(g)
    everything = set(permutations(range(g.cells)))
    assert len(found) == len(everything) // 2
    assert {s for s in everything if is_solvable(g, s)} == found


def test_unsolvable_reason_is_one_line_with_the_parity_argument():
    g = grid(3, 3)
    reason = unsolvable_reason(g, (1, 2, 3, 4, 5, 6, 8, 7, 0))
    assert reason is not None and "\n" not in reason
    assert "1 swap (odd)" in reason and "0 steps" in reason and "(even)" in reason
    assert unsolvable_reason(g, g.goal) is None


@pytest.mark.parametrize("puzzle_id", ["sliding-3x3", "sliding-4x4", "sliding-6x6"])
def test_an_unsolvable_layout_is_refused_at_once(puzzle_id):
    p = make_sliding(*map(int, puzzle_id.split("-")[1].split("x")))
    goal = p.grid.goal
    swapped = (goal[1], goal[0], *goal[2:])  # tiles 1 and 2 exchanged
    with pytest.raises(Unsolvable, match="unsolvable: sorting this layout takes 1 swap"):
        dispatch.solve(p, swapped, swapped, Control(cancelled=lambda: True))  # refused at once


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.integers(0, 2**32))
def test_shuffles_are_always_solvable_and_reproducible(w, h, seed):
    g = grid(w, h)
    state = shuffle_solvable(g, random.Random(seed))
    assert sorted(state) == list(range(g.cells))
    assert is_solvable(g, state)
    assert shuffle_solvable(g, random.Random(seed)) == state


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.integers(0, 2**32))
def test_fisher_yates_swap_count_gives_the_parity_and_the_fix_avoids_the_blank(w, h, seed):
    g = grid(w, h)
    cells, swaps = fisher_yates(g, random.Random(seed))
    inversions = sum(
        1 for i in range(len(cells)) for j in range(i + 1, len(cells))
        if (cells[i] or g.cells) > (cells[j] or g.cells)
    )
    assert swaps % 2 == inversions % 2  # both count the permutation's parity
    a, b = parity_fix_cells(g, cells)
    assert cells[a] != 0 and cells[b] != 0


def chi_square(counts: Counter, categories: int, draws: int) -> float:
    expected = draws / categories
    observed = [counts.get(k, 0) for k in range(categories)]
    return sum((o - expected) ** 2 / expected for o in observed)


def critical(df: int, z: float = 3.09) -> float:
    """Chi-square value exceeded with probability ~0.001 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def naive_shuffle(g: Grid, rng: random.Random) -> tuple[int, ...]:
    """A classic biased shuffle (swap every cell with any cell), then the parity fix."""
    cells = list(g.goal)
    for i in range(len(cells)):
        j = rng.randrange(len(cells))
        cells[i], cells[j] = cells[j], cells[i]
    if not is_solvable(g, tuple(cells)):
        a, b = parity_fix_cells(g, cells)
        cells[a], cells[b] = cells[b], cells[a]
    return tuple(cells)


@pytest.mark.parametrize(("w", "h", "draws"), [(2, 2, 12_000), (2, 3, 36_000)])
def test_shuffle_is_uniform_over_solvable_layouts(w, h, draws):
    g = grid(w, h)
    solvable = sorted(reachable(g))
    index = {s: i for i, s in enumerate(solvable)}
    rng = random.Random(2023)
    counts = Counter(index[shuffle_solvable(g, rng)] for _ in range(draws))
    assert len(counts) == len(solvable)
    assert chi_square(counts, len(solvable), draws) < critical(len(solvable) - 1)
    # the same test does notice a biased shuffle
    rng = random.Random(2023)
    biased = Counter(index[naive_shuffle(g, rng)] for _ in range(draws))
    assert chi_square(biased, len(solvable), draws) > critical(len(solvable) - 1)
