"""Regressions for the command line under hostile input and output faults (issue 10)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import kaeru.tui.cli.commands.solve as solve_command
from kaeru import __version__
from kaeru.tui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def kaeru(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kaeru.tui.cli", *argv],
        capture_output=True,
        text=True,
        env=os.environ | env,
        timeout=60,
        encoding="utf-8",
        errors="replace",
    )


@pytest.mark.parametrize(
    "bad",
    [
        "flip-it-²",
        "two-blank-④x③",
        "flip-it-" + "9" * 5000,
        "frogs-" + "1" * 4400,
        "sliding-4x" + "7" * 4500,
    ],
)
def test_odd_and_huge_digits_are_bad_input(capsys, bad):
    code, _, err = run(capsys, "solve", bad)
    assert code == 2 and len(err.splitlines()) == 1 and len(err) < 300


def test_echoed_input_is_escaped_on_one_line(capsys):
    code, _, err = run(capsys, "solve", "\x1b[2J\x1b[31mred\nsecond")
    assert code == 2 and err.count("\n") == 1 and "\x1b" not in err and "\\x1b" in err


def test_from_dash_dash_is_bad_input(capsys):
    assert run(capsys, "solve", "flip-it-5", "--from=--")[0] == 2


def test_files_that_are_not_small_regular_utf8_files(capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    latin = tmp_path / "latin"
    latin.write_bytes(b"B_BBB\xe9")
    big = tmp_path / "big"
    big.write_bytes(b"B" * 70_000)
    for path in (fifo, "/dev/zero", tmp_path, latin, big, tmp_path / "missing"):
        code, _, err = run(capsys, "solve", "flip-it-5", "--from-file", str(path))
        assert code == 2 and len(err.splitlines()) == 1, (path, err)


def test_a_byte_order_mark_is_fine(capsys, tmp_path):
    path = tmp_path / "start"
    path.write_bytes(b"\xef\xbb\xbfB_BBB\n")
    code, out, _ = run(capsys, "solve", "flip-it-5", "--from-file", str(path), "--json")
    assert code == 0 and '"start": "B_BBB"' in out


def test_game_ids_wherever_a_puzzle_id_is(capsys):
    code, out, _ = run(capsys, "solve", "flip-it-7:B_BBBBB", "--json")
    assert code == 0 and '"start": "B_BBBBB"' in out
    assert run(capsys, "enumerate", "flip-it-5:BB_BB", "--json")[0] == 0
    assert run(capsys, "solve", "flip-it-7:B_BBBBB", "--from", "B_BBBBB")[0] == 2


def test_play_takes_a_game_id(capsys, monkeypatch):
    import kaeru.tui.cli.commands.play as play_command

    opened = []
    monkeypatch.setattr(play_command, "open_arcade", lambda game_id: opened.append(game_id) or 0)
    assert run(capsys, "play", "flip-it-7:B_BBBBB")[0] == 0
    assert opened and opened[0].startswith("flip-it-7:")


def test_version_and_exit_codes_in_help(capsys):
    assert main(["--version"]) == 0 and __version__ in capsys.readouterr().out
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "exit codes" in out and "gave up" in out and "internal error" in out


def test_internal_error_exits_4_naming_the_log(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("KAERU_LOG_DIR", str(tmp_path))

    def broken(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(solve_command, "run", broken)
    code, _, err = run(capsys, "solve", "flip-it-5")
    assert code == 4 and len(err.splitlines()) == 1 and str(tmp_path) in err
    assert "RuntimeError: a bug" in (tmp_path / "kaeru-errors.log").read_text()


def test_full_disk_ends_cleanly(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "kaeru.tui.cli", "solve", "oshidori"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 4 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_ascii_output_encoding_falls_back():
    done = kaeru("solve", "oshidori", PYTHONIOENCODING="ascii")
    assert done.returncode == 0 and "->" in done.stdout and done.stderr == ""
    done = kaeru("solve", "oshidori", "--json", PYTHONIOENCODING="ascii")
    assert done.returncode == 0


def test_closed_pipe_ends_cleanly():
    shell = f"{sys.executable} -m kaeru.tui.cli list | head -1"
    done = subprocess.run(shell, shell=True, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr and done.stderr == ""


def test_enumerate_too_large_gives_up_with_exit_3(capsys):
    code, out, err = run(capsys, "enumerate", "sliding-4x4")
    assert code == 3 and "positions" in out and err == ""
    code, out, _ = run(capsys, "enumerate", "sliding-4x4", "--json")
    assert code == 3 and '"complete": false' in out
