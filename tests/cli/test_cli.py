"""The `kaeru` command's contract: JSON keys, exit codes, one-line errors, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kaeru.tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_names_every_family(capsys):
    code, out, _ = run(capsys, "list", "--json")
    assert code == 0
    rows = json.loads(out)
    ids = {r["id"] for r in rows}
    assert {"flip-it-5", "flip-it-16", "oshidori", "oshidori-bw", "frogs-1", "frogs-10",
            "number-reversal-4", "number-reversal-10"} <= ids
    assert all(set(r) == {"id", "title", "family"} for r in rows)


@pytest.mark.parametrize(
    ("puzzle", "start", "length"),
    [
        ("flip-it-5", None, 8),
        ("oshidori", None, 4),
        ("oshidori-bw", None, 5),
        ("frogs-3", None, 15),
        ("number-reversal-7", None, 25),
        ("flip-it-5", "B_BBB", None),
    ],
)
def test_solve_json_contract(capsys, puzzle, start, length):
    argv = ["solve", puzzle, "--json"] + (["--from", start] if start else [])
    code, out, _ = run(capsys, *argv)
    assert code == 0
    data = json.loads(out)
    assert {"id", "start", "goal", "length", "optimal", "moves", "states", "stats"} <= set(data)
    assert set(data["stats"]) >= {"algorithm", "depth", "expanded", "generated", "seconds"}
    assert data["id"] == puzzle
    assert data["optimal"] is True
    assert len(data["moves"]) == data["length"] and len(data["states"]) == data["length"] + 1
    assert data["states"][0] == data["start"] and data["states"][-1] == data["goal"]
    if length is not None:
        assert data["length"] == length
    if start:
        assert data["start"] == start and data["goal"] == "W_WWW"


def test_unsolvable_exits_1_with_solvable_false(capsys):
    code, out, _ = run(capsys, "solve", "flip-it-4", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["solvable"] is False and data["id"] == "flip-it-4" and data["start"] == "_BBB"


def test_enumerate_json(capsys):
    code, out, _ = run(capsys, "enumerate", "number-reversal-7", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["positions"] == 5040 and data["max_depth"] == 25
    assert data["farthest"] == ["_654321"]
    assert sum(data["histogram"]) == 5040 and data["histogram"][0] == 1


def test_enumerate_from_a_given_root(capsys):
    code, out, _ = run(capsys, "enumerate", "flip-it-5", "--from", "BB_BB", "--json")
    assert code == 0
    assert json.loads(out)["root"] == "BB_BB"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["solve", "no-such-puzzle"], "unknown puzzle id"),
        (["solve", "flip-it-5", "--from", "B_BB"], "expected 5 cells"),
        (["solve", "flip-it-5", "--from", "B_BXB"], "unexpected"),
        (["solve", "oshidori", "--from", "BWBWBWB_W_"], "side by side"),
        (["enumerate", "frogs-99"], "1 to 10"),
        (["solve", "frogs-3", "--from-file", "/no/such/file"], "cannot read"),
        (["solve"], "required"),
        (["solve", "frogs-3", "--bogus"], "unrecognized"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, fragment):
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own errors leave through SystemExit
        code = stop.code
    _, err = capsys.readouterr()
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_installed_entry_point_exits_2_without_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "kaeru.tui.cli", "solve", "flip-it-5", "--from", "nonsense"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
