"""The `kaeru` command: no argument starts the arcade; the subcommands in `commands/` work
headless (with `--json`). Bad input exits 2 with one line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from kaeru.engine.core import BadInput, Cancelled
from kaeru.tui.cli import commands
from kaeru.tui.cli.exit_codes import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        print(f"kaeru: {message} (see `kaeru --help`)", file=sys.stderr)
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
    parser = Parser(prog="kaeru", description="Kaeru Arcade: terminal puzzles and their solver.")
    subparsers = parser.add_subparsers(dest="command", parser_class=Parser)
    by_name = {}
    for module in command_modules():
        sub = subparsers.add_parser(module.NAME, help=module.HELP)
        module.configure(sub)
        by_name[module.NAME] = module
    return parser, by_name


def main(argv: Sequence[str] | None = None) -> int:
    parser, by_name = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            from kaeru.tui.cli.commands.play import open_arcade

            return open_arcade(None)
        code: int = by_name[args.command].run(args)
        return code
    except BadInput as error:
        print(f"kaeru: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `kaeru list | head`
        sys.stderr.close()
        return EXIT_OK
    except (KeyboardInterrupt, Cancelled):
        print("kaeru: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
