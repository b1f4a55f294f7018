"""Today's daily puzzles: one start per family that has random games, the same for every player
on that date, each with its size, its optimal length (the 15-puzzle's once the shared place or a
win knows it: `engine.place.known_optima`) and ✓ once won today; Enter plays one. A win shows a
share line and copies it (OSC 52)."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from kaeru.engine.catalogue.daily import daily_date
from kaeru.engine.catalogue.random_games import RandomGame
from kaeru.engine.place.known_optima import with_known_optima
from kaeru.engine.place.place import Place
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.service.inline import InlineSearcher, Searcher
from kaeru.engine.service.jobs import CANCELLED, DONE, JobKind, JobRequest, JobResult
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.messages import OpenGame
from kaeru.tui.ui_thread import ui_poster
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.safe_option_list import SafeOptionList
from kaeru.tui.words import plural


class DailyScreen(Screen[None]):
    """The daily puzzles of one date (today unless told)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="daily.back"),
    ]

    def __init__(self, day: str | None = None) -> None:
        super().__init__()
        self.day = daily_date(day)
        self.games: dict[str, RandomGame] = {}

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static(f"Daily puzzles for {self.day}: the same starts for everyone today.",
                     id="daily-title")
        yield SafeOptionList(id="daily-list")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Daily {self.day}"
        self.query_one("#daily-title", Static).update(
            f"Daily puzzles for {self.day}: the same starts for everyone today. "
            "Drawing them… (the first time, a table may need building)"
        )
        self.draw()

    def draw(self) -> None:
        """The day's games as a DAILY job on the search service (the first time, a table may
        need building): no engine work on the app's threads."""
        searcher: Searcher = getattr(self.app, "service", None) or InlineSearcher()
        request = JobRequest(JobKind.DAILY, "", "", "", tag="daily", args=(self.day,))
        post = ui_poster(self.app)
        searcher.submit(request, on_done=lambda job, result: post(lambda: self.drawn(result)))

    def drawn(self, result: JobResult) -> None:
        if not self.is_attached or result.outcome == CANCELLED:
            return
        if result.outcome != DONE or not isinstance(result.value, list):
            self.notify(result.message, severity="error")
            return
        games: list[RandomGame] = result.value
        if any(game.optimal is None for game in games):
            self.add_known_optima(games)
        else:
            self.show_games(games)

    @work(thread=True, exclusive=True)
    def add_known_optima(self, games: list[RandomGame]) -> None:
        """The optima the shared place or the player's wins know: their calls may wait (I/O,
        no engine work), so off the UI thread."""
        worker = get_current_worker()
        games = self.known_optima(games)
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show_games, games)

    def known_optima(self, games: list[RandomGame]) -> list[RandomGame]:
        """`games` with the optima the shared place or the player's wins know (the 15-puzzle's
        once the server has it), from the worker thread: the place's calls may wait."""
        link = getattr(self.app, "place_link", None)
        place = getattr(link, "place", None)
        store = getattr(self.app, "store", None)
        records = store.records() if store is not None else []
        if place is not None:
            return with_known_optima(self.day, games, place, records)
        opened = Place.open()
        try:
            return with_known_optima(self.day, games, opened, records)
        finally:
            opened.close()

    def show_games(self, games: list[RandomGame]) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        won = self.wins()
        for game in games:
            self.games[game.id] = game
            optimal = f"optimal {game.optimal}" if game.optimal is not None else "optimal ?"
            title = get_puzzle(game.id).title  # with its size: "Frog jump (4 a side)"
            done = won.get(game.game_id)
            mark = f"  [b]✓[/b] {plural(done, 'move')}" if done is not None else ""
            options.add_option(Option(f"{escape(title):<30}[dim]{optimal:>12}[/dim]{mark}",
                                      id=game.id))
        self.query_one("#daily-title", Static).update(
            f"Daily puzzles for {self.day}: the same starts for everyone today.")
        options.highlighted = highlighted if highlighted is not None else (0 if games else None)
        options.focus()

    def wins(self) -> dict[str, int]:
        """Game id -> the fewest moves of a win of that day's start."""
        store = getattr(self.app, "store", None)
        if store is None:
            return {}
        won: dict[str, int] = {}
        for record in store.records():
            if record.daily == self.day:
                won[record.game_id] = min(record.move_count, won.get(record.game_id, 10**9))
        return won

    def on_screen_resume(self) -> None:
        if self.games:  # back from a game: its mark
            self.show_games(list(self.games.values()))

    @on(OptionList.OptionSelected)
    def play(self, event: OptionList.OptionSelected) -> None:
        game = self.games.get(event.option.id or "")
        if game is not None:
            self.post_message(OpenGame(game.game_id, fresh=True, daily=self.day))
