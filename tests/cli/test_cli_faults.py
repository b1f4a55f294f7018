"""CLI leftovers of the fault campaign: every bad input exits 2 with one line, a closed stdout or
stderr is not an internal error, and a peg layout error quotes what was typed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kaeru.tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_empty_from_file_path_is_bad_input(capsys):
    code, out, err = run(capsys, "solve", "flip-it-6", "--from-file", "")
    assert code == 2 and out == "" and err.startswith("kaeru: cannot read ''")


def test_a_nul_in_the_from_file_path_is_bad_input(capsys):
    code, _, err = run(capsys, "solve", "flip-it-6", "--from-file", "a\0b")
    assert code == 2 and "NUL" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("name", "value"), [("KAERU_SEARCH_MODE", "bogus"), ("KAERU_SEARCH_MEMORY_MB", "abc")]
)
def test_a_bad_search_setting_in_the_environment_is_bad_input(capsys, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    code, _, err = run(capsys, "solve", "flip-it-6")
    assert code == 2 and name in err and repr(value) in err and err.count("\n") == 1


def test_the_peg_layout_parser_quotes_the_first_stray_character(capsys):
    code, _, err = run(capsys, "solve", "pegs-english", "--from", "[red]")
    assert code == 2 and "unexpected '['" in err and "[]der" not in err


def shell(command: str) -> subprocess.CompletedProcess[str]:
    cli = f"{sys.executable} -m kaeru.tui.cli"
    return subprocess.run(
        ["bash", "-c", command.replace("kaeru", cli)], capture_output=True, text=True, timeout=60
    )


def test_closed_stderr_keeps_the_exit_code_and_stdout_clean():
    done = shell("kaeru solve no-such-puzzle 2>&-")
    assert done.returncode == 2 and done.stdout == ""


def test_closed_stdout_says_so_in_one_line():
    done = shell("kaeru list >&-")
    assert done.returncode == 4
    assert done.stderr == "kaeru: cannot write the output: standard output is closed\n"
