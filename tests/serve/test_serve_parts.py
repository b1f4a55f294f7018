"""The serving parts that need no client: player names and folders, the arcade's environment
(and whether it may build the large tables), window sizes, the admission caps, the host key,
stale guest folders, `--check`, and the command's one-line errors."""

from __future__ import annotations

import resource
import stat

import asyncssh
import pytest

from kaeru.tui.cli.commands.serve import where_message
from kaeru.tui.cli.main import main
from kaeru.tui.serve.preflight import table_line
from kaeru.tui.serve.processes.limits import MAX_COLUMNS, MAX_ROWS, SessionLimits, clamp_size
from kaeru.tui.serve.ssh.admission import Admission, login_caps
from kaeru.tui.serve.ssh.identity import guest_player_name, key_player_name, player_folders
from kaeru.tui.serve.ssh.pty_session import PDB_BUILD_MEMORY_MB, arcade_environment
from kaeru.tui.serve.ssh.server import ensure_host_key, remove_stale_guests


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
        ["serve", "ssh", "--guest", "--search-workers", "-2"],
        ["serve", "ssh", "--guest", "--process-model", "thread"],
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


OFF = {"KAERU_PDB_BUILD": "off"}


def test_an_arcade_under_the_memory_limit_never_builds_the_large_tables(tmp_path):
    folders = player_folders(tmp_path, "guest-1")
    server = {"PATH": "/bin"}
    limited = arcade_environment(folders, tmp_path, {}, 1024, server_env=server)
    assert limited["KAERU_PDB_BUILD"] == "middle"  # 7-8 loaded if built, never built
    off = arcade_environment(folders, tmp_path, {}, 1024, server_env={**server, **OFF})
    assert off["KAERU_PDB_BUILD"] == "off"  # the operator's choice stays
    for roomy in (0, PDB_BUILD_MEMORY_MB):  # the default limit holds a build
        env = arcade_environment(folders, tmp_path, {}, roomy, server_env=server)
        assert "KAERU_PDB_BUILD" not in env
    said = table_line(1024, built=lambda: False)
    assert "not built" in said and "kaeru tables build" in said and "1024" in said
    assert "builds them" in table_line(PDB_BUILD_MEMORY_MB, built=lambda: False)
    assert "are built" in table_line(1024, built=lambda: True)


def test_the_table_line_names_who_builds_the_tables():
    """A served arcade searches in the server's pool: the pool builds and maps the tables,
    unless the server runs without one (--search-workers -1)."""
    for built in (False, True):
        pooled = table_line(PDB_BUILD_MEMORY_MB, built=lambda built=built: built)
        alone = table_line(PDB_BUILD_MEMORY_MB, built=lambda built=built: built, pooled=False)
        assert "search pool" in pooled and "arcade" not in pooled, pooled
        assert "arcade" in alone and "pool" not in alone, alone
    limited = table_line(1024, built=lambda: False)
    assert "the search pool under --memory-limit 1024 MB does not build them" in limited


def test_window_sizes_are_clamped():
    assert clamp_size(70000, 24) == (MAX_COLUMNS, 24)
    assert clamp_size(0, -5) == (1, 1)
    assert clamp_size(16000, 8000) == (MAX_COLUMNS, MAX_ROWS)


def test_admission_caps_logins_and_sessions_per_address_and_per_key():
    admission = Admission(SessionLimits(max_sessions=5, max_per_player=2, max_per_address=3),
                          *login_caps(64))
    assert login_caps(64) == (8, 2) and login_caps(1_000_000) == (64, 10)
    assert admission.try_connect("a") is None and admission.try_connect("a") is None
    assert "from a" in (admission.try_connect("a") or "")
    assert admission.try_connect("b") is None
    admission.leave_login("a")
    assert admission.try_connect("a") is None
    assert admission.try_session("k1", "a") is None and admission.try_session("k1", "b") is None
    assert "this key" in (admission.try_session("k1", "c") or "")
    assert admission.try_session("k2", "a") is None and admission.try_session("k3", "a") is None
    assert "from your address" in (admission.try_session("k4", "a") or "")
    assert admission.try_session("k4", "b") is None
    assert "full" in (admission.try_session("k5", "c") or "")
    admission.leave_session("k1", "a")
    assert admission.try_session("k5", "c") is None


def test_stale_guest_folders_go_at_start_and_keys_stay(tmp_path):
    for name in ("guest-0123", "guest-4567", "key-abc"):
        player_folders(tmp_path, name)
    assert remove_stale_guests(tmp_path) == 2
    assert [p.name for p in (tmp_path / "players").iterdir()] == ["key-abc"]


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "ssh", "--guest", "--memory-limit", "512"],
        ["serve", "ssh", "--guest", "--stall-timeout", "0"],
        ["serve", "ssh", "--guest", "--max-per-key", "0"],
    ],
)
def test_limits_that_cannot_work_are_one_line_and_exit_2(args, tmp_path, capsys):
    assert main([*args, "--data-dir", str(tmp_path)]) == 2
    errors = capsys.readouterr().err
    assert len(errors.strip().splitlines()) == 1 and "Traceback" not in errors


def test_an_empty_host_key_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "ssh_host_ed25519_key").write_bytes(b"")
    code = main(["serve", "ssh", "--guest", "--port", "0", "--data-dir", str(tmp_path)])
    errors = capsys.readouterr().err
    assert code == 2 and "host key" in errors and "empty" in errors
    assert len(errors.strip().splitlines()) == 1 and "Traceback" not in errors


def test_check_validates_and_exits(tmp_path, capsys):
    (tmp_path / "keys").write_text("not a key\n")
    base = ["serve", "ssh", "--check", "--data-dir", str(tmp_path / "serve")]
    assert main([*base, "--guest"]) == 0
    said = capsys.readouterr().out
    assert "ok: logins: guest mode" in said and "is writable" in said
    assert "pattern databases" in said
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    assert f"open files: {hard} (hard limit {hard}" in said  # raised to the hard limit
    assert main([*base, "--authorized-keys", str(tmp_path / "keys")]) == 2
    assert "PROBLEM: no usable public key" in capsys.readouterr().out


def test_the_web_page_s_own_origins():
    from kaeru.tui.serve.web.server import own_origins

    local = own_origins("127.0.0.1", 8000, None)
    assert {"http://127.0.0.1:8000", "http://localhost:8000"} <= local
    assert "http://127.0.0.1:8001" not in local and "null" not in local
    assert "https://arcade.example" in own_origins("127.0.0.1", 8000, "https://arcade.example/x")
