"""A crash of the arcade, as the CLI's exit 4 does it: the traceback appended to the error log
in the log folder (`tui.cli.main.log_dir`), and one line for the player naming the error and
the file. Never raises: a log that cannot be written is said in the same line."""

from __future__ import annotations

import sys
import time
import traceback


def log_crash(error: BaseException, what: str = "the arcade") -> str:
    """Append `error`'s traceback to the error log; the one line to show for it."""
    from kaeru.tui.cli.main import log_dir

    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    try:
        text = "".join(traceback.format_exception(error))
    except Exception as format_error:  # a traceback that cannot be formatted
        text = f"{type(error).__name__}: (traceback not formatted: {format_error!r})\n"
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "kaeru-errors.log"
        with path.open("a", encoding="utf-8", errors="backslashreplace") as log:
            log.write(f"--- {stamp} {what}: kaeru {' '.join(map(repr, sys.argv[1:]))}\n{text}\n")
        where = f"the traceback is in {path}"
    except OSError as log_error:
        where = f"and the log could not be written ({log_error.strerror or log_error})"
    return f"internal error {type(error).__name__} in {what}: {where}"
