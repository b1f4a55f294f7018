"""The playback bar: where a solution's playback stands, and the keys that drive it. It has a
boxed form (four lines) and a one-line compact form for small terminals (class `-compact`)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Static

from kaeru.engine.game.playback import Playback


class PlaybackBar(Static, can_focus=True):
    """Focused while a solution plays back; its keys step, play, pause and hand over."""

    HELP_SECTION: ClassVar[str] = "Playback"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,p", "command('toggle')", "Play", id="playback.toggle",
                tooltip="play or pause the solution"),
        Binding("left,h", "command('back')", "Step back", show=False, id="playback.back",
                tooltip="one step back"),
        Binding("right,l", "command('forward')", "Step", key_display="←→",
                id="playback.forward", tooltip="one step forward"),
        Binding("home", "command('first')", "First", show=False, id="playback.first",
                tooltip="back to the first position"),
        Binding("end", "command('last')", "Last", show=False, id="playback.last",
                tooltip="on to the last position"),
        Binding("minus,d", "command('slower')", "Slower", show=False, id="playback.slower",
                tooltip="play more slowly"),
        Binding("plus,equals_sign,f", "command('faster')", "Faster", show=False,
                id="playback.faster", tooltip="play faster"),
        Binding("t", "command('take_over')", "Take over", id="playback.take_over",
                tooltip="play on yourself from the position shown"),
        Binding("escape,q", "command('leave')", "Leave", id="playback.leave",
                tooltip="leave the playback, back to your own game"),
    ]

    DEFAULT_CSS = """
    PlaybackBar { border: round $accent; padding: 0 1; height: auto; width: 100%; }
    PlaybackBar:focus { border: heavy $accent; }
    PlaybackBar.-compact { border: none; padding: 0; height: 1; }
    PlaybackBar.-compact:focus { text-style: bold; }
    """

    class Command(Message):
        """A playback key was pressed: toggle, forward, back, first, last, faster, slower,
        take_over or leave."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Playback"
        self.lines: list[str] = []
        self.line = ""
        self._rows = 0  # lines of the text shown

    def action_command(self, name: str) -> None:
        self.post_message(self.Command(name))

    def set_compact(self, compact: bool) -> None:
        """One line without a box (small terminals), or the boxed form."""
        if compact != self.has_class("-compact"):
            self.set_class(compact, "-compact")
            self._draw()

    def show_playback(self, playback: Playback[object, object], describe: str) -> None:
        done = playback.index
        total = max(1, playback.length)
        state = "▶ playing" if playback.playing else "❚❚ paused"
        speed = f"{playback.interval:g} s a step"
        self.lines = [
            f"{state}  step {done}/{playback.length}",
            f"[{self._bar(done, total, 20)}]",
            speed,
        ]
        if describe:
            self.lines.append(f"last: {describe}")
        sign = "▶" if playback.playing else "❚❚"
        self.line = f"Playback {sign} {done}/{playback.length} {self._bar(done, total, 12)}"
        self.line += f" {speed}" + (f" · {describe}" if describe else "")
        self._draw()

    @staticmethod
    def _bar(done: int, total: int, width: int) -> str:
        filled = round(width * done / total)
        return "█" * filled + "░" * (width - filled)

    def _draw(self) -> None:
        """Show the text; a new layout of the screen only when its number of lines changed (a
        playback step changes the figures, not the height: its lines never wrap)."""
        text = self.line if self.has_class("-compact") else "\n".join(self.lines)
        rows = text.count("\n") + 1
        self.update(Text(text, no_wrap=True, overflow="ellipsis"), layout=rows != self._rows)
        self._rows = rows
