"""Player identity on a shared arcade: a key's fingerprint or a guest name becomes a safe folder
name, and each player gets their own data and config folders under `<root>/players/<name>`.

Two players never share a folder: the name is derived from the whole SHA256 fingerprint (or a
random guest token), and only letters, digits, `-` and `_` reach the file system."""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from kaeru import APP_NAME  # the one app name (folders of cache, data, logs)

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def serve_root() -> Path:
    """The server's own folder in the user data folder (host key, players' folders)."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "serve"


def key_player_name(fingerprint: str) -> str:
    """`SHA256:<base64>` → `key-<url-safe base64>`, a folder name unique to that key."""
    kind, _, digest = fingerprint.partition(":")
    if kind != "SHA256" or not digest:
        raise ValueError(f"not a SHA256 fingerprint: {fingerprint!r}")
    raw = base64.b64decode(digest + "=" * (-len(digest) % 4))
    name = "key-" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
    if _UNSAFE.search(name):  # cannot happen with url-safe base64; checked all the same
        raise ValueError(f"unsafe player name {name!r}")
    return name


def guest_player_name() -> str:
    """A fresh name for one guest connection."""
    return f"guest-{secrets.token_hex(8)}"


@dataclass(frozen=True)
class PlayerFolders:
    """Where one player's arcade keeps its store (`data`) and keymap (`config`)."""

    name: str
    home: Path

    @property
    def data(self) -> Path:
        return self.home / "data"

    @property
    def config(self) -> Path:
        return self.home / "config"


def player_folders(root: Path, name: str) -> PlayerFolders:
    """Create (mode 0700) and return the folders of player `name` under `root/players`."""
    if not name or _UNSAFE.search(name) or name in {".", ".."}:
        raise ValueError(f"unsafe player name {name!r}")
    players = root / "players"
    players.mkdir(parents=True, exist_ok=True, mode=0o700)
    folders = PlayerFolders(name, players / name)
    for folder in (folders.home, folders.data, folders.config):
        folder.mkdir(exist_ok=True, mode=0o700)
    return folders
