"""The settings screen: what the player chooses, kept in the store — theme, the game clock, the
coach, playback that starts by itself, the glyph set — where the keymap file lives, and the
cache folder of tables built on first use: where it is, how much it holds, and clearing it
(after a confirmation; a game in progress keeps its tables, and a build under way keeps its
files: `engine.catalogue.cache_folder`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.catalogue import cache_folder
from kaeru.engine.store import Store
from kaeru.engine.tables.first_use import megabytes
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.keymap import keymap_path
from kaeru.tui.serve.served import SHARED_SETTINGS_NOTE, settings_are_shared
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.safe_option_list import SafeOptionList

SettingKey = Literal["timer", "coach", "animation", "glyphs", "watching"]  # one spelling each


@dataclass(frozen=True)
class Choice:
    """A setting with a few values; Enter moves to the next one."""

    key: SettingKey
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
    Choice("watching", "Watching", ("on", "off"),
           "others on this server may watch your games live (you are told when they do)"),
)


def setting(store: Store, key: SettingKey) -> str:
    """The value of a setting, or its default (the first value)."""
    choice = next(c for c in CHOICES if c.key == key)
    value = store.get_setting(key)
    return value if value in choice.values else choice.values[0]


CACHE = "cache"  # the option id of the cache folder's row
NAME = "name"  # the player's display name on the server (engine.place.names)


def cache_row() -> str:
    """The cache folder's line: where, how big, and how to clear it."""
    size = megabytes(cache_folder.size_on_disk())
    where = cache_folder.shown_location()
    if cache_folder.shared():
        return f"Cache folder: {where} — {size}, shared by every player of this server"
    return f"Cache folder: {where} — {size}  (Enter or c: clear it)"


class ConfirmClear(ModalScreen[bool]):
    """Asks before clearing the cache folder: y or Enter clears, n or Escape keeps it."""

    DEFAULT_CSS = """
    ConfirmClear { align: center middle; }
    ConfirmClear > Vertical {
        width: 64; max-width: 100%; height: auto; padding: 1 2;
        border: round $primary; background: $surface;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Clear", id="confirm_clear.yes"),
        Binding("n,escape", "answer(False)", "Keep", id="confirm_clear.no"),
    ]

    def compose(self) -> ComposeResult:
        size = megabytes(cache_folder.size_on_disk())
        with Vertical():
            yield Static(
                f"Clear the cache folder ({size})?\n\n"
                "It holds tables built on first use. A game in progress keeps the tables it "
                "has; any other is built again when it is next needed (a few seconds, or "
                "minutes for the 15-puzzle's).\n\n"
                "y or Enter: clear it    n or Escape: keep it",
                id="confirm-clear-text",
            )

    def action_answer(self, clear: bool) -> None:
        self.dismiss(clear)


class SettingsScreen(Screen[None]):
    """Enter changes the highlighted setting; it is saved at once. The cache folder's row
    clears the folder after a confirmation."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="settings.back"),
        Binding("c", "clear_cache", "Clear cache", id="settings.clear_cache"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield SafeOptionList(*self.options(), id="settings-list")
        yield Static(id="settings-about")
        yield KeysFooter()

    def options(self) -> list[Option]:
        rows = [Option(f"Theme: {self.app.theme}  (ctrl+p → theme to pick by name)",
                       id="theme")]
        rows += [Option(f"{c.title}: {setting(self.store, c.key)}  — {c.explain}", id=c.key)
                 for c in CHOICES]
        rows.append(Option(cache_row(), id=CACHE))
        link = getattr(self.app, "place_link", None)
        if link is not None and link.name is not None:
            rows.append(Option(f"Name: {link.name}  (Enter: change it; shown on this server's"
                               " leaderboards)", id=NAME))
        return rows

    def on_mount(self) -> None:
        self.sub_title = "Settings"
        self.show_notes()
        self.query_one(OptionList).focus()

    def show_notes(self, *extra: str) -> None:
        notes = [f"Keymap: {keymap_path()} (binding ids and keys; see the README)",
                 "Cache folder: tables built when a puzzle first needs them; cleared, they "
                 "are built again when needed."]
        if not self.store.writable:
            notes.append("Saves are off: settings last until the arcade closes.")
        if settings_are_shared():
            notes.append(SHARED_SETTINGS_NOTE)
        notes += extra
        self.query_one("#settings-about", Static).update("\n".join(notes))

    def refresh_options(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(self.options())
        options.highlighted = highlighted

    def action_clear_cache(self) -> None:
        """Ask, then clear the cache folder (not a server's shared one)."""
        if cache_folder.shared():
            self.show_notes("This server's players share the cache folder: it is not "
                            "cleared from here.")
            return

        def answered(clear: bool | None) -> None:
            if clear:
                done = cache_folder.clear()
                self.refresh_options()
                self.show_notes(done.summary())

        self.app.push_screen(ConfirmClear(), answered)

    @on(OptionList.OptionSelected)
    def change(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        if key == CACHE:
            self.action_clear_cache()
            return
        if key == NAME:
            from kaeru.screens.place.name import NameScreen

            self.app.push_screen(NameScreen(), lambda _: self.refresh_options())
            return
        if settings_are_shared():  # `kaeru serve web`: the serving user's settings
            self.show_notes(SHARED_SETTINGS_NOTE)
            return
        if key == "theme":
            themes = sorted(self.app.available_themes)
            at = themes.index(self.app.theme) if self.app.theme in themes else -1
            self.app.theme = themes[(at + 1) % len(themes)]
        else:
            choice = next(c for c in CHOICES if c.key == key)
            now = setting(self.store, choice.key)
            later = choice.values[(choice.values.index(now) + 1) % len(choice.values)]
            self.store.set_setting(choice.key, later)
            link = getattr(self.app, "place_link", None)
            if link is not None:
                link.poke()  # watching on/off: told to the place at once
        self.refresh_options()
