"""Choosing one's display name on the server: typed, checked (not empty, not too long, no
control characters, not someone else's) and taken in a worker; a refusal is one line under
the field. Enter takes it, Escape keeps the old one."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from kaeru.engine.place.names import MAX_LENGTH


class NameScreen(ModalScreen[str | None]):
    """Dismissed with the new name, or None when kept."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    NameScreen > Vertical { width: 60; max-width: 100%; height: auto; padding: 1 2;
                            border: round $primary; background: $surface; }
    NameScreen #name-why { height: auto; color: $warning; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "keep", "Keep", id="name.keep"),
    ]

    def compose(self) -> ComposeResult:
        link = getattr(self.app, "place_link", None)
        with Vertical():
            yield Static("Your name on this server's leaderboards (Enter takes it):")
            yield Input(value=(link.name if link is not None else "") or "",
                        max_length=MAX_LENGTH * 2, id="name-input")
            yield Static("", id="name-why")

    def action_keep(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.take(event.value)

    @work(thread=True, exclusive=True)
    def take(self, name: str) -> None:
        link = getattr(self.app, "place_link", None)
        if link is None or link.place is None:
            self.app.call_from_thread(self.refused, "The shared place is not open yet.")
            return
        why = link.place.set_name(name)
        if why is None:
            link.name = link.place.name_of()
            link.poke()
            self.app.call_from_thread(self.dismiss, link.name)
        else:
            self.app.call_from_thread(self.refused, why)

    def refused(self, why: str) -> None:
        self.query_one("#name-why", Static).update(why)
