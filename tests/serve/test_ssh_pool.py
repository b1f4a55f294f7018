"""The fork model with a real OpenSSH client: two players' searches run in the server's one
shared search pool (no search worker in either player's session) and each answer reaches its
asker only."""

from __future__ import annotations

import time

from kaeru.tui.serve.pty_session import session_processes
from tests.serve.conftest import Terminal, live_pids, needs_ssh, parent_of, ssh_command
from tests.serve.test_ssh_play import open_puzzle

pytestmark = needs_ssh


def pool_workers(server) -> list[int]:
    helpers = server.helper_pids()
    return [pid for pid in live_pids() if parent_of(pid) in helpers]


def test_two_players_search_in_the_shared_pool_each_for_itself(serve):
    server = serve("--guest", "--search-workers", "1")
    first = Terminal(ssh_command(server.port, "-tt"), columns=110, rows=34)
    second = Terminal(ssh_command(server.port, "-tt"), columns=110, rows=34)
    try:
        open_puzzle(first, "frogs-3")  # 15 moves
        open_puzzle(second, "flip-it-5")  # 8 moves
        arcades = server.arcade_pids()
        assert len(arcades) == 2
        first.press("s")
        second.press("s")
        assert "Solution: 15 moves" in first.wait_for("Solution: ", timeout=30)
        assert "Solution: 8 moves" in second.wait_for("Solution: ", timeout=30)
        time.sleep(0.5)
        assert "Solution: 8 moves" not in first.text()
        assert "Solution: 15 moves" not in second.text()
        for arcade in arcades:  # no search worker of its own: the arcade alone in its session
            assert session_processes(arcade) == [arcade]
        assert pool_workers(server)  # the shared pool's worker did the searching
    finally:
        first.close()
        second.close()
