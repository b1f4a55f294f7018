"""The settings screen: what the player chooses, kept in the store — theme, the game clock, the
coach, playback that starts by itself, the glyph set — and where the keymap file lives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.store import Store
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.keymap import keymap_path
from kaeru.tui.widgets.safe_option_list import SafeOptionList


@dataclass(frozen=True)
class Choice:
    """A setting with a few values; Enter moves to the next one."""

    key: str
    title: str
    values: tuple[str, ...]
    explain: str


CHOICES = (
    Choice("timer", "Game clock", ("on", "off"), "shows the time played on the play screen"),
    Choice("coach", "Coach", ("off", "on"), "the distance to the goal and move grading"),
    Choice("animation", "Playback", ("on", "off"),
           "on: a solution plays by itself; off: it waits on its first step"),
    Choice("glyphs", "Glyphs", ("unicode", "ascii"),
           "ascii: letters instead of ● ○ ♞ for terminals and fonts without them"),
)


def setting(store: Store, key: str) -> str:
    """The value of a setting, or its default (the first value)."""
    choice = next(c for c in CHOICES if c.key == key)
    value = store.get_setting(key)
    return value if value in choice.values else choice.values[0]


class SettingsScreen(Screen[None]):
    """Enter changes the highlighted setting; it is saved at once."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="settings.back"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield SafeOptionList(*self.options(), id="settings-list")
        yield Static(id="settings-about")
        yield Footer()

    def options(self) -> list[Option]:
        rows = [Option(f"Theme: {self.app.theme}  (ctrl+p → theme to pick by name)",
                       id="theme")]
        rows += [Option(f"{c.title}: {setting(self.store, c.key)}  — {c.explain}", id=c.key)
                 for c in CHOICES]
        return rows

    def on_mount(self) -> None:
        self.sub_title = "Settings"
        notes = [f"Keymap: {keymap_path()} (binding ids and keys; see the README)"]
        if not self.store.writable:
            notes.append("Saves are off: settings last until the arcade closes.")
        self.query_one("#settings-about", Static).update("\n".join(notes))
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def change(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        if key == "theme":
            themes = sorted(self.app.available_themes)
            at = themes.index(self.app.theme) if self.app.theme in themes else -1
            self.app.theme = themes[(at + 1) % len(themes)]
        else:
            choice = next(c for c in CHOICES if c.key == key)
            now = setting(self.store, choice.key)
            later = choice.values[(choice.values.index(now) + 1) % len(choice.values)]
            self.store.set_setting(choice.key, later)
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(self.options())
        options.highlighted = highlighted
