"""The serving parts that need no client: player names and folders, the arcade's environment,
the host key, and the command's one-line errors."""

from __future__ import annotations

import stat

import asyncssh
import pytest

from kaeru.tui.cli.commands.serve import where_message
from kaeru.tui.cli.main import main
from kaeru.tui.serve.identity import guest_player_name, key_player_name, player_folders
from kaeru.tui.serve.pty_session import arcade_environment
from kaeru.tui.serve.ssh_server import ensure_host_key


def test_key_names_are_safe_and_distinct():
    names = set()
    for _ in range(20):
        key = asyncssh.generate_private_key("ssh-ed25519")
        name = key_player_name(key.get_fingerprint("sha256"))
        assert name.startswith("key-") and "/" not in name and "+" not in name
        names.add(name)
    assert len(names) == 20
    with pytest.raises(ValueError):
        key_player_name("MD5:aa:bb")
    assert guest_player_name() != guest_player_name()


def test_player_folders_are_private_and_names_cannot_escape(tmp_path):
    folders = player_folders(tmp_path, "key-abc")
    assert folders.data.is_dir() and folders.config.is_dir()
    assert stat.S_IMODE(folders.home.stat().st_mode) == 0o700
    for bad in ("..", "../x", "a/b", ""):
        with pytest.raises(ValueError):
            player_folders(tmp_path, bad)


def test_environment_takes_only_the_terminal_settings_from_the_client(tmp_path):
    folders = player_folders(tmp_path, "guest-1")
    client = {
        "TERM": "screen-256color",
        "NO_COLOR": "1",
        "LANG": "fr_FR.UTF-8",
        "KAERU_DATA_DIR": "/elsewhere",
        "LD_PRELOAD": "/evil.so",
        "COLORTERM": "x\x1b",
    }
    env = arcade_environment(
        folders, tmp_path / "cache", client, 512, server_env={"PATH": "/bin", "SECRET_TOKEN": "s"}
    )
    assert env["TERM"] == "screen-256color" and env["NO_COLOR"] == "1"
    assert env["LANG"] == "fr_FR.UTF-8"
    assert env["KAERU_DATA_DIR"] == str(folders.data)
    assert env["KAERU_CACHE_DIR"] == str(tmp_path / "cache")
    assert "LD_PRELOAD" not in env and "SECRET_TOKEN" not in env
    assert "COLORTERM" not in env  # not printable: dropped
    assert env["KAERU_SEARCH_MEMORY_MB"] == "512"


def test_animations_are_off_unless_the_operator_turns_them_on(tmp_path):
    folders = player_folders(tmp_path, "guest-1")
    client = {"TEXTUAL_ANIMATIONS": "full"}  # not the client's to choose
    env = arcade_environment(folders, tmp_path, client, 0, server_env={"PATH": "/bin"})
    assert env["TEXTUAL_ANIMATIONS"] == "none"
    server = {"PATH": "/bin", "TEXTUAL_ANIMATIONS": "basic"}
    env = arcade_environment(folders, tmp_path, client, 0, server_env=server)
    assert env["TEXTUAL_ANIMATIONS"] == "basic"


def test_host_key_is_made_once_with_mode_0600(tmp_path):
    path = ensure_host_key(tmp_path / "serve")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    content = path.read_bytes()
    assert ensure_host_key(tmp_path / "serve") == path and path.read_bytes() == content


def test_start_line_says_whether_it_is_loopback():
    assert "loopback only" in where_message("ssh", "127.0.0.1", 2222)
    assert "loopback only" in where_message("web", "::1", 8000)
    assert "NOT loopback" in where_message("ssh", "0.0.0.0", 2222)


@pytest.mark.parametrize(
    "args",
    [
        ["serve"],
        ["serve", "ssh"],
        ["serve", "ssh", "--authorized-keys", "/nonexistent"],
        ["serve", "ssh", "--guest", "--port", "-1"],
        ["serve", "ssh", "--guest", "--max-sessions", "0"],
        ["serve", "ssh", "--guest", "--authorized-keys", "k"],
    ],
)
def test_bad_serve_arguments_are_one_line_and_exit_2(args, tmp_path, capsys):
    try:
        code = main([*args, "--data-dir", str(tmp_path)] if len(args) > 1 else args)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    errors = capsys.readouterr().err
    assert len(errors.strip().splitlines()) == 1 and "Traceback" not in errors
