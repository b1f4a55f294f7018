"""`kaeru tables build [ID…]` and `kaeru tables list [--json]`: the tables the engine keeps in the
cache folder, built ahead (for operators, and for players who want them now) with progress.

IDs: `sliding-4x4` (the 15-puzzle's pattern databases, both tiers), `sliding-4x4:7-8` or
`sliding-4x4:7-7-1` (one tier), or a sliding board of at most 10 cells (`sliding-3x3`: its depth
table). No ID: the 15-puzzle's. A build that fails (out of memory, say) is said once, exit 3.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from kaeru.engine.catalogue.tables_ahead import FIFTEEN, builders, listing
from kaeru.engine.rules.protocol import SearchStats
from kaeru.tui.cli.exit_codes import EXIT_GAVE_UP, EXIT_OK
from kaeru.tui.cli.output import emit

NAME = "tables"
HELP = "build the solver's tables ahead, or list them"
ORDER = 92
LINE_EVERY = 0.1  # fraction of a build between progress lines when stderr is not a terminal


def configure(sub: argparse.ArgumentParser) -> None:
    actions = sub.add_subparsers(dest="action", required=True, parser_class=type(sub))
    build = actions.add_parser("build", help="build tables now (with progress on stderr)")
    build.add_argument("ids", nargs="*", metavar="ID",
                       help="sliding-4x4 (default), sliding-4x4:TIER, or a small sliding board")
    build.add_argument("--json", action="store_true", help="machine-readable output")
    listing = actions.add_parser("list", help="which tables are built, and their sizes")
    listing.add_argument("--json", action="store_true", help="machine-readable output")


def progress_lines(what: str) -> Callable[[SearchStats], None]:
    """Progress on stderr: one redrawn line on a terminal, else a line every tenth."""
    live = sys.stderr.isatty()
    said = [-1.0]

    def show(stats: SearchStats) -> None:
        done = stats.progress
        words = stats.note or f"{what}: {stats.algorithm}"
        if live:
            figure = "" if done is None else f" {done:.0%}"
            print(f"\r\033[K{words[:100]}{figure}", end="", file=sys.stderr, flush=True)
        elif done is not None and done - said[0] >= LINE_EVERY:
            said[0] = done
            print(f"{what}: {done:.0%}", file=sys.stderr, flush=True)

    return show


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        return list_tables(args)
    from kaeru.engine.rules.control import Control
    from kaeru.engine.tables.folder import cache_dir

    wanted = [b for table_id in (args.ids or [FIFTEEN]) for b in builders(table_id)]
    done: list[dict[str, Any]] = []
    for what, build in wanted:
        started, cpu = time.perf_counter(), time.process_time()
        try:
            build(Control(progress=progress_lines(what), budget=None))
        except MemoryError:
            if sys.stderr.isatty():
                print("\r\033[K", end="", file=sys.stderr)
            message = f"{what}: out of memory while building (it needs about 0.8 GB)"
            emit(args, {"built": done, "failed": what, "reason": "out of memory"}, message)
            return EXIT_GAVE_UP
        if sys.stderr.isatty():
            print("\r\033[K", end="", file=sys.stderr, flush=True)
        done.append({"table": what, "seconds": round(time.perf_counter() - started, 1),
                     "cpu_seconds": round(time.process_time() - cpu, 1)})
    folder = cache_dir()
    lines = [f"{d['table']}: ready ({d['seconds']} s)" for d in done]
    lines.append(f"kept in {folder}" if folder is not None else "not kept: no usable cache folder")
    emit(args, {"built": done, "folder": str(folder) if folder else None}, "\n".join(lines))
    return EXIT_OK


def list_tables(args: argparse.Namespace) -> int:
    from kaeru.engine.tables.folder import cache_dir

    folder = cache_dir()
    rows = listing()
    text = "\n".join(
        f"{r['id']:<20} {_state_word(r):<10} {r['bytes'] / 1e6:,.0f} MB  {r['table']}"
        + ("  (an earlier version: converted in seconds on first use or by `kaeru tables build`)"
           if r["to_convert"] else "") for r in rows)
    emit(args, {"tables": rows, "folder": str(folder) if folder else None}, text)
    return EXIT_OK


def _state_word(row: dict[str, Any]) -> str:
    if not row["built"]:
        return "not built"
    return "to convert" if row["to_convert"] else "built"
