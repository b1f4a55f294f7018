"""`kaeru hint` and `kaeru grade`: JSON keys, verdicts, exit codes, one-line errors."""

from __future__ import annotations

import json

import pytest

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.search import dispatch
from kaeru.tui.cli import main
from tests.engine.peg_games import PAGODA_LOSS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_gives_a_best_move_and_the_distance(capsys):
    code, out, _ = run(capsys, "hint", "frogs-2", "--json")
    data = json.loads(out)
    puzzle = get_puzzle("frogs-2")
    start = puzzle.initial()
    assert code == 0 and set(data) == {"id", "state", "move", "distance"}
    assert data["distance"] == dispatch.solve(puzzle, start, start).length
    after = puzzle.apply(start, puzzle.parse_move(data["move"], start))
    assert dispatch.solve(puzzle, after, start).length == data["distance"] - 1


def test_hint_from_a_state_at_the_goal_and_when_lost(capsys):
    code, out, _ = run(capsys, "hint", "frogs-2", "--from", "WW_BB", "--json")
    assert code == 0 and json.loads(out) == {
        "id": "frogs-2",
        "state": "WW_BB",
        "move": None,
        "distance": 0,
    }
    code, out, _ = run(capsys, "hint", "pegs-english@c1", "--json")
    data = json.loads(out)
    assert code == 1 and data["distance"] is None and "position-class" in data["reason"]


def test_hint_uses_the_start_for_goals_that_follow_it(capsys):
    code, out, _ = run(capsys, "hint", "flip-it-5", "--from", "B_BBB", "--start", "_BBBB", "--json")
    data = json.loads(out)
    puzzle = get_puzzle("flip-it-5")
    expected = dispatch.solve(puzzle, "B_BBB", "_BBBB").length
    assert code == 0 and data["distance"] == expected


def test_grade_an_optimal_game_and_a_wasted_move(capsys):
    puzzle = get_puzzle("frogs-2")
    start = puzzle.initial()
    moves = [puzzle.format_move(m) for m in dispatch.solve(puzzle, start, start).moves]
    code, out, _ = run(capsys, "grade", "frogs-2", *moves, "--json")
    data = json.loads(out)
    assert code == 0 and set(data) >= {"moves", "final"} and data["final"] == 0
    assert [m["verdict"] for m in data["moves"]] == ["optimal"] * len(moves)
    assert [m["before"] for m in data["moves"]] == list(range(len(moves), 0, -1))
    assert set(data["moves"][0]) == {"move", "before", "after", "verdict"}
    code, out, _ = run(
        capsys, "grade", "sliding-3x3", "--from", "1 2 3/4 5 6/7 8 _", "8 right", "8 left", "--json"
    )
    data = json.loads(out)
    assert [(m["before"], m["after"], m["verdict"]) for m in data["moves"]] == [
        (0, 1, "wasted"),
        (1, 0, "optimal"),
    ]


def test_grade_marks_a_lost_peg_move_with_its_reason(capsys):
    code, out, _ = run(capsys, "grade", "pegs-english", *PAGODA_LOSS, "--json")
    data = json.loads(out)
    assert code == 0 and data["final"] is None
    last = data["moves"][-1]
    assert last["verdict"] == "lost" and last["after"] is None and last["reason"]


def test_grade_stops_at_an_illegal_move_with_exit_2(capsys):
    code, out, err = run(capsys, "grade", "frogs-2", "2->3", "9->1", "--json")
    assert code == 2 and out == ""
    assert "9->1" in err and "move 2" in err and err.count("\n") == 1
    assert "Traceback" not in err
