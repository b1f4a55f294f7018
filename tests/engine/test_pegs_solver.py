"""The peg solver: published games solved and replayed, every classic shape and single-vacancy
class, the French central game refused at once, verdicts checked against exhaustive search, the
lost-position check, cancel and budget."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.pegs.boards import english, french, triangle
from kaeru.engine.pegs.pagoda import PagodaTest, library
from kaeru.engine.pegs.position_class import class_reason, single_peg_holes
from kaeru.engine.pegs.shapes import SHAPES
from kaeru.engine.pegs.solver import PegSolver
from kaeru.engine.puzzles.pegs import FAMILY, make_pegs
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BudgetExceeded, Cancelled, Unsolvable
from kaeru.engine.search import dispatch

ENGLISH_CLASSES = ("c1", "d1", "c2", "d2", "c3", "d3", "d4")


def replay(puzzle, start, solution) -> None:
    """The solution is legal jump by jump and ends in the goal."""
    state = start
    assert solution.states[0] == start
    for move, after in zip(solution.moves, solution.states[1:], strict=True):
        assert move in puzzle.moves(state)
        state = puzzle.apply(state, move)
        assert state == after
    assert puzzle.is_goal(state, start)
    assert solution.length == start.bit_count() - 1  # one peg goes with every jump
    assert solution.optimal


def test_central_game_solved_and_replayed():
    puzzle = make_pegs("pegs-english")
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    replay(puzzle, start, solution)
    assert solution.length == 31
    assert solution.states[-1] == 1 << english().hole("d4")
    chains = puzzle.chains(solution.moves)
    assert 18 <= len(chains) <= 31  # 18 moves is the proven minimum (Bergholt 1912)
    extra = dict(solution.stats.extra)
    assert {"memo", "dead pruned", "pagoda cuts"} <= set(extra)
    assert solution.stats.expanded > 0


def test_the_seeds_t():
    puzzle = get_puzzle("pegs-english-t")
    start = puzzle.parse("... ... ....... ..ooo.. ...o... .o. ...")
    solution = dispatch.solve(puzzle, start, start)
    replay(puzzle, start, solution)
    assert solution.length == 4


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_classic_shape_finishes_in_the_centre(shape):
    puzzle = get_puzzle(f"pegs-english-{shape}")
    start = puzzle.initial()
    replay(puzzle, start, dispatch.solve(puzzle, start, start))


@pytest.mark.parametrize("hole", ENGLISH_CLASSES)
def test_english_single_vacancy_classes_finish_in_the_same_hole(hole):
    puzzle = make_pegs(f"pegs-english-{hole}" if hole != "d4" else "pegs-english")
    start = puzzle.initial()
    assert puzzle.goal_hole == english().hole(hole)
    replay(puzzle, start, dispatch.solve(puzzle, start, start))


@pytest.mark.parametrize("hole", english().names)
def test_every_english_single_vacancy_finishes_in_the_same_hole(hole):
    puzzle = make_pegs(f"pegs-english-{hole}")
    start = puzzle.initial()
    replay(puzzle, start, dispatch.solve(puzzle, start, start))


def test_french_central_game_is_refused_at_once_with_the_reason():
    puzzle = get_puzzle("pegs-french")
    start = puzzle.initial()
    reason = puzzle.unsolvable_reason(start, start)
    assert reason is not None and "position-class" in reason
    with pytest.raises(Unsolvable) as caught:
        dispatch.solve(puzzle, start, start)
    assert "position-class" in caught.value.reason
    assert caught.value.stats is not None and caught.value.stats.expanded == 0  # no search
    assert "position-class" in (dispatch.dead_end(puzzle, start, start) or "")


@pytest.mark.slow  # 2-4 s each on 2 cores: kept out of the default run's 5-minute budget
@pytest.mark.parametrize("vacancy", ["c1", "d2", "d3"])
def test_french_single_vacancy_games_offered_can_be_won(vacancy):
    puzzle = make_pegs(f"pegs-french-{vacancy}")
    assert puzzle.goal_hole is None and f"pegs-french-{vacancy}" in FAMILY.ids
    start = puzzle.initial()
    replay(puzzle, start, dispatch.solve(puzzle, start, start))


def test_a_game_found_backwards_replays_forwards():
    """d2 to a3 is found as a3 to d2 played backwards (far cheaper); it must replay as d2 to a3."""
    puzzle = make_pegs("pegs-french-d2@a3")
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    replay(puzzle, start, solution)
    assert solution.states[-1] == 1 << french().hole("a3")


def test_french_vacancies_without_a_lone_survivor_are_refused_at_once():
    geometry = french()
    refused = []
    for hole in geometry.names:
        puzzle = make_pegs(f"pegs-french-{hole}")
        if puzzle.unsolvable_reason(puzzle.initial(), puzzle.initial()) is not None:
            refused.append(hole)
    # d1, b2, c2, c3 and d4 and their images: 21 of the 37 holes
    assert len(refused) == 21 and {"d1", "b2", "c2", "c3", "d4"} <= set(refused)
    assert not {"c1", "d2", "d3"} & set(refused)


@pytest.mark.slow
@pytest.mark.parametrize("vacancy", ["c1", "d2", "d3"])
def test_every_french_finish_the_position_classes_allow_is_reached(vacancy):
    """From c1, d2 and d3 every finish the position classes allow can be won (up to symmetry)."""
    geometry = french()
    start = geometry.full & ~(1 << geometry.hole(vacancy))
    fixing = [p for p in geometry.symmetries if p[geometry.hole(vacancy)] == geometry.hole(vacancy)]
    finishes = []
    for hole in single_peg_holes(geometry, start):
        if all(p[hole] not in finishes for p in fixing):
            finishes.append(hole)
    assert len(finishes) in (3, 4)
    for hole in finishes:
        puzzle = make_pegs(f"pegs-french-{vacancy}@{geometry.names[hole]}")
        replay(puzzle, start, dispatch.solve(puzzle, start, start))


# ---- verdicts against exhaustive search --------------------------------------------------------
def brute_force(geometry, goal):
    """Whether a position can end as one peg (in `goal`, or anywhere): plain memoised recursion."""

    @cache
    def winnable(state: int) -> bool:
        if state.bit_count() == 1:
            return goal is None or state == 1 << goal
        for a, b, c in geometry.jumps:
            if state >> a & 1 and state >> b & 1 and not state >> c & 1:
                if winnable(state & ~(1 << a) & ~(1 << b) | (1 << c)):
                    return True
        return False

    return winnable


@pytest.mark.parametrize("goal", [None, *range(15)])
def test_triangle_verdicts_match_exhaustive_search(goal):
    geometry = triangle()
    truth = brute_force(geometry, goal)
    solver = PegSolver(geometry, goal)
    for vacancy in range(15):
        start = geometry.full & ~(1 << vacancy)
        found = solver.solve(start)
        assert (found is not None) == truth(start), (vacancy, goal)
        if found is not None:
            state = start
            for j in found:
                assert state >> geometry.jumps[j][0] & 1
                state ^= (1 << geometry.jumps[j][0]) | (1 << geometry.jumps[j][1]) | (
                    1 << geometry.jumps[j][2])
            assert state.bit_count() == 1 and (goal is None or state == 1 << goal)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**33 - 1), st.sampled_from([None, 16, 0, 3, 9]), st.booleans())
def test_english_verdicts_match_exhaustive_search(bits, goal, pagodas):
    geometry = english()
    rng = random.Random(bits)
    state = 0
    for hole in rng.sample(range(33), rng.randint(2, 9)):  # small positions: brute force is quick
        state |= 1 << hole
    solver = PegSolver(geometry, goal, use_pagodas=pagodas, use_symmetry=not pagodas)
    assert (solver.solve(state) is not None) == brute_force(geometry, goal)(state)


def test_hint_keeps_the_position_winnable():
    puzzle = make_pegs("pegs-english")
    state = puzzle.initial()
    for _ in range(10):  # follow hints: each leaves a winnable position
        move = dispatch.solve(puzzle, state, puzzle.initial()).moves[0]
        state = puzzle.apply(state, move)
        assert dispatch.dead_end(puzzle, state, puzzle.initial()) is None


# ---- the lost-position check -------------------------------------------------------------------
def test_dead_end_check_reasons():
    puzzle = make_pegs("pegs-english-t")
    start = puzzle.initial()
    board = puzzle.geometry
    h = board.hole
    lost = puzzle.apply(start, (h("d5"), h("d6"), h("d7")))
    reason = dispatch.dead_end(puzzle, lost, start)
    assert "no sequence of jumps from here leaves one peg in d4" in reason
    stuck = puzzle.apply(start, (h("d5"), h("d4"), h("d3")))
    assert "no jump is possible and 4 pegs are left" in dispatch.dead_end(puzzle, stuck, start)
    off_lattice = (1 << h("c1")) | (1 << h("e1"))  # the right position class, though
    reason = dispatch.dead_end(puzzle, off_lattice, start)
    assert reason.startswith("no peg is left on d2, b4, d4, f4, d6")
    assert dispatch.dead_end(puzzle, start, start) is None


def test_dead_end_check_names_a_pagoda_function():
    puzzle = make_pegs("pegs-english")
    test = PagodaTest(puzzle.geometry, 16, library(puzzle.geometry))
    rng = random.Random(4)
    for _ in range(20000):
        state = rng.getrandbits(33) | (1 << rng.randrange(33))
        verdict = test.verdict(state)
        if verdict is not None and not verdict.sublattice and puzzle.moves(state):
            if class_reason(puzzle.geometry, state, 16) is None:
                break
    else:
        pytest.fail("no position ruled out by a weighted pagoda function found")
    reason = dispatch.dead_end(puzzle, state, puzzle.initial())
    assert reason.startswith("a pagoda function rules it out")
    assert f"which is {verdict.value} here, but one peg in d4 weighs {verdict.need}" in reason


def test_dead_end_check_can_be_cancelled_and_solve_keeps_its_budget():
    puzzle = make_pegs("pegs-english-d1")
    start = puzzle.initial()
    with pytest.raises(Cancelled):
        dispatch.dead_end(puzzle, start, start, Control(cancelled=lambda: True))
    with pytest.raises(BudgetExceeded):
        dispatch.solve(make_pegs("pegs-english-d1"), start, start, Control(budget=1000))
    assert dispatch.dead_end(make_pegs("pegs-english-d1"), start, start) is None
