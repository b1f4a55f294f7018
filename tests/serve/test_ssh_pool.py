"""The fork model with a real OpenSSH client: two players' searches run in the server's one
shared search pool (no search worker in either player's session) and each answer reaches its
asker only; a player who disconnects mid-search frees the pool's slot at once and leaves no
process."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.service import DONE, JobKind, JobRequest, SearchService
from kaeru.tui.serve.ssh.pty_session import session_processes, stat_fields
from tests.serve.conftest import (
    CommandServer,
    Terminal,
    alive,
    live_pids,
    needs_ssh,
    parent_of,
    ssh_command,
)
from tests.serve.test_ssh_play import open_puzzle

pytestmark = needs_ssh


def pool_workers(server) -> list[int]:
    helpers = server.helper_pids()
    return [pid for pid in live_pids() if parent_of(pid) in helpers]


@pytest.mark.slow  # two real OpenSSH players and the pool: about 9 s
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


# one of the 80-move positions: with no pattern database (the tests' KAERU_PDB_BUILD=off, a fresh
# table cache) the solver's walking distance takes minutes on it
EIGHTY_MOVES = "sliding-4x4:_,12,9,13/15,11,10,14/3,7,2,5/4,8,6,1"


def cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def pool_workers_of(pool: int) -> list[int]:
    return [p for p in live_pids() if parent_of(p) == pool and "spawn_main" in str(cmdline(p))]


def cpu_ticks(pid: int) -> int:
    fields = stat_fields(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0


@pytest.mark.slow
def test_a_player_who_disconnects_mid_search_frees_the_pool_at_once(tmp_path, monkeypatch):
    server = CommandServer(tmp_path, ["kaeru", "play", EIGHTY_MOVES], search_workers=1)
    player = Terminal(ssh_command(server.port, "-tt"), columns=110, rows=34)
    other: SearchService | None = None
    try:
        player.wait_for("Moves: 0", timeout=30)
        (pool,) = [p for p in live_pids() if parent_of(p) == server.pid
                   and "kaeru.engine.service.pool_server" in cmdline(p)]
        (arcade,) = [p for p in live_pids() if parent_of(p) == server.pid
                     and stat_fields(p) is not None and int(stat_fields(p)[3]) == p]
        player.press("s")  # solve: the pool's one worker takes it (the quiet search has ended)
        player.wait_for("positions looked at", timeout=30)
        assert len(pool_workers_of(pool)) == 1 and session_processes(arcade) == [arcade]

        # another player (this test, through the same pool socket) waits behind it ...
        monkeypatch.delenv("KAERU_SEARCH_MODE", raising=False)
        monkeypatch.setenv("KAERU_SEARCH_POOL", cmdline(pool)[3])
        other = SearchService("auto")
        assert other.mode == "pool"
        puzzle = get_puzzle("frogs-3")
        start = puzzle.format(puzzle.initial())
        waiting = other.submit(JobRequest(JobKind.SOLVE, "frogs-3", start, start))
        assert waiting.wait(1.5) is None  # one worker, busy with the long solve

        player.close()  # ... until the first player's ssh client goes, mid-search
        result = waiting.wait(10)
        assert result is not None and result.outcome == DONE  # the slot was freed at once

        deadline = time.monotonic() + 10
        while alive(arcade) or session_processes(arcade):  # nothing of that session is left
            assert time.monotonic() < deadline, "the player's processes outlived the connection"
            time.sleep(0.05)
        idle = pool_workers_of(pool)
        before = sum(cpu_ticks(p) for p in idle)
        time.sleep(1.0)
        assert sum(cpu_ticks(p) for p in idle) - before <= 5  # no job left for the gone player
        assert "disconnect" in server.log()
    finally:
        if other is not None:
            other.shutdown()
        player.close()
        server.stop()
