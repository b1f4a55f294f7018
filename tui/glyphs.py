"""Glyphs the front end shows outside the boards, chosen from those common fonts have, and the
switch between glyphs and plain letters on the boards: `KAERU_ASCII` set when the arcade starts,
or the Glyphs setting, read each time a game opens (the boards read the variable when built)."""

from __future__ import annotations

import os

HEADER_ICON = "○"  # Textual's default ⭘ (U+2B58) is missing from DejaVu Sans Mono and others

ASCII_ENV = "KAERU_ASCII"
_ASCII_AT_START = bool(os.environ.get(ASCII_ENV))  # the player's own choice: always kept


def use_ascii_boards(wanted: bool) -> None:
    """Boards built from now on draw letters when `wanted` (the Glyphs setting) or when the
    arcade was started with KAERU_ASCII set; glyphs again when the setting goes back."""
    if wanted or _ASCII_AT_START:
        os.environ[ASCII_ENV] = "1"
    else:
        os.environ.pop(ASCII_ENV, None)
