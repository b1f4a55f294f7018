"""`kaeru completion SHELL` and `kaeru man`: made from the argument parser, they know every
command and option; puzzle ids complete from the script, game ids from the player's saves."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kaeru.engine.puzzles.registry import all_ids
from kaeru.engine.store import SavedGame, Store
from kaeru.tui.cli.command_list import COMMANDS
from kaeru.tui.cli.commands.completion import saved_game_ids, script
from kaeru.tui.cli.commands.manual import page
from kaeru.tui.cli.exit_codes import EXIT_BAD_INPUT
from kaeru.tui.cli.main import main

BASH_COMPLETE = """
source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
_shtab_kaeru
printf '%s\\n' "${COMPREPLY[@]}"
"""


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("completion") / "kaeru.bash"
    path.write_text(script("bash"))
    return path


def completions(bash_script: Path, *words: str, saves: bool = False) -> list[str]:
    """What bash offers for the last of `words` (the command line so far); with `saves`, the
    script finds `kaeru` to ask for the saved games' ids (else it finds none: quicker)."""
    path = f"{Path(sys.executable).parent}{os.pathsep}" if saves else ""
    env = {**os.environ, "PATH": f"{path}/usr/bin:/bin"}
    done = subprocess.run(
        ["bash", "-c", BASH_COMPLETE, "complete", str(bash_script), *words],
        capture_output=True, text=True, timeout=60, env=env, check=True,
    )
    return done.stdout.split()


@pytest.fixture
def a_saved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path))
    store = Store.open(tmp_path)
    store.save_game(SavedGame(None, "flip-it-7", "flip-it-7:WB_BWBW", moves=("3->2",)))
    store.close()
    return "flip-it-7:WB_BWBW"


def test_bash_completes_commands_options_and_puzzle_ids(bash_script: Path):
    assert completions(bash_script, "kaeru", "so") == ["solve"]
    assert "--from-file" in completions(bash_script, "kaeru", "solve", "--fr")
    assert completions(bash_script, "kaeru", "solve", "flip-it-1") == [
        i for i in all_ids() if i.startswith("flip-it-1")
    ]
    assert completions(bash_script, "kaeru", "random", "sliding-4") == [
        i for i in all_ids() if i.startswith("sliding-4")
    ]


def test_bash_completes_game_ids_from_the_saves(bash_script: Path, a_saved_game: str):
    assert saved_game_ids() == [a_saved_game]
    offered = completions(bash_script, "kaeru", "play", "flip-it-7", saves=True)
    assert offered == ["flip-it-7", a_saved_game]


def test_no_saves_no_game_ids_and_nothing_created(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path / "none"))
    assert saved_game_ids() == []
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_know_every_command_and_puzzle(shell: str):
    text = script(shell)
    assert all(c.name in text for c in COMMANDS)
    assert all(i in text for i in all_ids()) and "kaeru completion --game-ids" in text
    if shutil.which(shell):  # a syntax check where the shell is installed
        check = [shell, "-n", "-c", text] if shell == "zsh" else [shell, "--no-execute", "-c", text]
        subprocess.run(check, check=True, timeout=60, capture_output=True)
    if shell == "fish" and shutil.which("fish"):  # and fish completes from it
        asked = f"{text}\ncomplete -C 'kaeru solve flip-it-1'"
        done = subprocess.run(["fish", "-c", asked], capture_output=True, text=True, timeout=60)
        offered = [line.split("\t")[0] for line in done.stdout.splitlines()]
        assert offered == [i for i in all_ids() if i.startswith("flip-it-1")]


def test_completion_without_a_shell_is_bad_input(capsys):
    assert main(["completion"]) == EXIT_BAD_INPUT
    assert "completion needs a shell" in capsys.readouterr().err


def test_the_manual_page_has_every_command_the_exit_codes_and_the_environment(tmp_path: Path):
    text = page()
    assert text.startswith(".TH KAERU \"1\"")
    for command in COMMANDS:
        assert f"'kaeru {command.name}'" in text or f"\\fI\\,{command.name}\\/\\fR" in text
    assert "\\-\\-from\\-file" in text and "\\-\\-authorized\\-keys" in text
    assert ".SH EXIT STATUS" in text and ".B 130" in text
    assert ".SH ENVIRONMENT" in text and ".B KAERU_CACHE_DIR" in text
    if shutil.which("groff"):  # rendered without a warning
        done = subprocess.run(
            ["groff", "-man", "-Tutf8", "-ww", "-z"], input=text, capture_output=True, text=True,
            timeout=60, check=True,
        )
        assert done.stderr == ""


def test_kaeru_man_prints_the_page(capsys):
    assert main(["man"]) == 0
    assert capsys.readouterr().out == page()


def test_every_variable_in_the_readme_s_table_is_in_the_manual_page():
    """The README's table of environment variables and the man page's ENVIRONMENT agree (the
    page lacked KAERU_STORE, KAERU_PLACE and TEXTUAL_ANIMATIONS)."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("Environment variables:", 1)[1].split("\n\n", 2)[1]
    names = [
        row.split("`")[1].split("=")[0]
        for row in table.splitlines()
        if row.startswith("| `")
    ]
    assert "KAERU_STORE" in names and "KAERU_PLACE" in names and len(names) >= 12
    environment = page().split(".SH ENVIRONMENT", 1)[1]
    assert [name for name in names if f".B {name}\n" not in environment] == []
