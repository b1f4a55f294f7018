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
import sys
import time
import traceback
from collections.abc import Collection, Sequence
from pathlib import Path
from types import ModuleType
from typing import NoReturn

from kaeru.tui.cli.command_list import COMMANDS
from kaeru.tui.cli.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_GAVE_UP,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
)

EXIT_CODES_HELP = """exit codes:
  0  done
  1  the engine proved there is no solution
  2  bad input: the command line, or a file it names, is wrong (one line on stderr)
  3  gave up: a position budget or a size limit stopped the search (the figures reached
     are printed)
  4  internal error (the traceback is in the log file named on stderr), or the output
     could not be written (a full disk)
  130 interrupted (ctrl+c)"""

# Commands that run no search, so the search settings are not checked (nor the search service
# imported): `completion --game-ids` runs at each Tab.
NEVER_SEARCH = ("completion", "man")

# Output faults that end a command with a one-line message rather than a traceback.
OUTPUT_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG}


def say(message: str) -> None:
    """One line on stderr, whatever the message holds."""
    from kaeru.engine.rules.text_input import one_line
    from kaeru.tui.cli.output import fit_encoding

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


def build_parser(configured: Collection[str] | None = None) -> tuple[Parser, dict[str, ModuleType]]:
    """The `kaeru` parser and the modules of the commands it has configured: those named in
    `configured`, or every one when None (completion and the manual page want them all). The
    others are there by name and help only, their modules not imported."""
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
    for command in COMMANDS:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            epilog=EXIT_CODES_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        if configured is None or command.name in configured:
            module = importlib.import_module(command.module_path)
            module.configure(sub)
            by_name[command.name] = module
    return parser, by_name


def chosen_command(words: Sequence[str]) -> str | None:
    """The subcommand the words name: the first that is not an option (the top level's own
    options, `--help` and `--version`, take no value)."""
    return next((word for word in words if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `kaeru` with `argv` (the process's arguments when None); the exit code."""
    if sys.stderr is None:  # started with stderr closed: messages go nowhere, codes still hold
        sys.stderr = open(os.devnull, "w")  # lives as long as the process
    if sys.stdout is None:  # started with stdout closed: there is nowhere to put the output
        sys.stdout = open(os.devnull, "w")
        say("cannot write the output: standard output is closed")
        return EXIT_INTERNAL
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        chosen = chosen_command(words)
        parser, by_name = build_parser(() if chosen is None else (chosen,))
        args = parser.parse_args(words)
        if args.command not in NEVER_SEARCH:
            check_environment()
        if args.command is None:
            from kaeru.tui.cli.commands.play import open_arcade

            return open_arcade(None)
        code: int = by_name[args.command].run(args)
        sys.stdout.flush()
        from kaeru.engine.tables.folder import notices as table_notices

        for notice in table_notices():  # the cache was unusable: said once, after the output
            say(f"note: {notice}")
        return code
    except SystemExit as stop:  # argparse: --help, --version, a usage error
        if stop.code not in (None, 0):
            return stop.code if isinstance(stop.code, int) else EXIT_BAD_INPUT
        return _flushed(EXIT_OK)
    except KeyboardInterrupt:
        say("interrupted")
        return EXIT_INTERRUPTED
    except Exception as error:  # the policy: a bug is logged, never shown raw
        return failed(error)


def failed(error: Exception) -> int:
    """Say what stopped a command, in one line, and give its exit code (the module's policy).
    The engine's errors are imported here, so that `kaeru --version` imports no engine."""
    from kaeru.engine.rules.protocol import BadInput, BudgetExceeded, Cancelled

    if isinstance(error, BadInput):
        say(str(error))
        return EXIT_BAD_INPUT
    if isinstance(error, BudgetExceeded):
        say(f"gave up: {error}")
        return EXIT_GAVE_UP
    if isinstance(error, BrokenPipeError):  # `kaeru list | head`: the reader has what it wanted
        _silence_stdout()
        return EXIT_OK
    if isinstance(error, Cancelled):
        say("interrupted")
        return EXIT_INTERRUPTED
    if isinstance(error, ModuleNotFoundError) and (missing := not_installed(error)):
        say(missing)
        return EXIT_BAD_INPUT
    if isinstance(error, OSError):
        if error.errno not in OUTPUT_ERRNOS:
            return internal_error(error)
        _silence_stdout()
        say(f"cannot write the output: {error.strerror or error}")
        return EXIT_INTERNAL
    if isinstance(error, UnicodeEncodeError):
        _silence_stdout()
        say(f"cannot write the output in {error.encoding}: set PYTHONIOENCODING=utf-8")
        return EXIT_INTERNAL
    return internal_error(error)


# Modules a command may need that a plain install or the system may lack: what to say.
EXTRA = "pip install 'kaeru-arcade[serve]' (with pipx: pipx install 'kaeru-arcade[serve]')"
OPTIONAL_MODULES = {
    "asyncssh": f"serve ssh needs asyncssh: {EXTRA}",
    "textual_serve": f"serve web needs textual-serve: {EXTRA}",
    "aiohttp": f"serve web needs textual-serve: {EXTRA}",
    "aiohttp_jinja2": f"serve web needs textual-serve: {EXTRA}",
    "jinja2": f"serve web needs textual-serve: {EXTRA}",
}
POSIX_MODULES = ("fcntl", "termios", "pty", "resource", "tty")


def not_installed(error: ModuleNotFoundError) -> str | None:
    """The line to say when `error` is an optional part missing (the `serve` extra, or a
    POSIX-only module on Windows), else None (then it is a bug)."""
    top = (error.name or "").partition(".")[0]
    if top in OPTIONAL_MODULES:
        return OPTIONAL_MODULES[top]
    if top in POSIX_MODULES:
        return f"this command needs a POSIX system (Linux, macOS, BSD): no module {top!r} here"
    return None


def check_environment() -> None:
    """BadInput (exit 2) for a search setting in the environment that cannot be used."""
    from kaeru.engine.rules.protocol import BadInput
    from kaeru.engine.rules.text_input import shown
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

    from kaeru import APP_NAME  # as every other folder

    return Path(user_log_dir(APP_NAME))  # as the cache and data folders (Windows: one parent)


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
