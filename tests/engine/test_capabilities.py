"""Every registered puzzle's declared capabilities agree with what it really implements: each
flag's hook is overridden exactly when the flag is set, and works (predecessors invert moves,
heuristics are admissible, perfect indexes and packed codes round-trip and expand like the
rules, random starts are legal positions)."""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np
import pytest
from line_checks import random_walk

from kaeru.engine.puzzles.registry import all_ids, families, get_puzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BadInput, Capabilities, GoalKind, Puzzle
from kaeru.engine.search.bfs import bfs

IDS = all_ids()
HOOKS = {  # capability -> the method it lets callers call
    "own_solver": "own_solve",
    "own_enumerator": "own_enumerate",
    "dead_ends": "dead_end_check",
    "chains": "chains",
    "random_starts": "random_start",
    "tables": "tables_ready",
    "heuristic": "heuristic",
    "fewest_moves": "solve_fewest_moves",
}
STEPS = 12  # random moves from the start to a test position
NEAR = 5  # random moves from the goal for the heuristic check


def overrides(puzzle: Puzzle, method: str) -> bool:
    return getattr(type(puzzle), method) is not getattr(Puzzle, method)


def sample_states(puzzle: Puzzle, count: int = 4, seed: int = 0) -> list[Hashable]:
    rng = random.Random(seed)
    start = puzzle.initial()
    walks = [random_walk(puzzle, start, rng, rng.randrange(1, STEPS)) for _ in range(count)]
    return [start, *walks]


def test_every_registered_puzzle_declares_capabilities():
    for pid in IDS:
        assert isinstance(get_puzzle(pid).capabilities, Capabilities), pid


def test_packed_needs_reversible_and_reversible_implies_predecessors():
    with pytest.raises(ValueError, match="reversible"):
        Capabilities(packed=True)
    assert Capabilities(reversible=True).predecessors


def test_each_hook_is_there_exactly_when_declared():
    for pid in IDS:
        puzzle = get_puzzle(pid)
        caps = puzzle.capabilities
        for flag, method in HOOKS.items():
            assert getattr(caps, flag) == overrides(puzzle, method), f"{pid}: {flag}, {method}()"
        assert bool(caps.heuristics) == overrides(puzzle, "solve_with"), pid


def test_the_goal_kind_is_true():
    for pid in IDS:
        puzzle = get_puzzle(pid)
        start = puzzle.initial()
        if puzzle.capabilities.goal is GoalKind.STATE:
            goal = puzzle.goal(start)
            assert goal is not None and puzzle.is_goal(goal, start), pid
        else:
            assert overrides(puzzle, "is_goal"), pid


@pytest.mark.parametrize("family", [f.key for f in families()])
def test_predecessors_invert_moves_where_declared(family):
    for pid in next(f for f in families() if f.key == family).ids:
        check_predecessors(get_puzzle(pid))


def check_predecessors(puzzle: Puzzle) -> None:
    pid, caps = puzzle.id, puzzle.capabilities
    for state in sample_states(puzzle):
        children = [(move, puzzle.apply(state, move)) for move in puzzle.moves(state)]
        if not caps.predecessors:
            with pytest.raises(NotImplementedError):
                list(puzzle.predecessors(state))
            continue
        for before, move in puzzle.predecessors(state):
            assert move in list(puzzle.moves(before)) and puzzle.apply(before, move) == state
        for move, child in children:  # every way in is listed
            assert (state, move) in list(puzzle.predecessors(child)), pid
            if caps.reversible:
                assert any(puzzle.apply(child, back) == state for back in puzzle.moves(child))


@pytest.mark.parametrize("pid", [p for p in IDS if get_puzzle(p).capabilities.heuristic])
def test_heuristics_are_admissible_near_the_goal(pid):
    puzzle = get_puzzle(pid)
    start = puzzle.initial()
    goal = puzzle.goal(start)
    assert goal is not None and puzzle.heuristic(goal, start) == 0
    rng = random.Random(7)
    for _ in range(6):
        state = random_walk(puzzle, goal, rng, rng.randrange(1, NEAR + 1))
        distance = bfs(puzzle, state, start, Control(budget=200_000)).length
        value = puzzle.heuristic(state, start)
        assert isinstance(value, int) and 0 <= value <= distance, (pid, state)


@pytest.mark.parametrize("pid", [p for p in IDS if get_puzzle(p).capabilities.perfect_index])
def test_perfect_indexes_round_trip_and_expand_like_the_rules(pid):
    puzzle = get_puzzle(pid)
    coded: object = puzzle
    for state in sample_states(puzzle):
        code = coded.encode(state)  # type: ignore[attr-defined]
        assert 0 <= code < coded.space_size  # type: ignore[attr-defined]
        assert coded.decode(code) == state  # type: ignore[attr-defined]
        children = {coded.encode(puzzle.apply(state, m)) for m in puzzle.moves(state)}  # type: ignore[attr-defined]
        expanded = coded.expand_codes(np.array([code], dtype=np.int64))  # type: ignore[attr-defined]
        assert set(int(c) for c in expanded) == children


@pytest.mark.parametrize("pid", [p for p in IDS if get_puzzle(p).capabilities.packed])
def test_packed_codes_round_trip_and_list_neighbours(pid):
    puzzle = get_puzzle(pid)
    packed: object = puzzle
    for state in sample_states(puzzle):
        code = packed.pack(state)  # type: ignore[attr-defined]
        assert 0 <= code < 2**62 and packed.unpack(code) == state  # type: ignore[attr-defined]
        children = {packed.pack(puzzle.apply(state, m)) for m in puzzle.moves(state)}  # type: ignore[attr-defined]
        around = packed.neighbours_packed(np.array([code], dtype=np.int64))  # type: ignore[attr-defined]
        assert set(int(c) for c in around) == children


@pytest.mark.parametrize(
    "pid", [f.ids[0] for f in families() if get_puzzle(f.ids[0]).capabilities.random_starts]
)
def test_random_starts_are_legal_positions(pid):
    puzzle = get_puzzle(pid)
    try:
        start = puzzle.random_start(random.Random(5))
    except BadInput as refused:  # a clean refusal (too many positions to draw from fairly)
        assert "\n" not in str(refused)
        return
    assert puzzle.parse(puzzle.format(start)) == start
    assert puzzle.unsolvable_reason(start, start) is None


@pytest.mark.parametrize("pid", [p for p in IDS if get_puzzle(p).capabilities.chains])
def test_chains_cover_every_move(pid):
    puzzle = get_puzzle(pid)
    state = puzzle.initial()
    moves = []
    rng = random.Random(3)
    for _ in range(4):
        legal = list(puzzle.moves(state))
        if not legal:
            break
        moves.append(rng.choice(legal))
        state = puzzle.apply(state, moves[-1])
    chains = puzzle.chains(moves)
    assert 0 < len(chains) <= len(moves) or not moves
    assert sum(chain.count("-") for chain in chains) == len(moves)
