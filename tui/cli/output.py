"""Printing results: text or JSON on stdout, a live progress line on stderr when it is a
terminal."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kaeru.engine.rules.protocol import ASCII_MOVE_TEXT, SearchStats

# What a terminal that cannot show a glyph gets instead (PYTHONIOENCODING=ascii, a C locale).
ASCII_FALLBACKS = str.maketrans(
    {
        **ASCII_MOVE_TEXT,  # arrows and dashes: the engine's own table for move words
        "↑": "^",
        "↓": "v",
        "…": "...",
        "·": ".",
        "●": "o",
        "○": ".",
        "◯": "O",
        "■": "#",
        "□": ".",
        "♞": "N",
        "♘": "n",
        "’": "'",
        "“": '"',
        "”": '"',
        "✓": "ok",
        "½": "1/2",
    }
)


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    """Print a result on stdout: JSON with `--json`, else the text (ASCII fallbacks for the
    glyphs stdout's encoding cannot carry)."""
    if getattr(args, "json", False):
        ascii_only = not can_encode(sys.stdout, "→—×")
        print(json.dumps(data, ensure_ascii=ascii_only))
    else:
        print(fit_encoding(text, sys.stdout))


def can_encode(stream: Any, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def fit_encoding(text: str, stream: Any) -> str:
    """`text` as `stream` can write it: glyphs replaced by ASCII fallbacks, anything else the
    encoding lacks escaped (`\\u00e9`)."""
    if can_encode(stream, text):
        return text
    encoding = getattr(stream, "encoding", None) or "ascii"
    simpler = text.translate(ASCII_FALLBACKS)
    try:
        return simpler.encode(encoding, errors="backslashreplace").decode(encoding)
    except LookupError:
        return simpler.encode("ascii", errors="backslashreplace").decode("ascii")


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
