"""The first code an SSH player's arcade process runs
(`python -m kaeru.tui.serve.processes.arcade_child MEMORY_BYTES [COMMAND...]`): make the pty
on stdin its controlling terminal (so window-size changes arrive as SIGWINCH), cap its
address space (RLIMIT_AS, soft and hard, inherited by its
search worker), start multiprocessing's resource tracker (see below), then run the arcade in
this same process (with ARGS when COMMAND is `kaeru ARGS...`), or exec COMMAND.

Done here rather than in a `preexec_fn`, which is unsafe in a server that has threads."""

from __future__ import annotations

import fcntl
import os
import sys
import termios

from kaeru.tui.serve.processes.limits import apply_memory_limit

IN_PROCESS = "kaeru"  # COMMAND ["kaeru", ARGS...]: `kaeru ARGS` in this process (as the
# warm parent's arcades do: `warm_parent.IN_PROCESS`)


def main(argv: list[str]) -> int:
    memory = int(argv[0]) if argv else 0
    try:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the server started us with setsid: a new session
    except OSError:
        pass  # not started by the server on a pty: no terminal to take
    apply_memory_limit(memory or None)
    if len(argv) > 1 and argv[1] != IN_PROCESS:
        os.execvp(argv[1], argv[1:])
    from kaeru.tui.cli.main import main as kaeru_main

    return kaeru_main(argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
