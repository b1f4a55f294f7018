"""`kaeru serve ssh --check`: validate the configuration as the server would use it, say what
is fine and what is not (one line each), and exit without listening."""

from __future__ import annotations

from collections.abc import Callable

from kaeru.tui.serve.preflight import raise_fd_limit, table_line, tables_built, writable
from kaeru.tui.serve.ssh.server import (
    HOST_KEY_NAME,
    ServeConfig,
    ServeError,
    check_keys,
    host_key_line,
    load_host_key,
)

MIN_FILES = 256  # open files below which a few players and a login flood cannot fit


def check_lines(
    config: ServeConfig, built: Callable[[], bool] = tables_built
) -> list[tuple[bool, str]]:
    """(fine, line) for each thing the server needs."""
    lines: list[tuple[bool, str]] = []
    try:
        check_keys(config)
        who = "guest mode" if config.guest else f"keys in {config.authorized_keys}"
        lines.append((True, f"logins: {who}"))
    except ServeError as error:
        lines.append((False, str(error)))
    for folder in (config.root, config.root / "players", config.cache_dir):
        problem = writable(folder)
        lines.append((problem is None, problem or f"{folder} is writable"))
    key_path = config.root / HOST_KEY_NAME
    if key_path.exists():
        try:
            lines.append((True, host_key_line(load_host_key(key_path))))
        except ServeError as error:
            lines.append((False, str(error)))
    else:
        lines.append((True, f"host key: none yet, made at first start in {key_path}"))
    soft, hard = raise_fd_limit()
    lines.append((
        hard >= MIN_FILES,
        f"open files: {soft} (hard limit {hard}{'' if hard >= MIN_FILES else ', too few'})",
    ))
    pooled = config.search_workers >= 0  # the server's pool runs the searches
    lines.append((True, table_line(config.limits.memory_mb, built, pooled)))
    return lines
