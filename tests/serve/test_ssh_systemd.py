"""The README's systemd unit, emulated: `kaeru serve ssh` under `ProtectSystem=strict` (without
`PrivateTmp=yes`), a bare environment and a non-root user still starts, passes `--check` and
lets a player in.

What is emulated, and how (a private mount namespace, `unshare --mount`, so nothing outside the
test sees it): the whole tree read-only (`/`, so `/tmp`, `/var/tmp` and the checkout too), but
the state and cache folders (bind mounts, as StateDirectory= and CacheDirectory= give them);
`/dev`, `/proc`, `/sys` stay as they are, as under systemd. The server runs as `nobody`
(`setpriv`) with only the variables the unit's `Environment=` and systemd's own give it (PATH,
HOME, LANG, USER, XDG_DATA_HOME, XDG_CACHE_HOME). The Python under /root is made reachable for
`nobody` inside the namespace (a tmpfs over /root with the interpreter bound back in,
read-only). Needs root and util-linux's unshare and setpriv: skipped otherwise."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.serve.conftest import Terminal, needs_ssh, ssh_command

NOBODY = 65534
PYTHON_HOME = Path(sys.base_prefix)  # the interpreter the venv was made from
KAERU = Path(sys.executable).with_name("kaeru")
SOURCE = Path(__file__).resolve().parents[2]  # the checkout the installed arcade runs from


def others_can_reach(path: Path) -> bool:
    """Whether `nobody` can walk down to `path` (every folder on the way open to others), as
    an installed arcade under /opt or /usr is: a checkout or venv in a private folder is not."""
    return all(os.stat(p).st_mode & 0o001 for p in (path, *path.parents) if p.is_dir())


pytestmark = [
    needs_ssh,
    pytest.mark.slow,  # 6-8 s on 2 shared cores
    pytest.mark.skipif(
        os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("setpriv"),
        reason="needs root, unshare and setpriv to emulate the unit",
    ),
    pytest.mark.skipif(
        not (others_can_reach(KAERU.parent) and others_can_reach(SOURCE)),
        reason="the venv or the checkout sits in a folder `nobody` cannot enter (.ci/run opens "
        "its venv's folder to others)",
    ),
]

# The namespace: writable state and cache, the interpreter reachable, everything else read-only.
CONFINE = r"""
set -e
mount --bind "$STATE" "$STATE"
mount --bind "$CACHE" "$CACHE"
if [ -n "$HIDDEN_HOME" ]; then
  mount --bind "$HIDDEN_HOME" "$STAGE"
  mount -t tmpfs -o mode=755 tmpfs "$HIDDEN_TOP"
  mkdir -p "$HIDDEN_HOME"
  mount --bind "$STAGE" "$HIDDEN_HOME"
  mount -o remount,bind,ro "$HIDDEN_HOME"
  mount -o remount,bind,ro "$HIDDEN_TOP"
fi
mount -o remount,bind,ro /
exec setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
  env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent LANG=C.UTF-8 USER=nobody \
  XDG_DATA_HOME="$STATE" XDG_CACHE_HOME="$CACHE" "$@"
"""


def confined(folder: Path, *args: str) -> list[str]:
    """`kaeru ARGS` as the unit would run it (see the module's docstring)."""
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", CONFINE, "confine",
            str(KAERU), *args]


def confined_env(folder: Path) -> dict[str, str]:
    env = dict(os.environ, STATE=str(folder / "state"), CACHE=str(folder / "cache"))
    top = Path("/", *PYTHON_HOME.parts[1:2])  # /root, when the interpreter lives there
    if top != PYTHON_HOME and not os.stat(top).st_mode & 0o001:
        env.update(HIDDEN_TOP=str(top), HIDDEN_HOME=str(PYTHON_HOME), STAGE=str(folder / "stage"))
    else:
        env["HIDDEN_HOME"] = ""
    return env


@pytest.fixture
def unit_folder():
    """State and cache folders owned by `nobody` (under the temp folder: pytest's own is
    private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="kaeru-unit-"))
    for name in ("state", "cache", "stage"):
        (folder / name).mkdir()
    for path in (folder, folder / "state", folder / "cache"):
        os.chown(path, NOBODY, NOBODY)
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_unit_starts_checks_and_serves_a_player(unit_folder: Path):
    env = confined_env(unit_folder)
    check = subprocess.run(
        confined(unit_folder, "serve", "ssh", "--guest", "--check"),
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "Traceback" not in check.stderr and "PROBLEM" not in check.stdout
    assert "using" in check.stdout and "(TMPDIR)" in check.stdout  # no temp folder: it made one

    server = subprocess.Popen(
        confined(unit_folder, "serve", "ssh", "--guest", "--port", "0"),
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    term = None
    try:
        assert server.stdout is not None
        banner = server.stdout.readline()
        assert "listening on 127.0.0.1:" in banner, banner + (server.stderr.read() if
                                                              server.poll() is not None else "")
        port = int(banner.split("127.0.0.1:")[1].split()[0])
        term = Terminal(ssh_command(port, "-tt"))
        term.wait_for("Kaeru Arcade", timeout=40)
        time.sleep(0.5)
        term.press("ctrl+q")
        assert term.wait_exit(15) == 0
    finally:
        if term is not None:
            term.close()
        server.send_signal(signal.SIGTERM)
        try:
            _, errors = server.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            _, errors = server.communicate()
    assert "Traceback" not in errors and "internal error" not in errors, errors
    state = unit_folder / "state" / "kaeru-arcade" / "serve"
    assert (state / "ssh_host_ed25519_key").stat().st_uid == NOBODY
