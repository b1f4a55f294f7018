"""The home screen a newcomer meets (the "Type" menu of Simon Tatham's collection is the model):
"Random game" and "Daily" entries, one line per family that opens to its sizes and variants
(each with its difficulty and the player's mark), and the curiosities that cannot be won apart,
each with the engine's proof. `/` filters by name; Enter plays; `e` explores where it can.

The difficulties and the curiosities are the engine's (`engine.catalogue.survey`), found in a
worker thread while this screen is shown and kept in the cache folder for the next launch.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.events import Key, Resize
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import OptionDoesNotExist

from kaeru.engine.catalogue.entries import catalogue, preset
from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.catalogue.random_games import has_random_games, random_game_ids
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.service.inline import InlineSearcher, Searcher
from kaeru.engine.service.jobs import CANCELLED, DONE, JobKind, JobRequest, JobResult
from kaeru.screens.home.about import about_entry, about_family, about_preset, explore_note
from kaeru.screens.home.puzzle_list import (
    DAILY_ID,
    FAMILY_PREFIX,
    NOTHING_ID,
    RANDOM_ID,
    ListView,
    best_match,
    family_id,
    group_of,
    groups,
    options,
    preset_line,
)
from kaeru.screens.home.survey import SurveyScreen
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.messages import OpenExplorer, OpenGame, OpenHelp, OpenScreen
from kaeru.tui.ui_thread import ui_poster
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.safe_option_list import SafeOptionList

SUBTITLE = "puzzles, and an engine that solves them"
WIDE = 78  # columns from which the About panel stands beside the list (else below it)
LINE_WIDTH = 44  # cells of a list line before the list is laid out


class HomeScreen(SurveyScreen):
    """Choose a family, a preset, a random game or the daily puzzles."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", priority=True, id="home.play"),
        Binding("n", "random_game", "Random", id="home.random"),
        Binding("d", "daily", "Daily", show=False, id="home.daily"),  # also a line of the list
        Binding("r", "records", "Records", id="home.records"),
        Binding("e", "explore", "Explore", id="home.explore"),
        Binding("slash", "filter", "Filter", id="home.filter"),
        Binding("escape", "clear_filter", "Clear filter", id="home.clear"),
        Binding("right", "open_group", "Open a family", show=False, id="home.open"),
        Binding("left", "close_group", "Close a family", show=False, id="home.close"),
        Binding("comma", "settings", "Settings", show=False, id="home.settings"),
        Binding("l", "place('leaderboard')", "Leaderboard", show=False, id="home.leaderboard"),
        Binding("w", "place('who')", "Who is here", show=False, id="home.who"),
        Binding("question_mark,f1", "help", "Help", id="home.help"),
        Binding("q", "app.quit", "Quit", id="home.quit"),
    ]

    def __init__(self, marks: Callable[[], dict[str, str]] | None = None) -> None:
        super().__init__([p.puzzle_id for entry in catalogue() for p in entry.presets])
        self.marks = marks or dict
        self.player_marks: dict[str, str] = {}
        self.draw_request: JobRequest | None = None  # the newest random draw asked for
        self.view = ListView()
        self.described = ""  # the line the About panel is about
        self.footer_shows: tuple[bool | None, ...] = ()
        self.laid_out_width = 0

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Input(placeholder="/ filter by name · Esc clears", id="filter")
        with Horizontal(id="lists"):
            yield SafeOptionList(id="puzzles")
            with VerticalScroll(id="about"):
                yield Static(id="about-text")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.title = "Kaeru Arcade"
        self.sub_title = SUBTITLE
        puzzles = self.query_one("#puzzles", OptionList)
        puzzles.border_title = "Puzzles"
        self.query_one("#about").border_title = "About"
        self.player_marks = self.marks()
        self.rebuild(keep=family_id(catalogue()[0].key))
        puzzles.focus()

    def line_width(self) -> int:
        """The cells a list line has (the list's gutter for a scrollbar is kept free)."""
        width = self.query_one("#puzzles", OptionList).scrollable_content_region.width
        return width if width > 0 else LINE_WIDTH

    def _fit_lines(self) -> None:
        """After a resize: lay the lines out again for the list's new width."""
        if self.line_width() != self.laid_out_width:
            self.rebuild()

    def on_resize(self, event: Resize) -> None:
        """Narrow: About under the list, a compact footer, no subtitle (nothing is cut)."""
        narrow = event.size.width < WIDE
        self.set_class(narrow, "-stacked")
        footer = self.query_one(Footer)
        footer.compact = narrow
        footer.show_command_palette = not narrow  # ctrl+p still opens it
        self.refresh_bindings()  # the footer redraws its keys
        self.sub_title = "" if narrow else SUBTITLE
        self.call_after_refresh(self._fit_lines)

    # ---- the list ------------------------------------------------------------------------------
    @property
    def highlighted_id(self) -> str | None:
        puzzles = self.query_one("#puzzles", OptionList)
        option = puzzles.highlighted_option
        return option.id if option is not None else None

    @property
    def chosen_id(self) -> str | None:
        """The highlighted preset's puzzle id (None on a family or an entry)."""
        option_id = self.highlighted_id
        if option_id is None or option_id.startswith((FAMILY_PREFIX, "entry:")):
            return None
        return option_id

    def rebuild(self, keep: str | None = None) -> None:
        """Lay the list out again, keeping the highlighted line (or `keep`) where it can."""
        puzzles = self.query_one("#puzzles", OptionList)
        wanted = keep or self.highlighted_id
        self.laid_out_width = self.line_width()
        puzzles.set_options(options(self.view, self.facts, self.player_marks, self.line_width()))
        ids = [option.id for option in puzzles.options]
        if wanted not in ids and wanted and not wanted.startswith(("entry:", FAMILY_PREFIX)):
            group = group_of(wanted, self.facts)  # a preset in a closed group: the group
            wanted = family_id(group.key) if group else None
        index = ids.index(wanted) if wanted in ids else (0 if ids else None)
        puzzles.highlighted = index
        if index is not None:
            puzzles.scroll_to_highlight()
        self.describe()

    def select_preset(self, puzzle_id: str) -> None:
        """Open `puzzle_id`'s group and highlight it (tests and the app may call this)."""
        group = group_of(puzzle_id, self.facts)
        if group is None:
            raise KeyError(puzzle_id)
        self.view = ListView(self.view.opened | {group.key}, self.view.filter)
        self.rebuild(keep=puzzle_id)

    def toggle(self, key: str, opened: bool | None = None) -> None:
        now = key in self.view.opened
        want = not now if opened is None else opened
        if want == now or self.view.filter:
            return
        opened_set = self.view.opened | {key} if want else self.view.opened - {key}
        self.view = ListView(frozenset(opened_set), self.view.filter)
        self.rebuild(keep=family_id(key))

    @on(OptionList.OptionHighlighted, "#puzzles")
    def _highlighted(self) -> None:
        self.describe()

    def describe(self) -> None:
        """Fill the About panel for the highlighted line; show the keys that apply to it."""
        option_id = self.highlighted_id or ""
        text = ""
        if option_id.startswith(FAMILY_PREFIX):
            key = option_id.removeprefix(FAMILY_PREFIX)
            group = next((g for g in groups(self.facts) if g.key == key), None)
            text = about_family(group, self.player_marks) if group else ""
        elif option_id.startswith("entry:"):
            text = about_entry(option_id)
        elif option_id:
            text = about_preset(option_id, self.facts.get(option_id), self.player_marks)
        self.query_one("#about-text", Static).update(text)
        if option_id != self.described:
            self.described = option_id
            self.query_one("#about", VerticalScroll).scroll_home(animate=False)
        self.footer_keys_may_change()

    def footer_keys_may_change(self) -> None:
        """Refresh the footer when a key comes or goes (Explore, Clear): only then, as the
        footer is built anew each time."""
        shown = (self.check_action("explore", ()), self.check_action("clear_filter", ()))
        if shown != self.footer_shows:
            self.footer_shows = shown
            self.refresh_bindings()

    @on(OptionList.OptionSelected, "#puzzles")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.activate(event.option.id)

    def activate(self, option_id: str | None) -> None:
        """What Enter does on a line: play a preset, open or close a group, an entry's job."""
        if option_id is None or option_id == NOTHING_ID:
            return
        if option_id == RANDOM_ID:
            self.draw_any()
        elif option_id == DAILY_ID:
            self.action_daily()
        elif option_id.startswith(FAMILY_PREFIX):
            self.toggle(option_id.removeprefix(FAMILY_PREFIX))
        else:
            self.post_message(OpenGame(option_id))

    # ---- the filter ----------------------------------------------------------------------------
    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.view = ListView(self.view.opened, event.value)
        self.rebuild(keep=self._best_match())

    def _best_match(self) -> str | None:
        if not self.view.filter.strip():
            return None
        lines = options(self.view, self.facts, self.player_marks, 40)
        return best_match(self.view.filter, lines)

    def on_key(self, event: Key) -> None:
        """Down from the filter goes to the list."""
        if event.key == "down" and self.focused is self.query_one("#filter", Input):
            self.query_one("#puzzles", OptionList).focus()

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        """Escape: the whole list again, the family of the preset found left open."""
        found = self.chosen_id and group_of(self.chosen_id, self.facts)
        if found:
            self.view = ListView(self.view.opened | {found.key}, self.view.filter)
        self.query_one("#filter", Input).value = ""
        self.query_one("#puzzles", OptionList).focus()

    # ---- keys ----------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Explore only on a preset the explorer can finish; Clear only while filtering."""
        if action == "explore":
            chosen = self.chosen_id
            return chosen is not None and explore_note(chosen) is None
        if action == "clear_filter":
            return bool(self.view.filter)
        return True

    def action_play(self) -> None:
        """Enter: on the list, what the line does; in the filter, play the best match (or go
        to the list when the filter matched a family)."""
        if self.focused is self.query_one("#filter", Input):
            self.query_one("#puzzles", OptionList).focus()
            if self.chosen_id is None:
                return
        self.activate(self.highlighted_id)

    def action_open_group(self) -> None:
        option_id = self.highlighted_id or ""
        if option_id.startswith(FAMILY_PREFIX):
            self.toggle(option_id.removeprefix(FAMILY_PREFIX), opened=True)

    def action_close_group(self) -> None:
        option_id = self.highlighted_id or ""
        if option_id.startswith(FAMILY_PREFIX):
            self.toggle(option_id.removeprefix(FAMILY_PREFIX), opened=False)
        elif self.chosen_id and (group := group_of(self.chosen_id, self.facts)):
            self.toggle(group.key, opened=False)

    def action_explore(self) -> None:
        if self.chosen_id:
            self.post_message(OpenExplorer(self.chosen_id))

    def action_records(self) -> None:
        self.post_message(OpenScreen("records"))

    def action_daily(self) -> None:
        self.post_message(OpenScreen("daily"))

    def action_settings(self) -> None:
        self.post_message(OpenScreen("settings"))

    def action_place(self, name: str) -> None:
        """The server's shared screens: "leaderboard", "hall", "who"."""
        self.post_message(OpenScreen(name))

    def action_help(self) -> None:
        self.post_message(OpenHelp(self.chosen_id))

    # ---- random games --------------------------------------------------------------------------
    def action_random_game(self) -> None:
        """A random start of the highlighted puzzle; on a family, of one of its puzzles; on
        anything else, of any puzzle. Drawn off the UI thread (a table may need building)."""
        option_id = self.highlighted_id or ""
        if option_id.startswith(FAMILY_PREFIX):
            offered = set(random_game_ids())
            key = option_id.removeprefix(FAMILY_PREFIX)
            ids = [
                p.puzzle_id
                for g in groups(self.facts)
                if g.key == key
                for p in g.presets
                if p.puzzle_id in offered
            ]
            if not ids:
                self.notify("This family has one start per puzzle: no random games.", timeout=3)
                return
            self.draw(secrets.choice(ids))
        elif self.chosen_id:
            if not has_random_games(get_puzzle(self.chosen_id)):
                self.notify(f"{self.chosen_id} has one start only.", timeout=3)
                return
            self.draw(self.chosen_id)
        else:
            self.draw_any()

    def draw_any(self) -> None:
        self.draw(secrets.choice(random_game_ids()))

    def draw(self, puzzle_id: str) -> None:
        self.notify(f"Drawing a random game of {get_puzzle(puzzle_id).title}…", timeout=2)
        self.draw_random(puzzle_id)

    def draw_random(self, puzzle_id: str) -> None:
        """A DRAW job on the search service (no engine work on the app's threads); only the
        newest draw's answer opens a game."""
        searcher: Searcher = getattr(self.app, "service", None) or InlineSearcher()
        request = JobRequest(JobKind.DRAW, puzzle_id, "", "", tag="draw",
                             args=(secrets.randbits(63), None))
        self.draw_request = request
        post = ui_poster(self.app)
        searcher.submit(request, on_done=lambda job, result: post(lambda: self.drawn(result)))

    def drawn(self, result: JobResult) -> None:
        if result.request != self.draw_request or result.outcome == CANCELLED:
            return
        if result.outcome == DONE and isinstance(result.value, str):
            self.post_message(OpenGame(result.value, fresh=True))
        else:
            self.notify(result.message, severity="warning")

    # ---- what the survey finds ---------------------------------------------------------------
    def on_screen_resume(self) -> None:
        """Back from a game: its progress mark may have changed; the survey goes on."""
        if not self.is_mounted:
            return
        self.player_marks = self.marks()
        self.rebuild()
        super().on_screen_resume()

    def first_to_survey(self) -> list[str]:
        """The presets of the open families."""
        return [
            p.puzzle_id for g in groups(self.facts) if g.key in self.view.opened for p in g.presets
        ]

    def facts_found(self, facts: Facts, before: Facts | None) -> None:
        """A preset's facts: its line and the About panel change; a curiosity moves apart."""
        if bool(facts.unwinnable) != bool(before is not None and before.unwinnable):
            self.rebuild()
            return
        puzzles = self.query_one("#puzzles", OptionList)
        try:
            puzzles.get_option(facts.puzzle_id)
        except OptionDoesNotExist:
            return
        puzzles.replace_option_prompt(
            facts.puzzle_id,
            preset_line(preset(facts.puzzle_id), self.facts, self.player_marks, self.line_width()),
        )
        if self.highlighted_id == facts.puzzle_id:
            self.describe()
