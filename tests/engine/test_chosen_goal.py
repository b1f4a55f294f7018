"""A goal chosen apart from the start (`flip-it-7@_WWWWWW`, `knights-3x4@WWW/___/___/BBB`): the
explorer's farthest positions of Flip It and knights open as games towards the standard game's
goal, and such a game is named, saved, searched and solved towards that goal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from session_helpers import MemoryStore

from kaeru.engine.catalogue.explorable import count_to_goal, game_towards_goal, goal_of
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput, Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs
from kaeru.engine.service.execute import execute
from kaeru.engine.service.jobs import JobKind, JobRequest

GOAL_FOLLOWS_START = ("flip-it-5", "flip-it-6", "knights-3x3", "knights-3x4")


@pytest.mark.parametrize("puzzle_id", GOAL_FOLLOWS_START)
def test_a_farthest_position_opens_as_a_game_that_far_from_the_usual_goal(puzzle_id: str):
    """The issue's point: the game opened at a farthest position has the standard goal, and
    its optimal length (the session's quiet search) is the explorer's farthest distance."""
    puzzle = get_puzzle(puzzle_id)
    goal = goal_of(puzzle)
    counted = count_to_goal(puzzle)
    assert any(puzzle.goal(puzzle.parse(text)) != goal for text in counted.farthest[:2])
    for text in counted.farthest[:2]:
        position = puzzle.parse(text)
        elsewhere = puzzle.goal(position) != goal  # its own goal: its colours swapped
        game_id = game_towards_goal(puzzle, position)
        assert game_id.startswith(f"{puzzle_id}@") == elsewhere
        session = Session.from_game_id(game_id)
        assert session.start == position and session.game_id == game_id
        assert session.puzzle.goal(session.start) == goal
        session.find_optimal_length()
        assert session.outcome().optimal == counted.max_depth, (puzzle_id, text)


def test_a_position_whose_own_goal_is_the_usual_one_keeps_its_plain_id():
    frogs = get_puzzle("frogs-3")
    position = frogs.parse(count_to_goal(frogs).farthest[0])
    assert game_towards_goal(frogs, position) == frogs.game_id(position)


def test_the_game_is_won_at_the_chosen_goal_not_at_the_start_s_swap():
    session = Session.from_game_id("flip-it-7@_WWWWWW:WBW_BBW", store=MemoryStore())
    session.solve()  # the inline searcher answers at once, and playback begins
    assert session.playback is not None
    solution = session.playback.solution
    assert solution.states[-1] == "_WWWWWW" and solution.optimal
    assert solution.length == bfs(session.puzzle, "WBW_BBW", "WBW_BBW").length
    session.leave_playback()
    for move in solution.moves:
        assert not session.solved
        session.push(move)
    assert session.solved and session.outcome().status == "won"


def test_the_game_is_saved_and_restored_with_its_goal():
    store = MemoryStore()
    session = Session.from_game_id("knights-3x4@WWW/___/___/BBB:BWB/___/___/WBW", store=store)
    session.push(session.legal_moves()[0])
    (saved,) = store.games.values()
    restored = Session.from_saved(saved)
    assert restored.puzzle.id == "knights-3x4@WWW/___/___/BBB"
    assert restored.puzzle.goal(restored.start) == "WWW______BBB"
    assert restored.state == session.state and restored.history == session.history


def test_the_search_service_job_names_the_goal_by_the_puzzle_id():
    """A job crosses to the worker process as text: the puzzle id carries the goal."""
    request = JobRequest(
        JobKind.SOLVE, "knights-3x4@WWW/___/___/BBB", "BWB/___/___/WBW", "BWB/___/___/WBW"
    )
    result = execute(request, None, lambda: False)
    assert result.outcome == "done" and result.solution is not None
    assert result.solution.states[-1] == "WWW______BBB"
    plain = execute(JobRequest(JobKind.SOLVE, "knights-3x4", request.state, request.start),
                    None, lambda: False)
    assert plain.solution is not None and plain.solution.states[-1] == "WBW______BWB"


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(5, 8),
    data=st.data(),
)
def test_flip_it_is_optimal_towards_any_chosen_goal(size: int, data: st.DataObject):
    """Optimal on any legal input: the colour-swap trick does not apply between a start and
    a chosen goal, so the two-sided search must answer as plain BFS does."""

    def layout() -> str:
        cells = data.draw(st.lists(st.sampled_from("BW"), min_size=size - 1, max_size=size - 1))
        cells.insert(data.draw(st.integers(0, size - 1)), "_")
        return "".join(cells)

    start, goal = layout(), layout()
    chosen = get_puzzle(f"flip-it-{size}@{goal}")
    found = dispatch.solve(chosen, start, start)
    assert found.optimal and found.states[-1] == goal
    assert found.length == bfs(chosen, start, start).length


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_knights_are_optimal_towards_any_chosen_goal_or_proved_apart(data: st.DataObject):
    knights = get_puzzle("knights-3x3")  # Guarini's board: the centre square is cut off

    def placement() -> str:
        return "".join(data.draw(st.permutations("BBWW_____")))

    start, goal = placement(), placement()
    chosen = knights.aiming_at(goal)
    try:
        expected = bfs(chosen, start, start).length
    except Unsolvable:  # unreachable: the engine must prove it too
        with pytest.raises(Unsolvable):
            dispatch.solve(chosen, start, start)
        return
    assert dispatch.solve(chosen, start, start).length == expected


def test_knights_refuse_a_goal_with_other_knights_in_one_line():
    chosen = get_puzzle("knights-3x4@WWW/___/___/BBB")
    reason = chosen.unsolvable_reason("BWB______WBB", "BWB______WBB")
    assert reason is not None and "never change colour" in reason


@pytest.mark.parametrize(
    ("puzzle_id", "words"),
    [
        ("flip-it-7@", "give the goal after @"),
        ("flip-it-7@BB", "got 2 cells"),
        ("knights-3x4@WW/W", "expected 4 rows"),
        ("sliding-3x3@1,2", "unknown puzzle id"),
    ],
)
def test_a_bad_chosen_goal_is_one_line(puzzle_id: str, words: str):
    with pytest.raises(BadInput, match=words) as caught:
        get_puzzle(puzzle_id)
    assert "\n" not in str(caught.value)


def test_a_fixed_goal_cannot_be_chosen_elsewhere():
    sliding = get_puzzle("sliding-3x3")
    assert sliding.aiming_at(goal_of(sliding)) is sliding
    with pytest.raises(BadInput, match="cannot be chosen"):
        sliding.aiming_at(sliding.initial())
