"""The playback bar: where a solution's playback stands, and the keys that drive it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Static

from kaeru.engine.playback import Playback


class PlaybackBar(Static, can_focus=True):
    """Focused while a solution plays back; its keys step, play, pause and hand over."""

    HELP_SECTION: ClassVar[str] = "Playback"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,p", "command('toggle')", "Play/Pause", id="playback.toggle"),
        Binding("right,l", "command('forward')", "Step ▶", id="playback.forward"),
        Binding("left,h", "command('back')", "◀ Step", id="playback.back"),
        Binding("home", "command('first')", "First", show=False, id="playback.first"),
        Binding("end", "command('last')", "Last", show=False, id="playback.last"),
        Binding("plus,equals_sign,f", "command('faster')", "Faster", id="playback.faster"),
        Binding("minus,d", "command('slower')", "Slower", id="playback.slower"),
        Binding("t", "command('take_over')", "Take over", id="playback.take_over"),
        Binding("escape,q", "command('leave')", "Leave", id="playback.leave"),
    ]

    DEFAULT_CSS = """
    PlaybackBar { border: round $accent; padding: 0 1; height: auto; width: 100%; }
    PlaybackBar:focus { border: heavy $accent; }
    """

    class Command(Message):
        """A playback key was pressed: toggle, forward, back, first, last, faster, slower,
        take_over or leave."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.border_title = "Playback"

    def action_command(self, name: str) -> None:
        self.post_message(self.Command(name))

    def show_playback(self, playback: Playback, describe: str) -> None:
        done = playback.index
        total = max(1, playback.length)
        width = 20
        filled = round(width * done / total)
        bar = "█" * filled + "░" * (width - filled)
        state = "▶ playing" if playback.playing else "❚❚ paused"
        lines = [
            f"{state}  step {done}/{playback.length}",
            f"[{bar}]",
            f"speed {playback.interval:g} s/step",
        ]
        if describe:
            lines.append(f"last: {describe}")
        self.update(Text("\n".join(lines)))
