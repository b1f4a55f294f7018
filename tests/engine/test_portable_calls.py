"""Every use of a POSIX-only name of `os` or `signal` outside the servers is guarded, so the
arcade and its commands run on Windows: inside a `try` that catches AttributeError, or in a
function that asks `hasattr(os, ...)` or `sys.platform` first. (`pytest --no-posix-modules`
covers the modules `fcntl` and `resource`; this covers the names modules have only on POSIX.)"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import kaeru

REPO = Path(kaeru.__file__).resolve().parent.parent
FOLDERS = ("engine", "screens", "tui")
SERVERS = REPO / "tui" / "serve"  # POSIX only, said so by `kaeru serve`

POSIX_ONLY = {  # missing from Python 3.11 on Windows
    "os": {
        "fchmod", "fchown", "chown", "lchown", "nice", "getpriority", "setpriority", "sysconf",
        "getuid", "geteuid", "getgid", "getegid", "getpgid", "setsid", "killpg", "fork",
        "forkpty", "getloadavg", "sched_getaffinity", "statvfs", "fstatvfs", "mkfifo", "pipe2",
        "O_NONBLOCK", "O_NOFOLLOW", "O_CLOEXEC", "O_DIRECTORY", "WNOHANG", "set_blocking",
        "get_blocking", "uname", "sync", "setpgrp", "getpgrp", "wait3", "wait4", "PRIO_PROCESS",
    },
    "signal": {
        "SIGHUP", "SIGQUIT", "SIGKILL", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE", "SIGALRM",
        "SIGWINCH", "SIGTSTP", "SIGCONT", "pause", "alarm", "setitimer",
    },
}
CAUGHT = {"AttributeError", "Exception", "BaseException"}


def sources() -> Iterator[Path]:
    for folder in FOLDERS:
        for path in sorted((REPO / folder).rglob("*.py")):
            if SERVERS not in path.parents:
                yield path


def catches_attribute_error(handler: ast.ExceptHandler) -> bool:
    """Whether the handler catches AttributeError and keeps it (a handler that tidies up and
    raises again guards nothing)."""
    if any(isinstance(node, ast.Raise) for node in ast.walk(handler)):
        return False
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(n, ast.Name) and n.id in CAUGHT for n in names)


def asks_first(scope: ast.AST) -> bool:
    """Whether `scope` asks `hasattr(os, ...)` / `hasattr(signal, ...)` or reads sys.platform."""
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "hasattr":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "platform":
            return True
    return False


def unguarded(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.attr in POSIX_ONLY.get(node.value.id, ())
        ):
            continue
        child, parent = node, parents.get(node)
        guarded = False
        while parent is not None and not guarded:
            if isinstance(parent, ast.Try) and child in parent.body:
                guarded = any(catches_attribute_error(h) for h in parent.handlers)
            elif isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.If):
                guarded = asks_first(parent)
            child, parent = parent, parents.get(parent)
        if not guarded:
            where = path.relative_to(REPO)
            found.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_posix_only_names_are_used_only_behind_a_guard():
    found = [line for path in sources() for line in unguarded(path)]
    assert found == []


def test_the_check_sees_an_unguarded_use(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\n"
        "def bare(fd):\n    os.fchmod(fd, 0o644)\n"
        "def asked(fd):\n    if hasattr(os, 'fchmod'):\n        os.fchmod(fd, 0o644)\n"
        "def caught():\n    try:\n        return os.sysconf('X')\n"
        "    except (ValueError, AttributeError):\n        return 0\n"
        "def tidied(fd):\n    try:\n        os.fchmod(fd, 0)\n"
        "    except BaseException:\n        os.close(fd)\n        raise\n"
    )
    global REPO
    saved, REPO = REPO, tmp_path
    try:
        assert unguarded(sample) == ["sample.py:3: os.fchmod", "sample.py:14: os.fchmod"]
    finally:
        REPO = saved
