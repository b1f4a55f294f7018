"""Snapshot tests in 16 colours at 80×24: home, a row board and a holes board as a terminal with
`TERM=xterm` (no `COLORTERM`) shows them.

The app runs as it does in such a terminal (the ANSI theme, tui/palette.py); one more line filter
rounds every colour to the 16 as Rich does when Textual writes to that terminal, so the image
holds only colours the terminal has. Plain `def` tests: snap_compare runs its own event loop."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter
from textual.pilot import Pilot

from kaeru.tui.app import KaeruApp
from tests.app.conftest import SNAPSHOT_SIZE, settle


class SixteenColours(LineFilter):
    """Round every colour to the terminal's 16, as Rich does on output (Color.downgrade)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        rounded = []
        for text, style, control in segments:
            if style is not None and (style.color or style.bgcolor):
                color = style.color and style.color.downgrade(ColorSystem.STANDARD)
                bgcolor = style.bgcolor and style.bgcolor.downgrade(ColorSystem.STANDARD)
                style = style + Style.from_color(color, bgcolor)
            rounded.append(Segment(text, style, control))
        return rounded


class SixteenColourApp(KaeruApp):
    """The arcade with its screen rounded to 16 colours (for the snapshot only)."""

    CSS_PATH = str(Path(inspect.getfile(KaeruApp)).parent / "kaeru.tcss")

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), SixteenColours()]


@pytest.fixture
def app16(monkeypatch: pytest.MonkeyPatch):
    """`app16(game_id)`: an app as a 16-colour terminal runs it, no resumed game, no clock."""
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.delenv("TEXTUAL_COLOR_SYSTEM", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)

    def make(game_id: str | None = None) -> SixteenColourApp:
        app = SixteenColourApp(game_id, resume=False)
        app.store.set_setting("timer", "off")
        assert app.few_colours
        return app

    return make


def test_home_in_16_colours(snap_compare, app16):
    assert snap_compare(app16(), terminal_size=SNAPSHOT_SIZE, run_before=settle)


def test_row_board_in_16_colours(snap_compare, app16):
    """Frog jump after two moves: black and white frogs, the cursor and the last move."""

    async def two_moves(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("3", "enter", "5", "enter")
        await settle(pilot)

    assert snap_compare(app16("frogs-3"), terminal_size=SNAPSHOT_SIZE, run_before=two_moves)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
def test_holes_board_in_16_colours(snap_compare, app16):
    """Knights with a white knight picked: its targets shown."""

    async def pick(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app16("knights-3x3"), terminal_size=SNAPSHOT_SIZE, run_before=pick)
