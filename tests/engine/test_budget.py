"""Budgets count the distinct positions a search holds, and by default follow the memory
available: the Meter's arithmetic, the packed search (Flip It) held to its positions rather
than its generated duplicates, and Flip It at 19 and 20 cells solved and enumerated (slow)."""

from __future__ import annotations

import pytest

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import (
    Control,
    Meter,
    memory_available,
    memory_budget,
)
from kaeru.engine.rules.results import DEFAULT_BUDGET, BudgetExceeded
from kaeru.engine.search import dispatch


def test_memory_available_is_read():
    assert memory_available() > 0


def test_memory_budget_is_the_share_over_the_bytes_each():
    cap = 64 * 3_000_000
    if memory_available() // 2 > cap:
        assert memory_budget(64, cap_bytes=cap) == 3_000_000
    assert memory_budget(10**12) == 1_000_000  # never below a million
    assert memory_budget(50) >= memory_budget(100)


def test_the_default_budget_follows_memory_and_a_chosen_one_stays():
    assert Control().budget == DEFAULT_BUDGET
    following = Control().budget_for(32)
    assert following is not None
    assert abs(following - memory_budget(32)) <= memory_budget(32) // 10  # memory moves a bit
    assert Control(budget=1234).budget_for(32) == 1234
    assert Control(budget=None).budget_for(32) is None
    assert Meter("x", Control(budget=99)).budget == 99


def test_the_budget_counts_positions_held_when_the_search_says():
    meter = Meter("x", Control(budget=10))
    meter.generated = 1_000  # duplicates generated do not count once `held` is set
    meter.held = 10
    meter.check()
    meter.held = 11
    with pytest.raises(BudgetExceeded, match="11 positions held"):
        meter.check()


def test_without_held_the_budget_counts_positions_generated():
    meter = Meter("x", Control(budget=10))
    meter.generated = 11
    with pytest.raises(BudgetExceeded, match="generated"):
        meter.check()


def test_packed_search_is_held_to_its_positions_not_its_duplicates():
    puzzle = get_puzzle("flip-it-12")
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start, Control(budget=60_000))
    assert solution.length == 15
    assert solution.stats.generated > 60_000  # the old count would have given up
    with pytest.raises(BudgetExceeded, match="held"):  # it holds 16,372 positions
        dispatch.solve(puzzle, start, start, Control(budget=10_000))


@pytest.mark.slow
@pytest.mark.parametrize(("size", "length"), [(19, 22), (20, 23)])
def test_flip_it_19_and_20_solve_and_enumerate_with_the_default_budget(size, length):
    puzzle = get_puzzle(f"flip-it-{size}")
    start = puzzle.initial()
    assert dispatch.solve(puzzle, start, start, Control()).length == length
    found = dispatch.enumerate_space(puzzle, start, Control())
    assert found.positions == size * 2 ** (size - 1)
