"""The generic searches agree with each other (BFS, bidirectional BFS, A*, IDA*, the numpy layered
search, enumeration three ways, the numpy depth table), the dispatcher picks them from declared
capabilities, and every search reports progress, stops on cancel and on the budget of its
Control, and proves unsolvable starts."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_checks import assert_replays, distances, random_walk

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import CHECK_EVERY, Control, Meter
from kaeru.engine.rules.protocol import (
    BadInput,
    BudgetExceeded,
    Cancelled,
    Capabilities,
    Puzzle,
    SearchStats,
    Unsolvable,
)
from kaeru.engine.search import dispatch
from kaeru.engine.search.astar import astar, ida_star
from kaeru.engine.search.bfs import bfs
from kaeru.engine.search.bidirectional import bidirectional_bfs
from kaeru.engine.search.enumerate import enumerate_bfs
from kaeru.engine.search.packed import CHUNK, enumerate_packed, solve_packed
from kaeru.engine.tables.coded import enumerate_codes
from kaeru.engine.tables.dense import UNREACHED, dense_bfs


class Plain(Puzzle):
    """Only the required core of a reversible puzzle (and its goal): no codes, no packing, no
    solver of its own, no heuristic, so the generic code paths run. Counts the work done."""

    capabilities = Capabilities(reversible=True)

    def __init__(self, inner: Puzzle) -> None:
        self.inner = inner
        self.id, self.title, self.family = inner.id, inner.title, inner.family
        self.expansions = 0  # calls to moves()

    def initial(self) -> Hashable:
        return self.inner.initial()

    def moves(self, state: Hashable) -> list:
        self.expansions += 1
        return list(self.inner.moves(state))

    def apply(self, state: Hashable, move: Hashable) -> Hashable:
        return self.inner.apply(state, move)

    def parse(self, text: str) -> Hashable:
        return self.inner.parse(text)

    def format(self, state: Hashable) -> str:
        return self.inner.format(state)

    def describe(self, move: Hashable) -> str:
        return self.inner.describe(move)

    def goal(self, start: Hashable) -> Hashable:
        return self.inner.goal(start)


class OneWay(Plain):
    """A Plain puzzle declaring no way back: only the forward BFS may run."""

    capabilities = Capabilities()


def packed_variants(puzzle: Puzzle) -> dict[str, Callable]:
    """The numpy layered search three ways: mirror trick, two-sided, one-sided plain BFS."""
    return {
        "mirror": lambda s, t: solve_packed(puzzle, s, t, mirror=puzzle.mirror_packed),
        "two-sided": lambda s, t: solve_packed(puzzle, s, t),
        "one-sided": lambda s, t: solve_packed(puzzle, s, t, two_sided=False),
    }


# ---- lengths agree -------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["flip-it-6", "flip-it-7", "number-reversal-6", "oshidori", "oshidori-bw",
                     "frogs-3"]),
    st.integers(0, 25),
    st.integers(0, 25),
    st.randoms(use_true_random=False),
)
def test_every_search_finds_the_same_length(pid, start_steps, steps, rng):
    puzzle = get_puzzle(pid)
    start = random_walk(puzzle, puzzle.initial(), rng, start_steps)
    if pid.startswith("frogs"):
        start = puzzle.initial()  # frogs never return: only the initial start is a real game
    state = random_walk(puzzle, start, rng, steps)
    try:
        expected = bfs(puzzle, state, start)
    except Unsolvable:
        with pytest.raises(Unsolvable):
            bidirectional_bfs(puzzle, state, start)
        return
    found = {"bidirectional": bidirectional_bfs(puzzle, state, start),
             "default": dispatch.solve(puzzle, state, start)}
    if puzzle.capabilities.packed:
        found.update({k: solve(state, start) for k, solve in packed_variants(puzzle).items()})
    if puzzle.capabilities.heuristic:
        found["A*"] = astar(puzzle, state, start)
        found["IDA*"] = ida_star(puzzle, state, start)
    for name, solution in found.items():
        assert solution.length == expected.length, name
        assert solution.optimal
        assert_replays(puzzle, solution, state, start)


@pytest.mark.parametrize("pid", ["flip-it-8", "number-reversal-7"])
def test_the_mirror_trick_is_used_only_where_it_applies(pid):
    puzzle = get_puzzle(pid)
    start = puzzle.initial()
    assert dispatch.solve(puzzle, start, start).stats.algorithm.endswith("bidirectional BFS")
    assert "mirror" in solve_packed(puzzle, start, start, mirror=puzzle.mirror_packed,
                                    mirror_name="mirror").stats.algorithm
    later = random_walk(puzzle, start, random.Random(3), 5)
    assert dispatch.solve(puzzle, later, start).stats.algorithm == "bidirectional BFS"


def test_the_goal_itself_needs_no_moves():
    for pid in ("flip-it-6", "number-reversal-6", "oshidori", "frogs-2"):
        puzzle = get_puzzle(pid)
        start = puzzle.initial()
        goal = puzzle.goal(start)
        runs = [bfs(puzzle, goal, start), bidirectional_bfs(puzzle, goal, start),
                dispatch.solve(puzzle, goal, start)]
        for solution in runs:
            assert solution.moves == () and solution.states == (goal,)


def test_the_generic_choice_follows_capabilities():
    reversal = get_puzzle("number-reversal-6")
    start = reversal.initial()
    assert dispatch.solve_generic(reversal, start, start).stats.algorithm == "A*"
    frogs = get_puzzle("frogs-3")  # not reversible, but declares predecessors
    assert dispatch.solve(frogs, "BBB_WWW", "BBB_WWW").stats.algorithm == "bidirectional BFS"
    one_way = OneWay(get_puzzle("flip-it-6"))
    assert dispatch.solve(one_way, "_BBBBB", "_BBBBB").stats.algorithm == "BFS"
    both_ways = Plain(get_puzzle("flip-it-6"))
    assert dispatch.solve(both_ways, "_BBBBB", "_BBBBB").stats.algorithm == "bidirectional BFS"


def test_the_dispatcher_calls_a_declared_solver_and_only_then():
    class OwnSolver(Plain):
        capabilities = Capabilities(reversible=True, own_solver=True, own_enumerator=True)

        def own_solve(self, state, start, control):
            return bfs(self.inner, state, start, control)

        def own_enumerate(self, root, control):
            raise LookupError("own enumeration called")

    puzzle = OwnSolver(get_puzzle("flip-it-6"))
    assert dispatch.solve(puzzle, "_BBBBB", "_BBBBB").stats.algorithm == "BFS"
    with pytest.raises(LookupError):
        dispatch.enumerate_space(puzzle, "_BBBBB")
    assert dispatch.enumerate_space(Plain(puzzle.inner), "_BBBBB").stats.algorithm == (
        "BFS enumeration"
    )


def test_dead_ends_are_asked_only_where_declared():
    pegs = get_puzzle("pegs-english")
    lost = 1 << pegs.geometry.names.index("d1")  # one peg, not in the centre
    assert dispatch.dead_end(pegs, lost, pegs.initial())
    assert dispatch.dead_end(get_puzzle("flip-it-4"), "_BBB", "_BBB") is None  # not declared


def test_a_heuristic_is_chosen_by_name_where_offered():
    sliding = get_puzzle("sliding-3x3")
    goal = sliding.goal(sliding.initial())
    state = sliding.apply(goal, next(iter(sliding.moves(goal))))
    assert dispatch.solve(sliding, state, state, heuristic=sliding.capabilities.heuristics[1]
                          ).length == 1
    with pytest.raises(BadInput, match="unknown heuristic"):
        dispatch.solve(sliding, state, state, heuristic="tea leaves")
    with pytest.raises(BadInput, match="offered: none"):
        dispatch.solve(get_puzzle("frogs-2"), "BB_WW", "BB_WW", heuristic="anything")


def test_a_known_reason_is_reported_without_searching():
    class Hopeless(Plain):
        def unsolvable_reason(self, state: Hashable, start: Hashable) -> str | None:
            return "parity says no"

    puzzle = Hopeless(get_puzzle("flip-it-6"))
    with pytest.raises(Unsolvable, match="parity says no"):
        dispatch.solve_generic(puzzle, "_BBBBB", "_BBBBB")
    assert puzzle.expansions == 0


# ---- enumeration agrees --------------------------------------------------------------------------
@pytest.mark.parametrize("pid", ["flip-it-5", "flip-it-8", "number-reversal-6", "oshidori"])
def test_enumeration_three_ways(pid):
    puzzle = get_puzzle(pid)
    root = puzzle.initial()
    generic = dispatch.enumerate_space(Plain(puzzle), root)
    assert generic.stats.algorithm == "BFS enumeration"
    runs = [dispatch.enumerate_space(puzzle, root), enumerate_bfs(puzzle, root)]
    if puzzle.capabilities.perfect_index:
        runs.append(enumerate_codes(puzzle, root))
    if puzzle.capabilities.packed:
        runs.append(enumerate_packed(puzzle, root))
    for run in runs:
        assert run.histogram == generic.histogram
        assert run.farthest == generic.farthest
        assert run.root == generic.root == puzzle.format(root)
    depth = distances(puzzle, root)
    assert generic.positions == len(depth) and generic.max_depth == max(depth.values())


def test_the_numpy_depth_table_holds_every_distance():
    puzzle = get_puzzle("flip-it-7")
    roots = ["_BBBBBB", "BBB_WBW"]
    table = dense_bfs(
        puzzle.space_size, np.array([puzzle.encode(r) for r in roots]), puzzle.expand_codes,
        Meter("test"),
    )
    first, second = (distances(puzzle, r) for r in roots)
    assert first.keys() == second.keys()
    for state in first:
        assert table[puzzle.encode(state)] == min(first[state], second[state])
    assert int((table != UNREACHED).sum()) == len(first)  # codes with the empty bit set stay out


# ---- progress ------------------------------------------------------------------------------------
def runs_on(puzzle_for: Callable[[str], Puzzle]) -> dict[str, Callable]:
    """Each search given its Control, on puzzles big enough for several checks."""
    flip9, flip12 = puzzle_for("flip-it-9"), get_puzzle("flip-it-12")
    rev7, rev8 = puzzle_for("number-reversal-7"), get_puzzle("number-reversal-8")
    s9, s12, r6, r7, r8 = "_" + "B" * 8, "_" + "B" * 11, "12345_", "123456_", "1234567_"
    return {
        "BFS": lambda c: bfs(flip9, s9, s9, c),
        "bidirectional": lambda c: bidirectional_bfs(flip9, s9, s9, c),
        "A*": lambda c: astar(get_puzzle("number-reversal-8"), r8, r8, c),
        "IDA*": lambda c: ida_star(get_puzzle("number-reversal-6"), r6, r6, c),
        "enumerate": lambda c: dispatch.enumerate_space(rev7, r7, c),
        "packed solve": lambda c: solve_packed(flip12, s12, s12, c),
        "packed one-sided": lambda c: solve_packed(flip12, s12, s12, c, two_sided=False),
        "packed enumerate": lambda c: enumerate_packed(rev8, r8, c),
    }


def plain(pid: str) -> Puzzle:
    return Plain(get_puzzle(pid))


@pytest.mark.parametrize("name", list(runs_on(plain)))
def test_progress_ends_with_the_final_figures(name):
    seen: list[SearchStats] = []
    result = runs_on(plain)[name](Control(progress=seen.append))
    assert seen and seen[-1] == result.stats
    assert seen[-1].generated > 0 and seen[-1].expanded > 0


@pytest.mark.parametrize("name", list(runs_on(plain)))
def test_progress_arrives_while_searching(name, monkeypatch):
    monkeypatch.setattr("kaeru.engine.rules.control.REPORT_INTERVAL", 0.0)  # report at every check
    seen: list[SearchStats] = []
    runs_on(plain)[name](Control(progress=seen.append))
    assert len(seen) >= 3
    counts = [s.generated for s in seen]
    assert counts == sorted(counts)
    assert all(s.algorithm == seen[-1].algorithm for s in seen)


def test_numpy_enumeration_reports_progress(monkeypatch):
    monkeypatch.setattr("kaeru.engine.rules.control.REPORT_INTERVAL", 0.0)
    seen: list[SearchStats] = []
    enumerate_codes(get_puzzle("flip-it-10"), "_" + "B" * 9, Control(progress=seen.append))
    assert len(seen) >= 3 and seen[-1].depth == 13


# ---- cancel and budget ---------------------------------------------------------------------------
class Polls:
    """A cancel check that says yes on its `at`-th call and notes the work done between calls."""

    def __init__(self, work: Callable[[], int], at: int = 4) -> None:
        self.work, self.at, self.calls = work, at, 0
        self.between: list[int] = []
        self._last = 0

    def __call__(self) -> bool:
        self.calls += 1
        done = self.work()
        self.between.append(done - self._last)
        self._last = done
        return self.calls >= self.at


@pytest.mark.parametrize("name", ["BFS", "bidirectional", "enumerate"])
def test_cancel_is_polled_every_few_hundred_positions(name):
    made: dict[str, Plain] = {}

    def counted(pid: str) -> Puzzle:
        made[pid] = Plain(get_puzzle(pid))
        return made[pid]

    run = runs_on(counted)[name]
    polls = Polls(lambda: sum(p.expansions for p in made.values()))
    with pytest.raises(Cancelled):
        run(Control(cancelled=polls))
    assert polls.calls == polls.at  # stopped at once when told
    per_expansion = 1 if name != "bidirectional" else 2 + 9  # predecessors() re-expands
    assert max(polls.between) <= (CHECK_EVERY + 1) * per_expansion


@pytest.mark.parametrize("name", ["packed solve", "packed one-sided", "packed enumerate"])
def test_numpy_searches_are_cancelled_between_chunks(name, monkeypatch):
    sizes: list[int] = []
    for pid in ("flip-it-12", "number-reversal-8"):
        puzzle = get_puzzle(pid)
        real = puzzle.neighbours_packed
        monkeypatch.setattr(puzzle, "neighbours_packed",
                            lambda codes, real=real: (sizes.append(codes.size), real(codes))[1])
    polls = Polls(lambda: sum(sizes))
    with pytest.raises(Cancelled):
        runs_on(plain)[name](Control(cancelled=polls))
    assert polls.calls == polls.at
    assert max(polls.between) <= CHUNK


@pytest.mark.parametrize("name", ["A*", "IDA*"])
def test_heuristic_searches_are_cancelled(name):
    polls = Polls(lambda: 0, at=2)
    with pytest.raises(Cancelled):
        runs_on(plain)[name](Control(cancelled=polls))
    assert polls.calls == 2


def test_numpy_enumeration_is_cancelled():
    with pytest.raises(Cancelled):
        enumerate_codes(get_puzzle("flip-it-12"), "_" + "B" * 11, Control(cancelled=lambda: True))


@pytest.mark.parametrize("name", list(runs_on(plain)))
def test_the_budget_stops_a_search(name):
    with pytest.raises(BudgetExceeded) as caught:
        runs_on(plain)[name](Control(budget=50))
    stats = caught.value.stats
    assert stats is not None and stats.generated > 50
    assert "budget" in str(caught.value) and "\n" not in str(caught.value)


# ---- unsolvable ----------------------------------------------------------------------------------
@pytest.mark.parametrize("start", ["_BBB", "B_BB", "BW_W", "WWB_"])
def test_every_search_proves_flip_it_4_unsolvable(start):
    puzzle = get_puzzle("flip-it-4")
    searches = [
        lambda: bfs(Plain(puzzle), start, start),
        lambda: bidirectional_bfs(Plain(puzzle), start, start),
        *(lambda solve=solve: solve(start, start) for solve in packed_variants(puzzle).values()),
    ]
    for search in searches:
        with pytest.raises(Unsolvable) as caught:
            search()
        assert caught.value.stats is not None and caught.value.reason
        assert "\n" not in caught.value.reason
