"""`kaeru leaderboard` reads the shared place (JSON contract, order, helped apart, exit codes),
and `kaeru serve ssh --store` refuses a PostgreSQL it cannot reach in one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kaeru.engine.place.place import Place
from kaeru.engine.store.models import FinishedGame
from kaeru.tui.cli import main
from tests.place.pg_cluster import free_port

DAY = "2026-11-25"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_leaderboard_json_ranks_clean_games_and_lists_helped_apart(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("KAERU_STORE", raising=False)
    monkeypatch.delenv("KAERU_PLACE", raising=False)
    for player, moves, helped in (("ann", 27, False), ("bob", 25, False), ("cy", 25, True)):
        place = Place.open(tmp_path, url="", player=player)
        place.set_name(player.title())
        place.record_win(FinishedGame("g", "sliding-3x3", ("1 up",) * moves, moves, 25, 9.0,
                                      int(helped), helped, f"{DAY}T10:00:00+00:00", daily=DAY))
        place.close()
    code, out, _ = run(capsys, "leaderboard", "--date", DAY, "--puzzle", "sliding-3x3", "--json")
    assert code == 0
    (board,) = json.loads(out)
    assert [(e["rank"], e["name"]) for e in board["ranked"]] == [(1, "Bob"), (2, "Ann")]
    assert [e["name"] for e in board["helped"]] == ["Cy"]
    code, out, _ = run(capsys, "leaderboard", "--date", DAY, "--puzzle", "sliding-3x3")
    assert code == 0 and "1. Bob" in out and "help Cy" in out and "optimal" in out


@pytest.mark.parametrize(
    "argv",
    [("--date", "2026-13-01"), ("--puzzle", "nope"), ("--puzzle", "pegs-english"),
     ("--store", "/no/such/place.sqlite3")],
)
def test_leaderboard_bad_input_is_one_line_exit_2(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path))
    code, _, err = run(capsys, "leaderboard", *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.posix  # kaeru serve is POSIX-only
def test_serve_ssh_store_that_is_not_postgresql_is_one_line_exit_2(tmp_path, capsys):
    code, _, err = run(capsys, "serve", "ssh", "--guest", "--data-dir", str(tmp_path),
                       "--store", "mysql://db/kaeru")
    assert code == 2 and "postgresql://" in err and len(err.strip().splitlines()) == 1


@pytest.mark.posix  # kaeru serve is POSIX-only
def test_serve_ssh_with_an_unreachable_postgresql_is_one_line_exit_2(tmp_path):
    url = f"postgresql://kaeru@127.0.0.1:{free_port()}/postgres"
    done = subprocess.run(
        [sys.executable, "-m", "kaeru", "serve", "ssh", "--guest", "--port", "0",
         "--data-dir", str(tmp_path), "--store", url],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach PostgreSQL at 127.0.0.1" in lines[0]
    assert not (Path(tmp_path) / "place.sqlite3").exists()
