"""Only the arcade runs: exec requests, SFTP, local and remote forwarding are refused."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.serve.conftest import SSH_OPTIONS, Server, make_key, needs_ssh, ssh_command

pytestmark = needs_ssh


@pytest.fixture(scope="module")
def keyed(tmp_path_factory):
    """One keyed server for the module (the refusals need no arcade)."""
    root = tmp_path_factory.mktemp("keyed")
    key = make_key(root, "player")
    authorized = root / "authorized_keys"
    authorized.write_text(Path(f"{key}.pub").read_text())
    server = Server(root, "--authorized-keys", str(authorized))
    yield server, key
    server.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_exec_request_is_refused(keyed, tmp_path):
    server, key = keyed
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    run = subprocess.run(
        [*ssh_command(server.port, "-i", str(key)), "cat", str(secret)],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode != 0
    assert "top secret" not in run.stdout
    listing = subprocess.run(
        [*ssh_command(server.port, "-i", str(key)), "ls", "/"],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert listing.returncode != 0 and "proc" not in listing.stdout


def test_sftp_is_refused(keyed, tmp_path):
    server, key = keyed
    run = subprocess.run(
        [
            "sftp",
            *SSH_OPTIONS,
            "-P",
            str(server.port),
            "-i",
            str(key),
            "-b",
            "-",
            "player@127.0.0.1",
        ],
        input="ls /\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode != 0
    assert "proc" not in run.stdout


def test_local_and_remote_forwarding_are_refused(keyed):
    server, key = keyed
    local = free_port()
    tunnel = subprocess.Popen(
        [
            *ssh_command(
                server.port,
                "-i",
                str(key),
                "-N",
                "-L",
                f"127.0.0.1:{local}:127.0.0.1:{server.port}",
            )
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        received = None
        deadline = time.monotonic() + 15
        while received is None and time.monotonic() < deadline:
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", local)) != 0:
                    time.sleep(0.1)  # the client is not listening yet
                    continue
                client.settimeout(3)  # a forwarded banner arrives in milliseconds
                try:
                    received = client.recv(64)  # forwarded: the server's "SSH-2.0-" banner
                except (ConnectionResetError, TimeoutError):
                    received = b""
        assert received == b"", f"the tunnel carried {received!r}"
    finally:
        tunnel.terminate()
        try:
            tunnel.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # a loaded machine: do not wait on ssh's goodbye
            tunnel.kill()
            tunnel.communicate()

    remote = subprocess.run(
        [
            *ssh_command(
                server.port,
                "-i",
                str(key),
                "-N",
                "-o",
                "ExitOnForwardFailure=yes",
                "-R",
                f"127.0.0.1:{free_port()}:127.0.0.1:{server.port}",
            )
        ],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert remote.returncode != 0
    assert "forwarding failed" in remote.stderr
