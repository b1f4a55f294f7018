"""KaeruApp: the Textual application — screens, the player's store, the search service, the
commands provider, the keymap and the global keys. Screens post `tui.messages` to it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.screen import Screen

from kaeru.engine.game.session import Options, Session
from kaeru.engine.place.link import PlaceLink
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.text_input import split_game_id
from kaeru.engine.service import SearchService
from kaeru.engine.store import Store
from kaeru.engine.tables.folder import notices, on_notice
from kaeru.screens.help import HelpScreen
from kaeru.screens.home.screen import HomeScreen
from kaeru.screens.play.screen import PlayScreen
from kaeru.screens.settings import setting
from kaeru.tui.commands import PuzzleCommands
from kaeru.tui.crash_log import log_crash
from kaeru.tui.glyphs import use_ascii_boards
from kaeru.tui.keymap import binding_ids, check_keymap, load_keymap
from kaeru.tui.messages import OpenExplorer, OpenGame, OpenHelp, OpenScreen
from kaeru.tui.palette import few_colours, starting_theme, theme_setting
from kaeru.tui.ui_thread import ui_poster
from kaeru.tui.widgets.safe_option_list import SafeCommandPalette


class KaeruApp(App[None]):
    """The arcade. `game_id` opens a game straight away (as `kaeru play ID` does)."""

    TITLE = "Kaeru Arcade"
    CSS_PATH = "kaeru.tcss"
    COMMANDS = App.COMMANDS | {PuzzleCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, id="app.quit", priority=True),
    ]

    def __init__(
        self,
        game_id: str | None = None,
        *,
        resume: bool = True,
        data_dir: Path | None = None,
        search_mode: str | None = None,
    ) -> None:
        few = few_colours()  # 16 colours or none: ANSI colours, NO_COLOR drops them all
        super().__init__(ansi_color=True if few else None)
        self.few_colours = few
        self.first_game = game_id
        self.resume = resume
        self.store = Store.open(data_dir)
        self.service = SearchService(search_mode or os.environ.get("KAERU_SEARCH_MODE", "auto"))
        self.post_to_ui: Any = None
        self.data_dir = data_dir
        self.place_link: PlaceLink | None = None  # the shared place (engine.place.link)
        self.crash_report: str | None = None  # the one line naming a crash, once there was one

    def on_mount(self) -> None:
        self.post_to_ui = ui_poster(self)
        saved = self.store.get_setting(theme_setting(self.few_colours))
        theme = starting_theme(saved, self.available_themes, few=self.few_colours)
        if theme:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        keymap, problem = load_keymap()
        if keymap:
            self.set_keymap(keymap)
            self._check_keymap(keymap)
        on_notice(self._table_notice)
        self.store.on_notice = self._store_notice  # saves paused or back, rows passed over
        self._link_place()
        for notice in (self.store.notice, problem, *notices()):
            if notice:
                self.notify(notice, severity="warning", timeout=8)
        if self.first_game:  # home is built when the game is left (`pop_screen`)
            self.open_game(self.first_game)
        if not any(isinstance(screen, PlayScreen) for screen in self.screen_stack):
            self.push_screen(self.home_screen())

    def home_screen(self) -> HomeScreen:
        from kaeru.engine.catalogue.marks import progress_marks

        return HomeScreen(lambda: progress_marks(self.store))

    def pop_screen(self) -> AwaitComplete:
        """Back: to the screen beneath, or home where the arcade began with a game and home
        was not built yet (it takes a third of a game's start-up, so only when wanted)."""
        beneath = self.screen_stack[:-1]
        if beneath and all(type(screen) is Screen for screen in beneath):  # Textual's default
            return self.switch_screen(self.home_screen())
        return super().pop_screen()

    def action_command_palette(self) -> None:
        """The command palette, with page keys safe on a tiny terminal (safe_option_list)."""
        palette_open = self.screen.has_class("--textual-command-palette")  # CommandPalette.is_open
        if self.use_command_palette and not palette_open:
            self.push_screen(SafeCommandPalette(id="--command-palette"))

    def _link_place(self) -> None:
        """Join the shared place: the player's wins and live game go there (off this thread)."""
        from kaeru.engine.place.place import Place

        data_dir = self.data_dir
        self.place_link = PlaceLink(
            lambda: Place.open(data_dir),
            guest=os.environ.get("KAERU_PLAYER", "").startswith("guest-"),
            watchable=lambda: setting(self.store, "watching") == "on",
            playing=lambda: any(isinstance(s, PlayScreen) for s in self.screen_stack[-1:]),
            on_watched=self._watched,
        )
        self.store.on_saved = self.place_link.live
        self.store.on_finished = self.place_link.share

    def _watched(self, watched: bool) -> None:
        """Someone started watching the player's game (from the place's thread)."""
        if watched and self.is_running and self.post_to_ui is not None:
            self.post_to_ui(lambda: self.notify(
                "Someone is watching your game live (Settings → Watching: off to stop it).",
                timeout=6))

    def on_unmount(self) -> None:
        if self.place_link is not None:
            self.place_link.close()
        self.service.shutdown()
        self.store.close()

    def on_app_blur(self) -> None:
        """The terminal lost focus: the game clock stops (where the terminal reports it)."""
        if isinstance(self.screen, PlayScreen):
            self.screen.session.pause()

    def on_app_focus(self) -> None:
        if isinstance(self.screen, PlayScreen):
            self.screen.session.resume()

    @work(thread=True, exit_on_error=False, group="keymap-check")
    def _check_keymap(self, keymap: dict[str, str]) -> None:
        """Say which lines of the keymap were ignored (an unknown binding id, a bad key name);
        off the UI thread: knowing every binding id imports every screen."""
        kept, problem = check_keymap(keymap, binding_ids())
        if problem is not None:
            self.call_from_thread(self._keymap_checked, kept, problem)

    def _keymap_checked(self, kept: dict[str, str], problem: str) -> None:
        self.set_keymap(kept)
        self.notify(problem, severity="warning", timeout=10)

    def _handle_exception(self, error: Exception) -> None:
        """Any crash (a handler, a worker, the keymap): the traceback goes to the error log and
        one line names it (`crash_report`, printed by `kaeru` once the screen is given back,
        with exit code 4), never a full traceback on the terminal and exit 0."""
        if self.crash_report is None:
            self.crash_report = log_crash(error)
        super()._handle_exception(error)
        self._exit_renderables.clear()  # the traceback is in the log, the line says where

    def _store_notice(self, text: str) -> None:
        """A one-line notice from the store, told the moment it happens (from any thread)."""
        if self.is_running and self.post_to_ui is not None:
            self.post_to_ui(lambda: self.notify(text, severity="warning", timeout=10))

    def _table_notice(self, text: str) -> None:
        """A one-line notice from the table cache (it is unusable, tables stay in memory)."""
        if self.is_running:
            self.post_to_ui(lambda: self.notify(text, severity="warning"))

    def _theme_changed(self, theme: Any) -> None:
        self.store.set_setting(theme_setting(self.few_colours), self.theme)

    # ---- opening things ----------------------------------------------------------------------
    @on(OpenGame)
    def _open_game_message(self, message: OpenGame) -> None:
        self.open_game(message.game_id, fresh=message.fresh, daily=message.daily)

    @on(OpenScreen)
    def _open_screen_message(self, message: OpenScreen) -> None:
        from kaeru.screens.daily import DailyScreen
        from kaeru.screens.records import RecordsScreen
        from kaeru.screens.settings import SettingsScreen

        if message.name == "records":
            self.push_screen(RecordsScreen(self.store))
        elif message.name == "settings":
            self.push_screen(SettingsScreen(self.store))
        elif message.name == "daily":
            self.push_screen(DailyScreen())
        elif message.name == "drill":
            from kaeru.screens.coach.drill import DrillScreen

            self.push_screen(DrillScreen())
        elif message.name in ("leaderboard", "hall", "who"):
            self.open_place_screen(message.name)

    def open_place_screen(self, name: str) -> None:
        """A screen of the shared place, once the place is open (else one line why not)."""
        link = self.place_link
        if link is None or link.place is None:
            self.notify("The shared place is not open yet: try again in a moment.",
                        severity="warning")
            return
        if name == "who":
            from kaeru.screens.place.who import WhoScreen

            self.push_screen(WhoScreen(link.place))
        else:
            from kaeru.screens.place.leaderboard import LeaderboardScreen

            self.push_screen(LeaderboardScreen(link.place, hall=name == "hall"))

    @on(OpenExplorer)
    def _open_explorer_message(self, message: OpenExplorer) -> None:
        self.open_explorer(message.puzzle_id)

    @on(OpenHelp)
    def _open_help_message(self, message: OpenHelp) -> None:
        puzzle = get_puzzle(message.puzzle_id) if message.puzzle_id else None
        self.push_screen(HelpScreen(puzzle, self.screen))

    def new_session(
        self, game_id: str, *, resume: bool, daily: str | None = None
    ) -> Session[Any, Any]:
        """A game for `game_id`: when resuming, the newest saved one of that puzzle that no
        other running arcade is playing (two arcades never share a save slot); the player is
        told of saved games not opened."""
        kwargs: Options = {"searcher": self.service, "store": self.store,
                                  "post": self.post_to_ui,
                                  "autoplay": setting(self.store, "animation") == "on"}
        if resume and ":" not in game_id:
            puzzle = get_puzzle(game_id)
            saved_games = self.store.games_in_progress(puzzle.id)
            for saved in saved_games:
                if saved.slot is None or not self.store.claim(saved.slot):
                    continue
                try:
                    session = Session.from_saved(saved, **kwargs)
                except BadInput as error:  # the row stays in the store; play a new game
                    self.notify(str(error), severity="warning")
                    break
                if len(saved_games) > 1:
                    more = len(saved_games) - 1
                    self.notify(f"{more} more saved game{'s' if more > 1 else ''} of"
                                f" {puzzle.title} kept: each opens in turn once this one is"
                                " finished.", timeout=8)
                return self._coached(session)
            else:
                if saved_games:
                    self.notify(f"Your saved game of {puzzle.title} is open in another arcade:"
                                " this is a new game.", severity="warning", timeout=8)
        return self._coached(Session.from_game_id(game_id, daily=daily, **kwargs))

    def _coached(self, session: Session[Any, Any]) -> Session[Any, Any]:
        """Coach mode from the setting (off by default: nothing is spoiled)."""
        if setting(self.store, "coach") == "on":
            session.coach.enable()
        return session

    def open_game(self, game_id: str, *, fresh: bool = False, daily: str | None = None) -> None:
        """Open `puzzle-id` (resuming its saved game) or `puzzle-id:start` (a new game). A
        puzzle already open is switched to (and given the new start, if one is named)."""
        try:
            named, start_text = split_game_id(game_id)
            puzzle_id = get_puzzle(named).id
            open_screen = self.play_screen_for(puzzle_id)
            resume = self.resume and not fresh
            if open_screen is not None and (start_text is None and not fresh):
                self.bring_forward(open_screen)
                return
            session = self.new_session(game_id, resume=resume, daily=daily)
        except BadInput as error:
            self.notify(str(error), title="Cannot open", severity="error")
            return
        if open_screen is not None:
            self.bring_forward(open_screen)
            open_screen.replace_session(session)
        else:
            use_ascii_boards(setting(self.store, "glyphs") == "ascii")  # read by the boards
            self.push_screen(PlayScreen(session, show_timer=setting(self.store, "timer") == "on"))

    def play_screen_for(self, puzzle_id: str) -> PlayScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, PlayScreen) and screen.puzzle_id == puzzle_id:
                return screen
        return None

    def bring_forward(self, screen: PlayScreen) -> None:
        """Close what stands above `screen` (every game is saved as it goes)."""
        while self.screen is not screen and len(self.screen_stack) > 1:
            self.pop_screen()

    def open_explorer(self, puzzle_id: str) -> None:
        """The explorer of `puzzle_id`, or the one line saying why it cannot count it."""
        from kaeru.engine.catalogue.explorable import explore_refusal
        from kaeru.screens.explore import ExploreScreen

        try:
            puzzle = get_puzzle(puzzle_id)
        except BadInput as error:
            self.notify(str(error), severity="error")
            return
        refusal = explore_refusal(puzzle)
        if refusal is not None:
            self.notify(refusal, title="No explorer", severity="warning")
            return
        self.push_screen(ExploreScreen(puzzle, self.service))
