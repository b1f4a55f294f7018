"""`kaeru serve ssh` with a real OpenSSH client: the home screen, a puzzle, a move; the client's
terminal settings; keys as identities with separate records; limits; nothing left behind."""

from __future__ import annotations

import time
from pathlib import Path

from kaeru.engine.store import Store
from kaeru.tui.serve.ssh.pty_session import session_processes
from tests.serve.conftest import (
    Terminal,
    alive,
    make_key,
    needs_ssh,
    ssh_command,
)

pytestmark = needs_ssh
HOME_TEXT = "Kaeru Arcade"


def open_puzzle(term: Terminal, puzzle_id: str) -> None:
    """From the home screen: filter the list by the puzzle's id, Enter plays it."""
    term.wait_for(HOME_TEXT)
    time.sleep(0.5)
    term.press("/")
    time.sleep(0.5)  # the filter has the focus
    term.press(*puzzle_id)
    term.wait_for(puzzle_id)
    time.sleep(0.8)  # the list has followed the filter
    term.press("enter")
    term.wait_for(f"{puzzle_id}:")  # its game id, on the play screen
    term.wait_for("Moves: 0")
    time.sleep(0.5)


def open_flip_it_and_move(term: Terminal) -> None:
    open_puzzle(term, "flip-it-5")
    start = term.text()
    assert "│   │ ● │ ● │ ● │ ● │" in start, start
    term.press("enter")  # the cursor starts on a stone that can move: it jumps
    screen = term.wait_for("Moves: 1")
    assert "│   │ ● │ ● │ ● │ ● │" not in screen, screen


def worker(pid: int) -> bool:
    """Is `pid` a multiprocessing child (the search worker)?"""
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def environ_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {key.decode(): value.decode() for key, value in pairs}


def test_guest_plays_within_the_limits_and_with_the_clients_terminal(serve):
    server = serve(
        "--guest", "--memory-limit", "1536", "--max-sessions", "1", "--idle-timeout", "5"
    )
    client_env = "SetEnv=NO_COLOR=1 COLORTERM=truecolor KAERU_DATA_DIR=/tmp/elsewhere"
    term = Terminal(ssh_command(server.port, "-tt", "-o", client_env), columns=100, rows=30)
    try:
        open_flip_it_and_move(term)
        (arcade,) = server.arcade_pids()
        env = environ_of(arcade)
        assert env["NO_COLOR"] == "1" and env["COLORTERM"] == "truecolor"
        assert env["TERM"] == "xterm-256color"
        (guest,) = [p.name for p in server.players.iterdir()]
        assert guest.startswith("guest-")
        assert env["KAERU_DATA_DIR"] == str(server.players / guest / "data")  # not the client's
        limits = Path(f"/proc/{arcade}/limits").read_text()
        line = next(row for row in limits.splitlines() if row.startswith("Max address space"))
        assert line.split()[3:5] == [str(1536 * 2**20)] * 2

        term.resize(124, 32)  # the window grows: the arcade redraws to the new width
        term.wait_until(
            lambda screen: any(len(line.rstrip()) > 110 for line in screen.splitlines()),
            "a line drawn past the old right edge",
        )

        second = Terminal(ssh_command(server.port, "-tt"))
        try:
            second.wait_for("the arcade is full (1 players)")
            assert second.wait_exit() == 1
        finally:
            second.close()
        term.wait_for("no key pressed for 5 s; disconnected", timeout=15)
        assert term.wait_exit() == 1
    finally:
        term.close()
    no_terminal = Terminal(ssh_command(server.port, "-T"))
    try:
        no_terminal.wait_for("runs only the arcade; connect with a terminal")
        assert no_terminal.wait_exit() == 1
    finally:
        no_terminal.close()
    assert not list(server.players.iterdir())  # a guest's folder goes with the guest


def test_keys_are_players_and_their_records_stay_apart(serve, tmp_path):
    alice, bob, mallory = (make_key(tmp_path, name) for name in ("alice", "bob", "mallory"))
    authorized = tmp_path / "authorized_keys"
    authorized.write_text(Path(f"{alice}.pub").read_text() + Path(f"{bob}.pub").read_text())
    server = serve("--authorized-keys", str(authorized))

    alice_term = Terminal(ssh_command(server.port, "-tt", "-i", str(alice)))
    bob_term = Terminal(ssh_command(server.port, "-tt", "-i", str(bob)))  # both at once
    try:
        open_flip_it_and_move(alice_term)
        bob_term.wait_for(HOME_TEXT)
        for term in (alice_term, bob_term):
            term.press("ctrl+q")
            assert term.wait_exit() == 0
    finally:
        alice_term.close()
        bob_term.close()

    players = sorted(p.name for p in server.players.iterdir())
    assert len(players) == 2 and all(name.startswith("key-") for name in players)
    games = {}
    for name in players:
        store = Store.open(server.players / name / "data")
        try:
            games[name] = [game.puzzle_id for game in store.games_in_progress()]
        finally:
            store.close()
    assert sorted(map(len, games.values())) == [0, 1]  # alice's game, not in bob's store
    assert ["flip-it-5"] in games.values()

    refused = Terminal(ssh_command(server.port, "-tt", "-i", str(mallory)))
    try:
        assert refused.wait_exit() == 255
        assert "Permission denied" in refused.output()
    finally:
        refused.close()
    password = Terminal(
        ssh_command(
            server.port,
            "-tt",
            "-o",
            "BatchMode=no",
            "-o",
            "PreferredAuthentications=password,keyboard-interactive",
        )
    )
    try:
        assert password.wait_exit() == 255
        assert "Permission denied" in password.output()
        assert "password:" not in password.output().lower()
    finally:
        password.close()


def test_disconnect_during_a_search_leaves_no_process(serve):
    """The old model (a fresh arcade with its own search worker): nothing left either."""
    server = serve("--guest", "--process-model", "spawn", "--search-workers", "-1")
    term = Terminal(ssh_command(server.port, "-tt"), columns=110, rows=34)
    try:
        open_puzzle(term, "sliding-4x4")  # its start takes the solver seconds
        (arcade,) = server.arcade_pids()
        term.press("s")
        deadline = time.monotonic() + 15
        while not any(worker(pid) for pid in session_processes(arcade)):
            assert time.monotonic() < deadline, "no search worker in the arcade's session"
            time.sleep(0.1)
        time.sleep(0.5)  # the solve is under way
        members = session_processes(arcade)
        assert arcade in members
    finally:
        term.process.kill()  # the connection drops mid-search
        term.close()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in members) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in members if alive(pid)]
    while server.arcade_pids() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.arcade_pids() == []  # ended and reaped (no zombie left)
