"""`kaeru man`: the manual page, in roff, made by `argparse-manpage` from the same argument
parser the command reads (every subcommand and option), with the exit codes, the environment
and the files added. Read it with `kaeru man | man -l -`; install it with
`kaeru man > ~/.local/share/man/man1/kaeru.1`.
"""

from __future__ import annotations

import argparse
import re

from kaeru.tui.cli.exit_codes import EXIT_OK

NAME = "man"
HELP = "print the manual page (roff)"
ORDER = 96

SUMMARY = "a keyboard-driven terminal puzzle arcade with a solver engine"

ENVIRONMENT = {
    "KAERU_DATA_DIR": "the folder of saves, records and settings (kaeru.sqlite3)",
    "KAERU_STORE": (
        "postgresql://...: saves, records, settings and the shared place on PostgreSQL "
        "(kaeru serve ssh --store)"
    ),
    "KAERU_PLACE": (
        "the shared place's SQLite file (names, wins, presence; set by kaeru serve ssh)"
    ),
    "KAERU_CACHE_DIR": "depth tables, pattern databases and the home screen's difficulties",
    "KAERU_CONFIG_DIR": "the folder of keymap.toml (keys by binding id)",
    "KAERU_LOG_DIR": "where internal errors are logged",
    "KAERU_PDB_BUILD": "off: build no 15-puzzle database unasked; middle: only the 7-7-1 ones",
    "KAERU_SEARCH_MODE": "process (the default: searches in a worker process) or thread",
    "KAERU_SEARCH_MEMORY_MB": "the search worker's memory cap",
    "KAERU_ASCII": "letters instead of glyphs on the boards",
    "NO_COLOR": "no colour: every board reads by its shapes and letters",
    "TEXTUAL_ANIMATIONS": "none: no sliding animation",
}


def configure(sub: argparse.ArgumentParser) -> None:
    """No arguments: the page covers every command."""


def run(args: argparse.Namespace) -> int:
    print(page(), end="")
    return EXIT_OK


def page() -> str:
    """The manual page of `kaeru`, section 1."""
    from argparse_manpage.manpage import Manpage  # type: ignore[import-untyped]

    from kaeru import __version__
    from kaeru.tui.cli.main import build_parser

    parser, _ = build_parser()
    _drop_epilogs(parser)  # the exit codes get one section of their own, below
    manual = Manpage(parser)
    manual.description = SUMMARY
    manual.source = f"kaeru-arcade {__version__}"
    manual.manual = "Kaeru Arcade"
    text = str(manual) + _section("EXIT STATUS", _exit_codes())
    return _ascii(text + _section("ENVIRONMENT", _environment()))


def _ascii(text: str) -> str:
    """roff reads ASCII: every other character (×, …, →) as its `\\[uXXXX]` escape."""
    return "".join(c if c.isascii() else f"\\[u{ord(c):04X}]" for c in text)


def _drop_epilogs(parser: argparse.ArgumentParser) -> None:
    parser.epilog = None
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _drop_epilogs(sub)


def _section(heading: str, body: str) -> str:
    return f".SH {heading}\n{body}"


def _exit_codes() -> str:
    from kaeru.tui.cli.main import EXIT_CODES_HELP

    lines = []
    for line in EXIT_CODES_HELP.splitlines()[1:]:
        code = re.match(r"\s*(\d+)\s+(.*)", line)
        if code:
            lines.append(f".TP\n.B {code[1]}\n{_escaped(code[2])}")
        else:  # a meaning continued
            lines[-1] += f" {_escaped(line.strip())}"
    return "\n".join(lines) + "\n"


def _environment() -> str:
    return "".join(f".TP\n.B {name}\n{_escaped(text)}\n" for name, text in ENVIRONMENT.items())


def _escaped(text: str) -> str:
    """Text safe in a roff body line: backslashes doubled, no line starting with a dot."""
    text = text.replace("\\", "\\\\").replace("-", "\\-")
    return f"\\&{text}" if text.startswith((".", "'")) else text
