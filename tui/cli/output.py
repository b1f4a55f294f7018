"""Printing results: text or JSON on stdout, a live progress line on stderr when it is a
terminal."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kaeru.engine.core import SearchStats


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False) if getattr(args, "json", False) else text)


def progress_printer(enabled: bool) -> Any:
    """A progress callback that redraws one stderr line, when stderr is a terminal."""
    if not enabled:
        return None

    def show(stats: SearchStats) -> None:
        print(
            f"\r{stats.algorithm}: depth {stats.depth}, {stats.generated:,} positions, "
            f"{stats.seconds:.1f} s ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    return show


def clear_progress() -> None:
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr, flush=True)
