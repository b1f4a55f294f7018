"""The `kaeru` command: no argument starts the arcade; the subcommands in `commands/` work
headless (with `--json`).

One error policy for every command (the codes are in `exit_codes.py`, `kaeru --help` and the
README): a message is one line on stderr, with any input it quotes escaped and shortened; an
unexpected error exits 4 with one line naming the log file that holds its traceback; output
that cannot be written (a full disk, a closed pipe) ends the command cleanly.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import pkgutil
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NoReturn

from kaeru.engine.core import BadInput, BudgetExceeded, Cancelled
from kaeru.engine.tables.folder import notices as table_notices
from kaeru.engine.text_input import one_line, shown
from kaeru.tui.cli import commands
from kaeru.tui.cli.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_GAVE_UP,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
)
from kaeru.tui.cli.output import fit_encoding

EXIT_CODES_HELP = """exit codes:
  0  done
  1  the engine proved there is no solution
  2  bad input: the command line, or a file it names, is wrong (one line on stderr)
  3  gave up: a position budget or a size limit stopped the search (the figures reached
     are printed)
  4  internal error (the traceback is in the log file named on stderr), or the output
     could not be written (a full disk)
  130 interrupted (ctrl+c)"""

# Output faults that end a command with a one-line message rather than a traceback.
OUTPUT_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG}


def say(message: str) -> None:
    """One line on stderr, whatever the message holds."""
    try:
        print(fit_encoding(one_line(f"kaeru: {message}"), sys.stderr), file=sys.stderr)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # stderr itself is gone: nothing more can be said


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        say(f"{message} (see `kaeru --help`)")
        raise SystemExit(EXIT_BAD_INPUT)


def command_modules() -> list[ModuleType]:
    """Every subcommand module, in `--help` order."""
    found = []
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            found.append(module)
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 100), m.NAME))


def build_parser() -> tuple[Parser, dict[str, ModuleType]]:
    from kaeru import __version__

    parser = Parser(
        prog="kaeru",
        description="Kaeru Arcade: terminal puzzles and their solver.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"kaeru {__version__}")
    subparsers = parser.add_subparsers(dest="command", parser_class=Parser)
    by_name = {}
    for module in command_modules():
        sub = subparsers.add_parser(
            module.NAME,
            help=module.HELP,
            epilog=EXIT_CODES_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.configure(sub)
        by_name[module.NAME] = module
    return parser, by_name


def main(argv: Sequence[str] | None = None) -> int:
    """Run `kaeru` with `argv` (the process's arguments when None); the exit code."""
    if sys.stderr is None:  # started with stderr closed: messages go nowhere, codes still hold
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    if sys.stdout is None:  # started with stdout closed: there is nowhere to put the output
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        say("cannot write the output: standard output is closed")
        return EXIT_INTERNAL
    try:
        check_environment()
        parser, by_name = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            from kaeru.tui.cli.commands.play import open_arcade

            return open_arcade(None)
        code: int = by_name[args.command].run(args)
        sys.stdout.flush()
        for notice in table_notices():  # the cache was unusable: said once, after the output
            say(f"note: {notice}")
        return code
    except SystemExit as stop:  # argparse: --help, --version, a usage error
        if stop.code not in (None, 0):
            return stop.code if isinstance(stop.code, int) else EXIT_BAD_INPUT
        return _flushed(EXIT_OK)
    except BadInput as error:
        say(str(error))
        return EXIT_BAD_INPUT
    except BudgetExceeded as error:
        say(f"gave up: {error}")
        return EXIT_GAVE_UP
    except BrokenPipeError:  # `kaeru list | head`: the reader has what it wanted
        _silence_stdout()
        return EXIT_OK
    except (KeyboardInterrupt, Cancelled):
        say("interrupted")
        return EXIT_INTERRUPTED
    except OSError as error:
        if error.errno not in OUTPUT_ERRNOS:
            return internal_error(error)
        _silence_stdout()
        say(f"cannot write the output: {error.strerror or error}")
        return EXIT_INTERNAL
    except UnicodeEncodeError as error:
        _silence_stdout()
        say(f"cannot write the output in {error.encoding}: set PYTHONIOENCODING=utf-8")
        return EXIT_INTERNAL
    except Exception as error:  # noqa: BLE001 - the policy: a bug is logged, never shown raw
        return internal_error(error)


def check_environment() -> None:
    """BadInput (exit 2) for a search setting in the environment that cannot be used."""
    from kaeru.engine.service.process_runner import default_memory_limit
    from kaeru.engine.service.service import MODE_ENV, MODES

    mode = os.environ.get(MODE_ENV)
    if mode is not None and mode not in MODES:
        raise BadInput(f"${MODE_ENV} must be one of {', '.join(MODES)}, not {shown(mode)}")
    default_memory_limit()


def _flushed(code: int) -> int:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except OSError as error:
        _silence_stdout()
        say(f"cannot write the output: {error.strerror or error}")
        return EXIT_INTERNAL
    return code


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush of what could not be
    written does not fail again at exit (the recipe of the `signal` module's docs)."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        pass


def log_dir() -> Path:
    """Where tracebacks go: `KAERU_LOG_DIR`, else the platform's user log folder."""
    override = os.environ.get("KAERU_LOG_DIR")
    if override:
        return Path(override)
    from platformdirs import user_log_dir

    return Path(user_log_dir("kaeru", appauthor=False))


def internal_error(error: BaseException) -> int:
    """Log the traceback and say where, in one line; exit 4."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    text = "".join(traceback.format_exception(error))
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "kaeru-errors.log"
        with path.open("a", encoding="utf-8", errors="backslashreplace") as log:
            log.write(f"--- {stamp} kaeru {' '.join(map(repr, sys.argv[1:]))}\n{text}\n")
        where = f"the traceback is in {path}"
    except OSError as log_error:
        where = f"and the log could not be written ({log_error.strerror or log_error})"
    say(f"internal error {type(error).__name__}: {where}")
    return EXIT_INTERNAL
