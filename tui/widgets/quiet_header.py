"""The play screen's header: Textual's `Header`, whose title changes repaint one line only.

Textual's header sets its title with `Static.update`, which also lays the whole screen out
again. The title is one line (no wrap) in a header of fixed height, so a new title never
changes any size; yet the play screen's clock changes it every second, and `T` (the clock on
or off) on a key: over SSH each of those was a full layout of the screen per player, the
largest part of a solver's CPU per key in `bench/key_cost.py`. Here the title repaints only.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.visual import VisualType
from textual.widgets import Header
from textual.widgets._header import HeaderClock, HeaderClockSpace, HeaderIcon, HeaderTitle


class QuietTitle(HeaderTitle):
    """A header title that never asks for a layout: its size does not depend on its text."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(content, layout=False)


class QuietHeader(Header):
    """A `Header` whose title (and sub-title, the clock) repaints without a new layout."""

    def compose(self) -> ComposeResult:
        yield HeaderIcon().data_bind(Header.icon)
        yield QuietTitle()
        if self._show_clock:
            yield HeaderClock().data_bind(Header.time_format)
        else:
            yield HeaderClockSpace()
