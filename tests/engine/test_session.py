"""The midend: push, undo, redo, restart, adopt, hint, solve, game ids and saved games, on the line
puzzles. Random action sequences are checked against a plain model of the same history."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_checks import assert_replays

from kaeru.engine.core import BadInput
from kaeru.engine.registry import get_puzzle
from kaeru.engine.session import Session

LINE_IDS = ["flip-it-6", "oshidori", "oshidori-bw", "frogs-3", "number-reversal-6"]


def test_a_new_game_starts_at_the_initial_position():
    session = Session(get_puzzle("flip-it-6"))
    assert session.state == session.start == "_BBBBB"
    assert session.moves_made == 0 and session.history == ()
    assert not session.can_undo and not session.can_redo and not session.solved
    assert session.undo() is None and session.redo() is None
    assert session.game_id == "flip-it-6:_BBBBB"


def test_push_undo_redo_restart():
    session = Session(get_puzzle("flip-it-6"), "B_BBBB")
    first, second = (3, 1), (1, 3)  # out and straight back
    assert session.push(first) == "BBW_BB"
    assert session.push(second) == "B_BBBB"
    assert session.history == (first, second) and session.moves_made == 2
    assert session.states == ("B_BBBB", "BBW_BB", "B_BBBB")
    assert session.undo() == second and session.state == "BBW_BB" and session.can_redo
    assert session.redo() == second and session.state == "B_BBBB" and not session.can_redo
    session.restart()
    assert session.state == "B_BBBB" and session.moves_made == 0 and session.can_redo
    assert session.redo() == first and session.redo() == second  # restart loses no work
    session.undo()
    assert session.push((0, 3)) == "_WBBBB"  # a new move forgets what was undone
    assert not session.can_redo and session.history == (first, (0, 3))


def test_an_illegal_move_is_refused_with_one_line():
    puzzle = get_puzzle("flip-it-6")
    session = Session(puzzle)
    with pytest.raises(BadInput) as caught:
        session.push((1, 0))  # next to the gap: no stone to jump
    message = str(caught.value)
    assert "\n" not in message and puzzle.describe((1, 0)) in message
    assert session.moves_made == 0 and session.state == "_BBBBB"


@pytest.mark.parametrize("pid", LINE_IDS)
def test_hints_lead_the_shortest_way_home(pid):
    puzzle = get_puzzle(pid)
    session = Session(puzzle)
    optimal = session.solve().length
    while not session.solved:
        session.push(session.hint())
    assert session.moves_made == optimal
    assert session.hint() is None  # nothing left to suggest


@pytest.mark.parametrize("pid", LINE_IDS)
def test_solve_and_adopt_from_the_middle(pid):
    puzzle = get_puzzle(pid)
    session = Session(puzzle)
    session.push(session.legal_moves()[0])
    solution = session.solve()
    assert_replays(puzzle, solution, session.state, session.start)
    session.adopt(solution, 2)
    assert session.state == solution.states[2] and session.moves_made == 3
    session.adopt(session.solve(), 10_000)
    assert session.solved


# ---- game ids and saved games --------------------------------------------------------------
@pytest.mark.parametrize(
    "game_id",
    ["flip-it-6:B_BBBB", "flip-it-16:_BWBWBWBWBWBWBWB", "oshidori:BWBWBWBW__", "frogs-4:BBBB_WWWW",
     "number-reversal-10:2_13456789"],
)
def test_game_ids_round_trip(game_id):
    session = Session.from_game_id(game_id)
    assert session.game_id == game_id
    assert Session.from_game_id(session.game_id).start == session.start


def test_a_bare_id_starts_at_the_default():
    assert Session.from_game_id("frogs-2").start == "BB_WW"


@pytest.mark.parametrize(
    "game_id", ["flip-it-6:B_BBB", "flip-it-99:_BBBB", "nonsense:__", "frogs-3:BBB_WWX"]
)
def test_bad_game_ids_are_refused(game_id):
    with pytest.raises(BadInput):
        Session.from_game_id(game_id)


actions = st.lists(
    st.one_of(st.integers(0, 20), st.sampled_from(["undo", "redo", "restart"])), max_size=40
)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(LINE_IDS), actions)
def test_random_play_matches_a_model_and_survives_saving(pid, script):
    puzzle = get_puzzle(pid)
    session = Session(puzzle)
    done: list = []  # the model: moves made, and moves undone (the next to redo last)
    undone: list = []
    for action in script:
        if action == "undo":
            if done:
                undone.append(done.pop())
            session.undo()
        elif action == "redo":
            if undone:
                done.append(undone.pop())
            session.redo()
        elif action == "restart":
            while done:
                undone.append(done.pop())
            session.restart()
        else:
            legal = session.legal_moves()
            if not legal:
                continue
            move = legal[action % len(legal)]
            session.push(move)
            done.append(move)
            undone.clear()
        assert list(session.history) == done
    state = session.start
    for move in done:
        state = puzzle.apply(state, move)
    assert session.state == state

    saved = json.loads(json.dumps(session.to_json()))
    loaded = Session.from_json(saved)
    assert loaded.game_id == session.game_id
    assert loaded.history == session.history and loaded.state == session.state
    while session.can_redo:
        assert loaded.redo() == session.redo()
    assert not loaded.can_redo and loaded.state == session.state


@pytest.mark.parametrize(
    "damaged",
    [{}, {"game_id": "flip-it-6:_BBBBB", "moves": [99]}, {"game_id": "flip-it-6:_BBBBB",
     "moves": ["x"]}, {"game_id": "flip-it-6:_BBBBB", "moves": [0], "redo": [42]},
     {"game_id": "flip-it-6:_BB", "moves": []}, {"game_id": "flip-it-6:_BBBBB", "moves": [-1]}],
)
def test_a_damaged_save_is_refused(damaged):
    with pytest.raises(BadInput) as caught:
        Session.from_json(damaged)
    assert "\n" not in str(caught.value)
