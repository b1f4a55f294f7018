"""Who is here: the players of this server online now, what each plays, and whether they let
others watch; Enter watches the one under the cursor. The list follows the heartbeats."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.place.place import Place, Presence
from kaeru.engine.rules.words import clock
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.safe_option_list import SafeOptionList
from kaeru.tui.words import plural

REFRESH_SECONDS = 1.0


def presence_line(presence: Presence, me: str) -> str:
    you = " (you)" if presence.player == me else ""
    if presence.puzzle_id is None:
        doing = "looking around"
    else:
        doing = (f"playing {presence.puzzle_id} · {plural(len(presence.moves), 'move')}"
                 f" · {clock(presence.seconds)}")
    watch = "" if presence.watchable else " · watching off"
    return f"{escape(presence.name)}{you} — {doing}{watch}"


class WhoScreen(Screen[None]):
    """Players online; Enter watches one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="who.back"),
    ]

    def __init__(self, place: Place) -> None:
        super().__init__()
        self.place = place
        self.here: dict[str, Presence] = {}

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static("Who is here", id="who-title")
        yield SafeOptionList(id="who-list")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "Who is here"
        self.load()
        self.set_interval(REFRESH_SECONDS, self.load)

    @work(thread=True, exclusive=True)
    def load(self) -> None:
        here = self.place.online()
        self.app.call_from_thread(self.show, here)

    def show(self, here: list[Presence]) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        self.here = {p.player: p for p in here}
        options.clear_options()
        for presence in here:
            options.add_option(Option(presence_line(presence, self.place.player),
                                      id=presence.player))
        count = len(here)
        self.query_one("#who-title", Static).update(
            f"{plural(count, 'player')} here now (Enter: watch a game)" if count
            else "No one is here just now.")
        if count:
            options.highlighted = min(highlighted or 0, count - 1)
        options.focus()

    @on(OptionList.OptionSelected)
    def open_watch(self, event: OptionList.OptionSelected) -> None:
        from kaeru.screens.place.watch import WatchScreen

        presence = self.here.get(event.option.id or "")
        if presence is None:
            return
        if presence.player == self.place.player:
            self.notify("That is you.", timeout=3)
        elif not presence.watchable:
            self.notify(f"{presence.name} has watching off.", severity="warning")
        else:
            self.app.push_screen(WatchScreen(self.place, presence.player, presence.name))
