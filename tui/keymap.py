"""The player's keymap: `keymap.toml` in the user config folder (`KAERU_CONFIG_DIR` overrides)
maps binding ids to keys, e.g.

    [keys]
    "play.undo" = "z,backspace"
    "play.hint" = "question_mark"

Every binding of the arcade has an id (`app.`, `home.`, `play.`, `board.`, `playback.` ...);
the help screen lists them with the keys in force. A file that cannot be read is ignored with
one line saying why; an entry naming no binding of the arcade, or a key Textual has no name for,
is dropped and one line names the lines of the file that were ignored (`check_keymap`)."""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import tomllib
import unicodedata
from collections.abc import Iterable
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
    except RecursionError:  # thousands of nested arrays or tables
        return {}, f"Keymap ignored: {path}: nested too deeply to read."
    keys = data.get("keys", {})
    if not isinstance(keys, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in keys.items()
    ):
        return {}, f"Keymap ignored: {path}: [keys] must map binding ids to key strings."
    return dict(keys), None


MODIFIERS = {"ctrl", "shift", "alt", "meta", "super", "hyper"}


def key_problem(keys: str) -> str | None:
    """Why `keys` (comma-separated Textual key names) cannot be bound, or None when it can."""
    from textual.keys import Keys, key_to_character

    named = {key.value for key in Keys}
    for key in keys.split(","):
        key = key.strip()
        *modifiers, base = key.split("+") if key != "+" else [key]
        if not key or not base or any(m not in MODIFIERS for m in modifiers):
            return f"bad key {key!r}"
        if len(base) == 1 or base in named or key in named or key_to_character(base):
            continue
        try:
            unicodedata.lookup(base.replace("_", " "))
        except KeyError:
            return f"bad key {key!r}"
    return None


def binding_ids(modules: Iterable[str] = ("kaeru.screens", "kaeru.tui.widgets")) -> set[str]:
    """The id of every binding of the arcade (its screens and widgets are imported: call it off
    the UI thread)."""
    from textual.binding import Binding
    from textual.dom import DOMNode

    for name in modules:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, f"{name}."):
            importlib.import_module(info.name)
    importlib.import_module("kaeru.tui.app")
    found: set[str] = set()
    seen: set[type] = set()
    stack: list[type] = [DOMNode]
    while stack:
        node = stack.pop()
        subclasses: list[type] = node.__subclasses__()
        for sub in subclasses:
            if sub not in seen:
                seen.add(sub)
                stack.append(sub)
        for binding in node.__dict__.get("BINDINGS", ()):
            if isinstance(binding, Binding) and binding.id:
                found.add(binding.id)
    return found


def check_keymap(
    keymap: dict[str, str], known: set[str], path: Path | None = None
) -> tuple[dict[str, str], str | None]:
    """(`keymap` without the entries that name no binding in `known` or a bad key, one line
    naming the lines of the file that were ignored, or None)."""
    path = path or keymap_path()
    kept: dict[str, str] = {}
    ignored: list[tuple[str, str]] = []
    for binding_id, keys in keymap.items():
        problem = (
            f"no binding {binding_id!r}" if binding_id not in known else key_problem(keys)
        )
        if problem is None:
            kept[binding_id] = keys
        else:
            ignored.append((binding_id, problem))
    if not ignored:
        return kept, None
    lines = _line_numbers(path, [binding_id for binding_id, _ in ignored])
    said = "; ".join(
        f"line {lines[binding_id]}: {problem}" if binding_id in lines else problem
        for binding_id, problem in ignored
    )
    return kept, f"Keymap {path}: ignored {said}."


def _line_numbers(path: Path, binding_ids: list[str]) -> dict[str, int]:
    """The line of the file where each binding id is given (first match), where found."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return {}
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        for binding_id in binding_ids:
            quoted = rf"""(["']){re.escape(binding_id)}\1|{re.escape(binding_id)}"""
            if binding_id not in found and re.match(rf"\s*(?:{quoted})\s*=", line):
                found[binding_id] = number
    return found
