"""A peg-space enumeration honours a cancel within one bounded step: the work done between two
cancel checks, counted in codes handed to the numpy steps (children made, codes sorted,
canonicalised or sized), is capped by the step sizes, whatever the size of the layers.

The service's worker ends itself as stuck when a cancelled job runs on past STUCK_AFTER (1 s):
a merge or an orbit count over a whole layer (3.6 million classes on the English board) ran for
seconds between two checks and got the worker killed. Counted, not timed: the step sizes are
shrunk here so that a small space (the pyramid's, 42,449 classes) has layers far larger than
one step, and a step that grows with the layer shows at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaeru.engine.pegs import sorted_codes, space
from kaeru.engine.pegs.boards import english
from kaeru.engine.pegs.enumeration import enumerate_positions
from kaeru.engine.pegs.fewest_moves import fewest_move_solution
from kaeru.engine.pegs.shapes import shape_state
from kaeru.engine.rules.control import Control

STEP = 32  # parents expanded at once in this test (65,536 on the real board)
PIECE = 512  # codes per merge piece and per orbit-size chunk in this test
PYRAMID_WIDEST = 9_673  # classes in the pyramid space's widest layer


class WorkCounter:
    """Codes handed to the heavy numpy steps, per stretch between two cancel checks."""

    def __init__(self) -> None:
        self.since = 0
        self.stretches: list[int] = []

    def cancelled(self) -> bool:
        self.stretches.append(self.since)
        self.since = 0
        return False

    def counting_input(self, function: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        def counted(*args: Any) -> np.ndarray:
            self.since += int(args[-1].size)  # the codes: the last argument
            return function(*args)

        return counted

    def counting_output(self, function: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        def counted(*args: Any) -> np.ndarray:
            made = function(*args)
            self.since += int(made.size)
            return made

        return counted


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> WorkCounter:
    """Small steps, and every heavy step counted."""
    work = WorkCounter()
    monkeypatch.setattr(space, "PARENTS_PER_STEP", STEP)
    monkeypatch.setattr(space, "CLASSES_PER_CHECK", PIECE)
    monkeypatch.setattr(sorted_codes, "PIECE", PIECE)
    for module in (space, sorted_codes):
        monkeypatch.setattr(module, "sorted_unique", work.counting_input(module.sorted_unique))
    for name in ("canonical", "images", "orbit_sizes"):
        method = getattr(space.SymmetryTables, name)
        monkeypatch.setattr(space.SymmetryTables, name, work.counting_input(method))
    children = space.JumpTables.children
    monkeypatch.setattr(space.JumpTables, "children", work.counting_output(children))
    return work


def test_the_work_between_two_cancel_checks_is_bounded_by_the_steps(counter: WorkCounter):
    board = english()
    found = enumerate_positions(board, shape_state("pyramid"), Control(cancelled=counter.cancelled))
    assert max(found.series["classes up to symmetry"]) == PYRAMID_WIDEST
    counter.cancelled()  # the stretch after the last check
    # a step: STEP parents' children, sorted, canonicalised and sorted again; a merge piece or
    # an orbit chunk: about PIECE codes. About a thousand codes here, where a whole layer's
    # merge or orbit count (the old code's) is over ten thousand
    assert max(counter.stretches) <= PYRAMID_WIDEST // 4, sorted(counter.stretches)[-5:]
    assert len(counter.stretches) > 42_449 // STEP  # at least a check per step


def test_the_fewest_moves_sweeps_check_as_often(counter: WorkCounter):
    """Forward (the enumeration's steps), backward and move-count sweeps: a jump at a time."""
    board = english()
    control = Control(cancelled=counter.cancelled)
    jumps, _ = fewest_move_solution(board, shape_state("pyramid"), board.centre, control)
    counter.cancelled()
    assert jumps is not None
    assert max(counter.stretches) <= PYRAMID_WIDEST // 4, sorted(counter.stretches)[-5:]


@given(st.lists(st.lists(st.integers(0, 2**40), max_size=400), max_size=6))
def test_a_merge_in_pieces_is_the_sorted_union_checked_between_pieces(lists: list[list[int]]):
    parts = [np.unique(np.array(codes, dtype=np.uint64)) for codes in lists]
    checks = 0

    def check() -> None:
        nonlocal checks
        checks += 1

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sorted_codes, "PIECE", 64)
        merged = sorted_codes.merge_unique(parts, check)
    union = sorted(set().union(*lists))
    assert merged.dtype == np.uint64 and merged.tolist() == union
    if sum(1 for part in parts if part.size) > 1:
        assert checks >= sum(part.size for part in parts) // 128  # a check a piece or so
