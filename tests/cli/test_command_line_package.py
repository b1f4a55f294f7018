"""The `kaeru` command as a package: `python -m kaeru`, `--version` without the engine, the
command list kept in step with the command modules, the log folder's name, and the one line
when the `serve` extra is missing."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import kaeru
from kaeru.tui.cli import commands
from kaeru.tui.cli.command_list import COMMANDS, named
from kaeru.tui.cli.exit_codes import EXIT_BAD_INPUT
from kaeru.tui.cli.main import build_parser, log_dir

REPO = Path(kaeru.__file__).resolve().parent.parent
BLOCKED_IMPORTS = REPO / "tests" / "blocked_imports"

HEAVY = """
import contextlib, io, json, sys
from kaeru.tui.cli.main import main
with contextlib.redirect_stdout(io.StringIO()) as said:
    codes = [main(["--version"]), main(["--help"])]
heavy = sorted(m for m in sys.modules
               if m.startswith(("kaeru.engine", "kaeru.screens", "kaeru.tui.app"))
               or m.split(".")[0] in ("numpy", "numba", "textual", "sqlite3"))
print(json.dumps({"codes": codes, "heavy": heavy, "said": said.getvalue()}))
"""

SERVE = """
from kaeru.tui.cli.main import main
print(main(["serve", "ssh", "--guest", "--port", "0"]), main(["serve", "web", "--port", "0"]))
"""


def run_python(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, **(env or {})}, check=False,
    )


def test_every_command_module_is_listed_with_its_own_name_and_help():
    modules = {}
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            modules[info.name] = module
    assert sorted(c.module for c in COMMANDS) == sorted(modules)
    for command in COMMANDS:
        module = modules[command.module]
        assert (module.NAME, module.HELP) == (command.name, command.help)
    orders = [getattr(modules[c.module], "ORDER", 100) for c in COMMANDS]
    assert orders == sorted(orders), "COMMANDS is in --help order (the modules' ORDER)"


def test_version_and_help_import_no_engine():
    done = run_python("-c", HEAVY)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["codes"] == [0, 0] and report["heavy"] == []
    assert f"kaeru {kaeru.__version__}" in report["said"] and "completion" in report["said"]


def test_a_command_imports_only_its_own_module():
    parser, modules = build_parser(["list"])
    assert list(modules) == ["list"]
    assert "list" in parser.format_help() and "solve" in parser.format_help()  # all listed
    assert named("list") is not None and named("nope") is None


def test_python_m_kaeru_runs_the_same_command():
    done = run_python("-m", "kaeru", "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"kaeru {kaeru.__version__}"


def test_the_log_folder_is_named_as_every_other_folder(monkeypatch):
    from kaeru.engine.store.store import data_folder
    from kaeru.engine.tables.folder import configured_dir
    from kaeru.tui.keymap import keymap_path

    for name in ("KAERU_LOG_DIR", "KAERU_CACHE_DIR", "KAERU_DATA_DIR", "KAERU_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    folders = [log_dir(), configured_dir(), data_folder(), keymap_path().parent]
    assert all("kaeru-arcade" in folder.parts for folder in folders), folders
    assert not any("kaeru" in folder.parts for folder in folders), folders


def test_serve_without_the_extra_says_what_to_install():
    plain = "asyncssh,textual_serve,aiohttp,aiohttp_jinja2,jinja2"  # not in a plain install
    env = {"PYTHONPATH": str(BLOCKED_IMPORTS), "KAERU_TEST_BLOCK_MODULES": plain}
    done = run_python("-c", SERVE, env=env)
    assert done.stdout.split() == [str(EXIT_BAD_INPUT)] * 2
    ssh, web = done.stderr.strip().splitlines()
    assert "serve ssh needs asyncssh: pip install 'kaeru-arcade[serve]'" in ssh
    assert "serve web needs textual-serve: pip install 'kaeru-arcade[serve]'" in web
