"""`kaeru solve` / `kaeru enumerate` on the knights and the river crossings: the published
figures through the command line, the JSON contract, exit codes and one-line errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("puzzle_id", "length"),
    [
        ("knights-3x4", 16),  # seed 001, problem 5
        ("knights-3x3", 16),  # Guarini's problem: the classic 16
        ("jealous-husbands-3", 11),  # seed 001, problem 3
        ("jealous-husbands-4", 9),
        ("jealous-husbands-5", 11),
        ("missionaries-3", 11),
        ("wolf-goat-cabbage", 7),
    ],
)
def test_solve_json_gives_the_published_length(capsys, puzzle_id, length):
    code, out, err = run(capsys, "solve", puzzle_id, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {"id", "start", "goal", "length", "optimal", "moves", "states", "stats"} <= set(data)
    assert {"algorithm", "depth", "expanded", "generated", "seconds"} <= set(data["stats"])
    assert data["id"] == puzzle_id and data["optimal"] is True
    assert data["length"] == length == len(data["moves"]) == len(data["states"]) - 1
    assert data["states"][0] == data["start"] and data["states"][-1] == data["goal"]
    # the states in the output are the puzzle's own text: they parse and replay
    puzzle = get_puzzle(puzzle_id)
    states = [puzzle.parse(text) for text in data["states"]]
    for before, after in zip(states, states[1:], strict=False):
        assert any(puzzle.apply(before, m) == after for m in puzzle.moves(before))


def test_knights_text_output_names_squares(capsys):
    code, out, _ = run(capsys, "solve", "knights-3x4")
    assert code == 0
    assert "BBB/___/___/WWW → WWW/___/___/BBB" in out
    assert "16 moves, optimal" in out
    numbered = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\. ", line)]
    moves = [words[1] for words in numbered[1:]]
    assert len(moves) == 16
    assert all(re.fullmatch(r"[a-c][1-4]-[a-c][1-4]", move) for move in moves)


def test_river_text_output_reads_as_crossings(capsys):
    code, out, _ = run(capsys, "solve", "wolf-goat-cabbage")
    assert code == 0
    assert "7 moves, optimal" in out
    assert "Farmer Goat cross" in out


def test_enumerate_knights_gives_18480_positions_and_farthest_22(capsys):
    code, out, _ = run(capsys, "enumerate", "knights-3x4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["positions"] == 18_480
    assert data["max_depth"] == 22
    assert data["farthest_count"] == 3 and len(data["farthest"]) == 3


def test_enumerate_river_text(capsys):
    code, out, _ = run(capsys, "enumerate", "jealous-husbands-3")
    assert code == 0
    assert out.startswith("jealous-husbands-3 from Ha Wa Hb Wb Hc Wc boat | : ")


def test_four_couples_in_a_boat_of_two_exit_1(capsys):
    code, out, _ = run(capsys, "solve", "jealous-husbands-4-boat2", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["id"] == "jealous-husbands-4-boat2" and data["solvable"] is False
    assert data["start"] == "Ha Wa Hb Wb Hc Wc Hd Wd boat | "
    assert "cannot be done" in data["reason"]


def test_an_unreachable_knight_swap_exits_1(capsys):
    code, out, _ = run(capsys, "solve", "knights-3x3", "--from", "B__/_W_/___")
    assert code == 1
    assert "no solution" in out


def test_solve_from_a_given_river_position(capsys):
    code, out, _ = run(capsys, "solve", "jealous-husbands-3", "--from", "Ha Hb Hc | boat Wa Wb Wc",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert data["start"] == "Ha Hb Hc | boat Wa Wb Wc"
    assert data["length"] == 8  # the seed's solution passes here after 3 of its 11 crossings


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "knights-3x4", "--from", "BBB/___/WWW"], "expected 4 rows of 3"),
        (["solve", "knights-9x9"], "knights-3x4"),
        (["solve", "jealous-husbands-3", "--from", "Ha Wb Hb boat | Wa Hc Wc"], "not a safe"),
        (["solve", "missionaries-3", "--from", "M M M C C C"], "expected the left bank, a |"),
        (["solve", "jealous-husbands-12"], "1 to 5 couples"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and words in err


def test_module_entry_point_in_a_subprocess():
    done = subprocess.run(
        [sys.executable, "-m", "kaeru.tui.cli", "solve", "missionaries-3", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["length"] == 11
