"""The game clock: time played, which stops while the game is paused (the app in the background,
the game put away), during playback, and once the game is won."""

from __future__ import annotations

from collections.abc import Callable


class GameClock:
    """Seconds accumulated over the spells the clock ran."""

    def __init__(self, clock: Callable[[], float], seconds: float = 0.0) -> None:
        self.clock = clock
        self._seconds = seconds
        self._since: float | None = None

    @property
    def seconds(self) -> float:
        if self._since is None:
            return self._seconds
        return self._seconds + self.clock() - self._since

    @property
    def running(self) -> bool:
        return self._since is not None

    def run(self, should_run: bool) -> None:
        """Start or stop the clock (nothing changes when it already is as asked)."""
        if should_run and self._since is None:
            self._since = self.clock()
        elif not should_run and self._since is not None:
            self._seconds += self.clock() - self._since
            self._since = None
