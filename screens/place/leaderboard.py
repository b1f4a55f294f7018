"""The daily leaderboards: one daily puzzle at a time (← → or [ ] for the others), its clean
games ranked — the optimum reached first, then fewest moves, then time — and the helped ones
listed apart; the player's own rank and streak, and their last days on that puzzle. Enter
replays the game under the cursor; h shows the puzzle's hall of fame (best clean results)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from kaeru.engine.catalogue.daily import DAILY_IDS, daily_date
from kaeru.engine.place.optima import daily_optima, optimum_request, unknown_daily
from kaeru.engine.place.place import Place
from kaeru.engine.place.ranking import Board, Result
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.words import clock
from kaeru.engine.service.jobs import DONE
from kaeru.screens.engine_job import await_job
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.widgets.keys_footer import KeysFooter

LAST_DAYS = 7


def mark(result: Result) -> str:
    if result.optimal_reached:
        return "optimal"
    return "–" if result.over is None else f"+{result.over}"


class LeaderboardScreen(Screen[None]):
    """A day's daily leaderboards, or (hall of fame) a puzzle's best clean results."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="leaderboard.back"),
        Binding("right,right_square_bracket", "turn(1)", "Next puzzle", key_display="→",
                id="leaderboard.next"),
        Binding("left,left_square_bracket", "turn(-1)", "Previous", show=False,
                id="leaderboard.previous"),
        Binding("h", "hall", "Hall of fame", id="leaderboard.hall"),
    ]

    def __init__(self, place: Place, day: str | None = None, puzzle_id: str | None = None,
                 hall: bool = False) -> None:
        super().__init__()
        self.place = place
        self.day = daily_date(day)
        self.puzzle_id = puzzle_id if puzzle_id in DAILY_IDS else DAILY_IDS[0]
        self.hall = hall
        self.rows: dict[str, Result] = {}

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static(id="leaderboard-title")
        yield DataTable(id="leaderboard-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="leaderboard-you")
        yield KeysFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("rank", "name", "moves", "optimum", "time", "hints")
        self.load()

    def action_turn(self, step: int) -> None:
        at = DAILY_IDS.index(self.puzzle_id)
        self.puzzle_id = DAILY_IDS[(at + step) % len(DAILY_IDS)]
        self.load()

    def action_hall(self) -> None:
        self.hall = not self.hall
        self.load()

    @work(thread=True, exclusive=True, group="leaderboard-load")
    def load(self) -> None:
        place, puzzle_id = self.place, self.puzzle_id
        optimum = daily_optima(place, self.day).get(puzzle_id)
        if self.hall:
            board = Board(ranked=place.hall_of_fame(puzzle_id))
            you = ""
        else:
            board = place.daily_board(puzzle_id, self.day)
            you = self.own_lines(board)
        self.app.call_from_thread(self.show, puzzle_id, board, you, optimum)
        if optimum is None and not self.hall:
            game_id = unknown_daily(place, self.day, puzzle_id)
            if game_id is not None:
                self.app.call_from_thread(self.find_optimum, puzzle_id, game_id)

    @work(exclusive=True, group="leaderboard-optimum", exit_on_error=False)
    async def find_optimum(self, puzzle_id: str, game_id: str) -> None:
        """The day's optimum not known yet on this server (the 15-puzzle's): a search of the
        search service (cancelled with the screen), stored for every arcade of the server,
        then the board is ranked against it."""
        result = await await_job(self.app, optimum_request(game_id))
        solution = result.solution
        if result.outcome == DONE and solution is not None and solution.optimal:
            self.store_optimum(puzzle_id, game_id, solution.length)

    @work(thread=True, exclusive=True, group="leaderboard-store")
    def store_optimum(self, puzzle_id: str, game_id: str, length: int) -> None:
        self.place.set_optimum(self.day, puzzle_id, game_id, length)
        self.app.call_from_thread(self.load)

    def own_lines(self, board: Board) -> str:
        """The player's rank and streak, and their last days on this puzzle."""
        place = self.place
        rank = board.rank_of(place.player)
        streak = place.streak(today=date.fromisoformat(self.day))
        lines = [
            (f"Your rank: {rank} of {len(board.ranked)}" if rank else "You have no clean win"
             " on this one today") + f" · daily streak: {streak} day{'s' if streak != 1 else ''}"
        ]
        days = []
        for back in range(1, LAST_DAYS + 1):
            day = (date.fromisoformat(self.day) - timedelta(days=back)).isoformat()
            past = place.daily_board(self.puzzle_id, day)
            place_rank = past.rank_of(place.player)
            mine = [r for r in (*past.ranked, *past.helped) if r.player == place.player]
            if mine:
                days.append(f"{day[5:]}: {mine[0].move_count} ({mark(mine[0])})"
                            + (f" #{place_rank}" if place_rank else " helped"))
        lines.append("Last days: " + (" · ".join(days) if days else "no wins"))
        return "\n".join(lines)

    def show(self, puzzle_id: str, board: Board, you: str, optimum: int | None) -> None:
        title = get_puzzle(puzzle_id).title
        self.sub_title = "Hall of fame" if self.hall else f"Leaderboard {self.day}"
        what = "hall of fame: best clean results" if self.hall else f"daily of {self.day}"
        known = f"optimum {optimum}" if optimum is not None else "optimum: working it out…"
        self.query_one("#leaderboard-title", Static).update(
            f"{title} — {what} · {known}  (← → other puzzles, Enter replays)")
        table = self.query_one(DataTable)
        table.clear()
        self.rows.clear()
        for n, result in enumerate(board.ranked, 1):
            key = f"r{result.id}"
            self.rows[key] = result
            table.add_row(str(n), result.name, str(result.move_count), mark(result),
                          clock(result.seconds), str(result.hints), key=key)
        for result in board.helped:
            key = f"r{result.id}"
            self.rows[key] = result
            table.add_row("helped", result.name, str(result.move_count), mark(result),
                          clock(result.seconds), str(result.hints), key=key)
        if not board.ranked and not board.helped:
            you = "No wins yet. " + you
        self.query_one("#leaderboard-you", Static).update(you)
        table.focus()

    @on(DataTable.RowSelected)
    def replay(self, event: DataTable.RowSelected) -> None:
        from kaeru.screens.place.replay import ReplayScreen

        result = self.rows.get(str(event.row_key.value))
        if result is not None:
            self.app.push_screen(ReplayScreen(result))
