"""`kaeru tables build|list` and `--budget` on the 15-puzzle (issue 24): tables built ahead with
progress, listed with their sizes, an unknown id refused in one line; a search past its budget
exits 3 with the figures reached."""

from __future__ import annotations

import json
from math import perm
from pathlib import Path

import numpy as np
import pytest

from kaeru.engine.sliding.databases import pdb78
from kaeru.engine.tables import files, store
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


def test_tables_of_the_earlier_version_are_listed_as_to_convert_with_their_size(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache holding only version-3 tables (block order) is neither "not built" nor 0 MB: it
    is converted in seconds on first use, and the listing says so."""
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    small = ((1, 2), (3,))
    monkeypatch.setitem(pdb78.TIERS, pdb78.MIDDLE, small)
    store.forget()
    for group in small:
        files.write_table(tmp_path / store.file_name(pdb78.table_key(group), pdb78.EARLIER),
                          np.zeros(perm(16, len(group)), np.uint8))
    code, out, _ = run(capsys, "tables", "list", "--json")
    tiers = {row["id"]: row for row in json.loads(out)["tables"]}
    middle = tiers["sliding-4x4:7-7-1"]
    assert code == 0 and middle["built"] and middle["to_convert"] and middle["bytes"] > 240
    assert not tiers["sliding-4x4:7-8"]["to_convert"]
    code, out, _ = run(capsys, "tables", "list")
    assert "to convert" in out and "converted in seconds on first use" in out
    store.forget()
