"""KaeruApp: the Textual application — screens, the command palette entries, global keys."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import App, SystemCommand
from textual.screen import Screen

from kaeru.engine.core import BadInput
from kaeru.engine.registry import families, get_puzzle
from kaeru.engine.session import Session
from kaeru.screens.home import HomeScreen
from kaeru.screens.play import PlayScreen
from kaeru.tui import saves


class KaeruApp(App[None]):
    """The arcade. `game_id` opens a game straight away (as `kaeru play ID` does)."""

    TITLE = "Kaeru Arcade"
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, game_id: str | None = None, *, resume: bool = True) -> None:
        super().__init__()
        self.first_game = game_id
        self.resume = resume

    def on_mount(self) -> None:
        self.push_screen(HomeScreen())
        if self.first_game:
            self.open_game(self.first_game)

    # ---- opening things -------------------------------------------------------------------------
    def open_game(self, game_id: str) -> None:
        """Open `puzzle-id` (resuming its saved game) or `puzzle-id:start` (a new game)."""
        try:
            session = None
            if self.resume and ":" not in game_id:
                session = saves.load(get_puzzle(game_id).id)
            if session is None:
                session = Session.from_game_id(game_id)
        except BadInput as error:
            self.notify(str(error), title="Cannot open", severity="error")
            return
        self.open_session(session)

    def open_session(self, session: Session, *, replace: bool = False) -> None:
        if replace and isinstance(self.screen, PlayScreen):
            self.pop_screen()
        self.push_screen(PlayScreen(session))

    def open_explorer(self, puzzle_id: str) -> None:
        try:
            from kaeru.screens.explore import ExploreScreen
        except ImportError:
            self.notify("The explorer is not available yet.", severity="warning")
            return
        try:
            puzzle = get_puzzle(puzzle_id)
        except BadInput as error:
            self.notify(str(error), severity="error")
            return
        self.push_screen(ExploreScreen(puzzle, puzzle.explore_root()))

    # ---- command palette ------------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for family in families():
            for puzzle_id in family.ids:
                title = get_puzzle(puzzle_id).title
                yield SystemCommand(
                    f"Play {title}",
                    f"Open {puzzle_id} ({family.blurb})",
                    lambda pid=puzzle_id: self.open_game(pid),
                )
                yield SystemCommand(
                    f"Explore {title}",
                    f"Positions by depth for {puzzle_id}",
                    lambda pid=puzzle_id: self.open_explorer(pid),
                )
