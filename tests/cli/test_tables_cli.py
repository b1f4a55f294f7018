"""`kaeru tables build|list` and `--budget` on the 15-puzzle (issue 24): tables built ahead with
progress, listed with their sizes, an unknown id refused in one line; a search past its budget
exits 3 with the figures reached."""

from __future__ import annotations

import json

import pytest

from kaeru.tui.cli import main

HARD = "_ 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"  # 80 moves: no quick answer without tables


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tables_build_a_small_board_ahead_then_list_the_15_puzzle_tiers(capsys):
    code, out, err = run(capsys, "tables", "build", "sliding-3x3", "--json")
    got = json.loads(out)
    assert code == 0 and got["built"][0]["table"] == "the depth table of sliding-3x3"
    code, out, _ = run(capsys, "tables", "list", "--json")
    tiers = {row["id"]: row for row in json.loads(out)["tables"]}
    assert code == 0 and set(tiers) == {"sliding-4x4:7-8", "sliding-4x4:7-7-1"}


@pytest.mark.parametrize("table_id", ["sliding-4x4:9-9", "sliding-6x6", "frogs-3"])
def test_a_table_id_without_tables_is_refused_in_one_line(capsys, table_id):
    code, out, err = run(capsys, "tables", "build", table_id)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_a_15_puzzle_search_past_its_budget_exits_3_with_the_figures(capsys):
    code, out, _ = run(capsys, "solve", "sliding-4x4", "--from", HARD, "--budget", "200000",
                       "--json")
    got = json.loads(out)
    assert code == 3 and got["solvable"] is None
    assert "every solution is at least" in got["reason"]
    assert got["stats"]["generated"] >= 200_000


def test_a_budget_must_be_a_positive_count(capsys):
    code, _, err = run(capsys, "solve", "sliding-4x4", "--budget", "-3")
    assert code == 2 and "budget" in err
