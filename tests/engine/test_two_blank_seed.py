"""Seed 002's published figures for the two-blank puzzles, and where the page's table is wrong."""

from __future__ import annotations

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.search import dispatch
from kaeru.engine.two_blank.problems import ProblemSet
from kaeru.engine.two_blank.survey import PAIR_AT_END

SEVEN = get_puzzle("two-blank-3x3")
TEN = get_puzzle("two-blank-4x3")
FOURTEEN = get_puzzle("two-blank-4x4")

# The 10-puzzle's per-depth table as printed on the page: depth -> (positions, pair at the end).
PAGE_TABLE = {
    0: (1, 1), 1: (2, 0), 2: (4, 0), 3: (8, 0), 4: (16, 2), 5: (20, 0), 6: (39, 8), 7: (60, 0),
    8: (107, 24), 9: (124, 0), 10: (210, 40), 11: (248, 0), 12: (418, 76), 13: (489, 0),
    14: (793, 144), 15: (890, 0), 16: (1407, 297), 17: (1453, 0), 18: (2131, 423), 19: (2037, 0),
    20: (2854, 534), 21: (2557, 0), 22: (3321, 670), 23: (2650, 0), 24: (3082, 631),
    25: (2075, 0), 26: (2189, 441), 27: (1254, 0), 28: (1075, 229), 29: (430, 0), 30: (297, 67),
    31: (41, 0), 32: (52, 12), 33: (12, 0), 34: (4, 3),
}  # fmt: skip


def goal_enumeration(puzzle):
    return dispatch.enumerate_space(puzzle, puzzle.goal(puzzle.initial()))


def test_published_totals_for_7_and_10_and_14_by_formula():
    assert goal_enumeration(SEVEN).positions == 360
    assert goal_enumeration(TEN).positions == 32_400
    # 5!/2 · 2!/2 · 6, 5!/2 · 5!/2 · 9 and 7!/2 · 7!/2 · 12: the page's formulas.
    assert SEVEN.space_size == 60 * 1 * 6 == 360
    assert TEN.space_size == 60 * 60 * 9 == 32_400
    assert FOURTEEN.space_size == 2520 * 2520 * 12 == 76_204_800


def test_ten_puzzle_has_3600_problems_and_farthest_depth_34():
    found = goal_enumeration(TEN)
    assert sum(found.series[PAIR_AT_END]) == 3_600
    assert found.max_depth == 34
    assert found.histogram[-1] == 4
    assert len(found.farthest) == 4


def test_pair_at_the_end_only_at_even_depths_and_odd_even_split():
    """The page: pair-at-the-end positions all lie at even depths; odd depths hold 14,400
    positions and even ones 18,000."""
    found = goal_enumeration(TEN)
    pair = found.series[PAIR_AT_END]
    assert all(n == 0 for n in pair[1::2])
    assert sum(found.histogram[1::2]) == 14_400
    assert sum(found.histogram[0::2]) == 18_000


def test_where_the_page_table_differs_from_the_computed_one():
    """The page's table sums to 32,350, not its own 32,400; its pair column sums to 3,602, not
    3,600. Exactly two entries differ from the search: depth 31 (41 printed, 91 true) and the
    pair count at depth 10 (40 printed, 38 true). Everything else matches."""
    found = goal_enumeration(TEN)
    assert sum(p for p, _ in PAGE_TABLE.values()) == 32_350
    assert sum(e for _, e in PAGE_TABLE.values()) == 3_602
    assert len(found.histogram) == len(PAGE_TABLE)
    positions_differ = {
        d: (printed, found.histogram[d])
        for d, (printed, _) in PAGE_TABLE.items()
        if printed != found.histogram[d]
    }
    pairs_differ = {
        d: (printed, found.series[PAIR_AT_END][d])
        for d, (_, printed) in PAGE_TABLE.items()
        if printed != found.series[PAIR_AT_END][d]
    }
    assert positions_differ == {31: (41, 91)}
    assert pairs_differ == {10: (40, 38)}


def test_the_eight_move_figure_replays_and_is_optimal():
    """The page's figure: '7, 10 down', '4 right', ... '10 left' from 1832/54710/96__."""
    start = TEN.parse("1 8 3 2/5 4 7 10/9 6 _ _")
    assert start == TEN.initial()
    published = [
        ("down", (7, 10)), ("right", (4,)), ("down", (8, 3)), ("left", (2,)),
        ("up", (3, 4)), ("right", (8,)), ("up", (6, 7)), ("left", (10,)),
    ]  # fmt: skip
    state = start
    for move in published:
        assert move in TEN.moves(state), TEN.describe(move)
        state = TEN.apply(state, move)
    assert state == TEN.goal(start)
    assert dispatch.solve(TEN, start, start).length == 8


def test_the_problem_record_line_of_the_page():
    """`16329a5478__:8:9|8|4|5|1|2|6|10`: the position, its depth, and the left empty cell
    after each move of a solution (cells 0-11)."""
    start = TEN.parse("16329a5478__")
    assert TEN.format(start) == "1 6 3 2/9 10 5 4/7 8 _ _"
    assert TEN.distance(start) == 8
    state = start
    for cell in (9, 8, 4, 5, 1, 2, 6, 10):
        nexts = [TEN.apply(state, m) for m in TEN.moves(state)]
        (state,) = [s for s in nexts if s.index(0) == cell]
    assert state == TEN.goal(start)
    problems = ProblemSet(TEN.index, TEN.depth_table())
    record = problems.record(TEN.depth_table(), start)
    assert record.startswith("16329a5478__:8:") and record.endswith("|10")


def test_seven_puzzle_tiles_2_and_5_never_leave_the_middle_column():
    """The page: on 3×3 the middle column's two tiles stay put in every problem."""
    table = SEVEN.depth_table()
    for code in range(SEVEN.space_size):
        state = SEVEN.index.decode(code)
        middle = [state[c] for c in (1, 4, 7) if state[c]]
        assert middle == [2, 5]
    assert table.size == 360
