"""`kaeru` on sliding puzzles: seed 002's 8-puzzle figures, refusals with the parity argument,
the optimal flag in JSON."""

from __future__ import annotations

import json

import pytest

from kaeru.tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_enumerate_the_eight_puzzle_from_the_goal(capsys):
    code, out, _ = run(capsys, "enumerate", "sliding-3x3", "--from", "1 2 3/4 5 6/7 8 _",
                       "--json")
    assert code == 0
    got = json.loads(out)
    assert got["positions"] == 181_440 and got["max_depth"] == 31
    assert got["farthest"] == ["6 4 7/8 5 _/3 2 1", "8 6 7/2 5 4/3 _ 1"]


def test_solve_the_hardest_eight_puzzle(capsys):
    code, out, _ = run(capsys, "solve", "sliding-3x3", "--json")  # the standard start
    got = json.loads(out)
    assert code == 0 and got["length"] == 31 and got["optimal"] is True
    assert got["start"] == "8 6 7/2 5 4/3 _ 1" and got["states"][-1] == "1 2 3/4 5 6/7 8 _"


def test_unsolvable_layout_is_refused_with_the_parity_argument(capsys):
    code, out, _ = run(capsys, "solve", "sliding-4x4", "--from",
                       "2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 _", "--json")
    got = json.loads(out)
    assert code == 1 and got["solvable"] is False
    assert got["reason"].startswith("sorting this layout takes 1 swap (odd)")


def test_big_boards_say_optimal_false(capsys):
    code, out, _ = run(capsys, "solve", "sliding-6x6", "--json", "--budget", "100000")
    got = json.loads(out)
    assert code == 0 and got["optimal"] is False and got["length"] == len(got["moves"])
    assert got["over_optimum"] == got["length"] - got["lower_bound"] > 0  # a proved bound


def test_bad_layout_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "solve", "sliding-3x3", "--from", "1 2 3/4 5 6/7 8 8")
    assert code == 2 and err.count("\n") == 1 and "tile 8 appears twice" in err


def test_a_10x10_board_is_solved_and_an_11x11_one_refused_in_one_line(capsys):
    tiles = [str(t) for t in range(1, 100)] + ["_"]
    for gap, tile in ((99, 89), (89, 79), (79, 78)):  # the gap up twice, then left: 3 moves
        tiles[gap], tiles[tile] = tiles[tile], tiles[gap]
    start = "/".join(" ".join(tiles[r * 10 : r * 10 + 10]) for r in range(10))
    code, out, _ = run(capsys, "solve", "sliding-10x10", "--from", start, "--budget",
                       "1000000", "--json")  # a small budget: the reduction's instant answer
    got = json.loads(out)
    assert code == 0 and got["length"] == 3 and got["states"][0] == start
    assert got["states"][-1].endswith("98 99 _")
    code, out, err = run(capsys, "solve", "sliding-11x11")
    assert code == 2 and "2 to 10 columns and rows" in err and len(err.strip().splitlines()) == 1
