"""`PlaceLink`: one arcade's thread to the shared place. It opens the place (off the app's
thread: PostgreSQL may be slow to answer), takes a name for the player, shares each win, and
beats the player's presence with their live game: at once when it changes (a move, so a
watcher follows within a frame or two), else every BEAT_SECONDS. It tells `on_watched(True)`
when someone starts watching and `on_watched(False)` when no one does any more.

The app only hands it values (`live`, `share`): nothing it does waits on the database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kaeru.engine.place.place import Place
from kaeru.engine.store.models import FinishedGame

BEAT_SECONDS = 2.0
QUICKEST_SECONDS = 0.05  # live changes closer than this are sent together


@dataclass(frozen=True)
class Live:
    puzzle_id: str | None = None
    game_id: str | None = None
    moves: tuple[str, ...] = ()
    seconds: float = 0.0


class PlaceLink:
    """The arcade's presence and shared results, kept by a daemon thread."""

    def __init__(
        self,
        opener: Callable[[], Place],
        *,
        guest: bool = False,
        watchable: Callable[[], bool] = lambda: True,
        playing: Callable[[], bool] = lambda: True,
        on_watched: Callable[[bool], None] | None = None,
    ) -> None:
        """`watchable()`: the player lets others watch; `playing()`: their game is on screen
        (else they are shown looking around, and watchers see no board)."""
        self._opener = opener
        self._guest = guest
        self._watchable = watchable
        self._playing = playing
        self.on_watched = on_watched
        self.place: Place | None = None
        self.name: str | None = None
        self.watched = False
        self._live = Live()
        self._wins: list[FinishedGame] = []
        self._changed = False
        self._closing = False
        self._condition = threading.Condition()
        self.ready = threading.Event()  # the place is open and the name known
        self._thread = threading.Thread(target=self._run, name="kaeru-place", daemon=True)
        self._thread.start()

    def live(self, puzzle_id: str | None, game_id: str | None, moves: Sequence[str],
             seconds: float) -> None:
        """The game the player is playing now (None: none)."""
        with self._condition:
            self._live = Live(puzzle_id, game_id, tuple(moves), float(seconds))
            self._changed = True
            self._condition.notify_all()

    def share(self, game: FinishedGame) -> None:
        with self._condition:
            self._wins.append(game)
            self._changed = True
            self._condition.notify_all()

    def poke(self) -> None:
        """Beat now (a setting changed)."""
        with self._condition:
            self._changed = True
            self._condition.notify_all()

    def close(self, timeout: float = 2.0) -> None:
        with self._condition:
            self._closing = True
            self._condition.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        place = self.place = self._opener()
        self.name = place.ensure_name(guest=self._guest)
        self.ready.set()
        while True:
            with self._condition:
                if not self._changed and not self._closing:
                    self._condition.wait(BEAT_SECONDS)
                closing = self._closing
                live, wins = self._live, self._wins
                self._wins, self._changed = [], False
            for game in wins:
                place.record_win(game)
            if closing:
                place.leave(guest=self._guest)
                place.close()
                return
            if not self._playing():
                live = Live()
            watched = place.beat(self.name, live.puzzle_id, live.game_id, live.moves,
                                 live.seconds, watchable=self._watchable())
            if watched != self.watched:
                self.watched = watched
                if self.on_watched is not None:
                    self.on_watched(watched)
            with self._condition:
                if not self._closing:
                    self._condition.wait(QUICKEST_SECONDS)
