"""Messages screens post to the app (as Posting and Harlequin do), instead of calling it: a
screen says what the player asked for; the app decides how to show it."""

from __future__ import annotations

from textual.message import Message


class OpenGame(Message):
    """Open `game_id` (`puzzle-id` resumes its saved game; `puzzle-id:start` starts that one).
    A puzzle that is already open is switched to, never opened twice."""

    def __init__(self, game_id: str, *, fresh: bool = False, daily: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.fresh = fresh  # a new game even when one is in progress
        self.daily = daily  # the date, for a daily puzzle


class OpenExplorer(Message):
    """Open the state-space explorer of `puzzle_id`."""

    def __init__(self, puzzle_id: str) -> None:
        super().__init__()
        self.puzzle_id = puzzle_id


class OpenHelp(Message):
    """Show the help screen (for `puzzle_id`, when one is meant)."""

    def __init__(self, puzzle_id: str | None = None) -> None:
        super().__init__()
        self.puzzle_id = puzzle_id


class OpenScreen(Message):
    """Open one of the arcade's own screens: "records", "settings", "daily", "drill", and the
    shared place's: "leaderboard", "hall" (of fame), "who" (is here)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
