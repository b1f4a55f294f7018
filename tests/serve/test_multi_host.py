"""Several hosts, built on loopback: a real PostgreSQL (a temporary cluster), a real HAProxy in
TCP mode, two `kaeru serve ssh` processes sharing one host key and the PostgreSQL, and a real
OpenSSH client. A game started through one host is resumed through the other, and a daily win
played on one shows on the other's leaderboard. Slow: two servers, arcades and a cluster."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from kaeru.engine.catalogue.daily import daily_games
from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.search import dispatch
from kaeru.tui.serve.ssh.server import HOST_KEY_NAME
from tests.place.pg_cluster import SKIP_REASON, free_port, shared
from tests.serve.conftest import Server, Terminal, make_key, needs_ssh, ssh_command
from tests.serve.test_ssh_play import HOME_TEXT, open_puzzle

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
pytestmark = [
    needs_ssh,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(HAPROXY).is_file(),
                       reason="HAProxy not installed (.ci/run installs haproxy)"),
]

HAPROXY_CONFIG = """
global
    maxconn 64
defaults
    mode tcp
    timeout connect 5s
    timeout client 120s
    timeout server 120s
frontend arcade
    bind 127.0.0.1:{port}
    default_backend hosts
backend hosts
    balance roundrobin
    server one 127.0.0.1:{one}
    server two 127.0.0.1:{two}
"""


class Balancer:
    """HAProxy in the foreground, TCP mode, round robin over the two hosts."""

    def __init__(self, folder: Path, one: int, two: int) -> None:
        self.port = free_port()
        config = folder / "haproxy.cfg"
        config.write_text(HAPROXY_CONFIG.format(port=self.port, one=one, two=two))
        self.log = folder / "haproxy.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([HAPROXY, "-db", "-f", str(config)],
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            probe = subprocess.run(["bash", "-c", f"exec 3<>/dev/tcp/127.0.0.1/{self.port}"],
                                   capture_output=True)
            if probe.returncode == 0:
                return
            assert self.process.poll() is None, self.log.read_text()
            time.sleep(0.1)
        raise AssertionError("HAProxy did not start listening")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def daily_solution() -> tuple[str, list[str]]:
    """Today's 8-puzzle daily and the tile numbers to type for an optimal win."""
    game = next(g for g in daily_games() if g.id == "sliding-3x3")
    puzzle, start = parse_game_id(game.game_id)
    solution = dispatch.solve(puzzle, start, start)
    return game.game_id, [puzzle.format_move(m).split()[0] for m in solution.moves]


def name_of(url: str, key_player: str) -> str:
    import psycopg

    with psycopg.connect(url) as db:
        row = db.execute("SELECT name FROM kaeru_place.names WHERE player = %s",
                         (key_player,)).fetchone()
    assert row is not None, "the player has no name on the server"
    return str(row[0])


def folders(server: Server) -> list[str]:
    """The key players a host has served (their folders on that host)."""
    if not server.players.is_dir():
        return []
    return sorted(p.name for p in server.players.iterdir() if p.name.startswith("key-"))


def test_two_hosts_behind_haproxy_share_games_and_leaderboards(tmp_path: Path):
    cluster = shared()
    if cluster is None:
        pytest.skip(SKIP_REASON)
    url = cluster.new_database()
    alice, bob = make_key(tmp_path, "alice"), make_key(tmp_path, "bob")
    keys = tmp_path / "authorized_keys"
    keys.write_text(Path(f"{alice}.pub").read_text() + Path(f"{bob}.pub").read_text())
    roots = [tmp_path / "one", tmp_path / "two"]
    for root in roots:
        (root / "serve").mkdir(parents=True)
    one = Server(roots[0], "--authorized-keys", str(keys), "--store", url)
    shutil.copy2(roots[0] / "serve" / HOST_KEY_NAME, roots[1] / "serve" / HOST_KEY_NAME)
    two = Server(roots[1], "--authorized-keys", str(keys), "--store", url)
    balancer = Balancer(tmp_path, one.port, two.port)
    terms: list[Terminal] = []
    player_of: dict[str, str] = {}

    def served_by(server: Server) -> set[str]:
        return {player_of.get(name, name) for name in folders(server)}

    def connect(key: Path) -> Terminal:
        term = Terminal(ssh_command(balancer.port, "-tt", "-i", str(key)))
        terms.append(term)
        term.wait_for(HOME_TEXT, timeout=60)
        new = set(folders(one) + folders(two)) - set(player_of)
        if new:
            player_of[new.pop()] = key.name
        return term

    try:
        # Alice starts a game through one host …
        first = connect(alice)
        here, there = (one, two) if served_by(one) else (two, one)
        assert served_by(here) == {"alice"} and served_by(there) == set()
        open_puzzle(first, "flip-it-5")
        first.press("enter")
        first.wait_for("Moves: 1")
        first.press("ctrl+q")
        assert first.wait_exit(30) == 0
        # … and resumes it through the second.
        second = connect(alice)
        assert served_by(there) == {"alice"}  # round robin: the other host
        second.press("/")
        time.sleep(0.5)
        second.press(*"flip-it-5")
        second.wait_for("flip-it-5")
        time.sleep(0.8)
        second.press("enter")
        second.wait_for("Moves: 1", timeout=30)  # the saved game, from the other host
        # A daily win on the second host …
        second.press("escape")
        second.wait_for("Press Escape again")
        second.press("escape")
        second.wait_for(HOME_TEXT)
        time.sleep(0.5)
        game_id, tiles = daily_solution()
        second.press("d")
        second.wait_for("Daily puzzles for", timeout=30)
        second.wait_for("8-puzzle (3×3)", timeout=30)  # drawn (a job now): the list is there
        time.sleep(1.0)
        second.press("enter")
        second.wait_for("sliding-3x3:", timeout=30)
        second.wait_for("Moves: 0")
        time.sleep(0.5)
        for tile in tiles:
            second.press(tile)
        second.wait_for(f"Moves: {len(tiles)}", timeout=30)
        time.sleep(1.0)
        second.press("ctrl+q")
        assert second.wait_exit(30) == 0
        winner = name_of(url, folders(there)[0])
        # … shows on the first host's leaderboard, seen by Bob (round robin: that host).
        third = connect(bob)
        third.press("l")
        assert served_by(here) == {"alice", "bob"} and served_by(there) == {"alice"}
        screen = third.wait_for(winner, timeout=30)
        assert f"{len(tiles)}" in screen and "optimal" in screen
        third.press("ctrl+q")
        third.wait_exit(30)
    finally:
        for term in terms:
            term.close()
        balancer.stop()
        one.stop()
        two.stop()
