"""The player's keymap: `keymap.toml` in the user config folder (`KAERU_CONFIG_DIR` overrides)
maps binding ids to keys, e.g.

    [keys]
    "play.undo" = "z,backspace"
    "play.hint" = "question_mark"

Every binding of the arcade has an id (`app.`, `home.`, `play.`, `board.`, `playback.` ...);
the help screen lists them with the keys in force."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import platformdirs

MAX_BYTES = 64 * 1024


def keymap_path() -> Path:
    override = os.environ.get("KAERU_CONFIG_DIR")
    base = Path(override) if override else Path(platformdirs.user_config_dir("kaeru-arcade"))
    return base / "keymap.toml"


def load_keymap(path: Path | None = None) -> tuple[dict[str, str], str | None]:
    """(binding id -> keys, a one-line problem to show or None). A bad file is ignored."""
    path = path or keymap_path()
    try:
        if not path.is_file():
            return {}, None
        if path.stat().st_size > MAX_BYTES:
            return {}, f"Keymap ignored: {path} is over {MAX_BYTES // 1024} KiB."
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return {}, f"Keymap ignored: {path}: {str(error).splitlines()[0]}"
    keys = data.get("keys", {})
    if not isinstance(keys, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in keys.items()
    ):
        return {}, f"Keymap ignored: {path}: [keys] must map binding ids to key strings."
    return dict(keys), None
