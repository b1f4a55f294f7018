"""`kaeru list [--json]`: every puzzle id the arcade offers, with its title and family."""

from __future__ import annotations

import argparse

from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.tui.cli.exit_codes import EXIT_OK
from kaeru.tui.cli.output import emit

NAME = "list"
HELP = "every puzzle id"
ORDER = 40


def configure(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    rows = [
        {"id": pid, "title": get_puzzle(pid).title, "family": family.key}
        for family in families()
        for pid in family.ids
    ]
    width = max(len(r["id"]) for r in rows)
    emit(args, rows, "\n".join(f"{r['id']:<{width}}  {r['title']}" for r in rows))
    return EXIT_OK
