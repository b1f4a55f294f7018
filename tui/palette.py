"""The theme that suits the terminal: in a terminal of 16 colours (or none) the arcade starts in
Textual's ANSI theme, whose colours are the terminal's own, instead of a true-colour theme that
the terminal would round to its nearest 16 (orange becomes bright red, greys collapse).

Textual writes 24-bit colours and lets Rich round them to what the terminal has. Rich finds that
from the environment: `COLORTERM=truecolor|24bit` means 24-bit, `TERM=...-256color` 256 colours,
any other `TERM` 16 colours (`xterm`, `screen`, `linux`), `TERM=dumb` none;
`TEXTUAL_COLOR_SYSTEM` overrides it all. The theme chosen is remembered apart for each kind of
terminal, so a theme picked in a true-colour terminal never lands in a 16-colour one."""

from __future__ import annotations

import io
import os
from collections.abc import Collection, Mapping
from typing import Literal

from rich.console import Console

ANSI_THEME = "ansi-dark"
"""The theme for few colours: the terminal's default foreground and background, its 16 named
colours for accents, and text styles (bold, reverse) where a true-colour theme uses shades."""

FEW_COLOUR_SYSTEMS = (None, "standard", "windows")
ColorSystem = Literal["auto", "standard", "256", "truecolor", "windows"]
# TEXTUAL_COLOR_SYSTEM's values rich knows; any other reads as "auto" (rich refuses it)
COLOR_SYSTEMS: dict[str, ColorSystem] = {
    "auto": "auto", "standard": "standard", "256": "256", "truecolor": "truecolor",
    "windows": "windows",
}


def colour_system(environ: Mapping[str, str] | None = None) -> str | None:
    """The colour system Textual will write in: "truecolor", "256", "standard", "windows", or
    None (no colour), read from the environment as Textual's own console reads it."""
    env = dict(os.environ if environ is None else environ)
    console = Console(
        file=io.StringIO(),
        force_terminal=True,
        color_system=COLOR_SYSTEMS.get(env.get("TEXTUAL_COLOR_SYSTEM", "auto"), "auto"),
        _environ=env,
    )
    return console.color_system


def few_colours(environ: Mapping[str, str] | None = None) -> bool:
    """True when the terminal shows 16 colours or none (so the ANSI theme suits it)."""
    return colour_system(environ) in FEW_COLOUR_SYSTEMS


def theme_setting(few: bool) -> str:
    """The store's setting that remembers the theme for this kind of terminal."""
    return "theme-16" if few else "theme"


def starting_theme(saved: str | None, available: Collection[str], *, few: bool) -> str | None:
    """The theme to start in: the one saved for this kind of terminal if it still exists, else
    the ANSI theme when colours are few, else None (Textual's default theme)."""
    if saved and saved in available:
        return saved
    return ANSI_THEME if few else None
