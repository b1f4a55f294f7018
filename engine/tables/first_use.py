"""First-use builds in a player's words: what is being built, how big it is on disk, and about
how long it takes — the `note` and `progress` of the SearchStats a build reports.

A table is built once and kept in the cache folder; the first search that needs it waits for the
build. A `BuildPlan` names the table for players and carries its size and the time the build
took when measured (`bench/first_use.py`: an empty cache, a niced process, 2 shared cores). An
`Announcer` stands between the builder and whoever listens: each report of the build gets the
note ("Building the distance table of the 14-puzzle ...; 76 MB on disk, about 10 s left.") and how
far along it is (the builder's own fraction, else the time spent against the measured time).
When the builder gives its fraction, the time left comes from the build's own rate alone (`Pace`:
the fraction gained over the last second or so against the time it took, smoothed), and until
enough is done to trust it the note says the time is being estimated; a build that gives no
fraction falls back on the measured figure (`bench/first_use_estimate.py` compares them with
the truth on a real build).

The first note of a process also says where tables are kept and how much the folder holds, and
that the settings screen can clear it.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from kaeru.engine.rules.results import Progress, SearchStats
from kaeru.engine.tables.folder import configured_dir, folder_bytes, printable

MEGABYTE = 1_000_000
TRUST_RATE_FROM = 0.05  # fraction done after which the rate so far counts in the estimate
TRUST_RATE_AFTER = 1.0  # ... and seconds spent (a rate over a few reports is noise)
WINDOW = 1.0  # seconds of reports the rate is taken over, at least ...
WINDOW_SHARE = 0.25  # ... and this share of the time spent
SMOOTHING = 0.5  # weight of the newest figure in the time left (the rest: the one before, aged)
ESTIMATING = "estimating the time left"
ALMOST_DONE = 0.999  # the most a guess from the time alone says: a build is done when it says so
MOST = 0.9  # a fraction guessed from the time alone reaches this at the measured time, then
# creeps on towards 1 without reaching it

_told_where = threading.Event()  # the cache folder was named in a note already


@dataclass(frozen=True)
class BuildPlan:
    """A table about to be built: `what` in a player's words ("the distance table of the
    8-puzzle (3×3)"), its size on disk in bytes, the measured seconds it takes, and what it is
    good for once built ("hints are instant")."""

    what: str
    size: int
    seconds: float
    then: str = "hints and solutions are instant"
    verb: str = "Building"

    def note(self, fraction: float | None, elapsed: float) -> str:
        """The sentence shown while the build runs, its time left from `seconds_left`."""
        return self.saying(say_time_left(seconds_left(self.seconds, fraction, elapsed)))

    def saying(self, time_left: str) -> str:
        """The sentence shown while the build runs, with `time_left` in words."""
        return (
            f"{self.verb} {self.what}: once only, then {self.then}; "
            f"{megabytes(self.size)} on disk, {time_left}."
        )

    def waiting(self, builder: str) -> str:
        """The sentence shown while `builder` ("another search") builds it."""
        return (
            f"Waiting for {self.what}, which {builder} is building "
            f"(once only; {megabytes(self.size)} on disk)."
        )


def megabytes(size: int) -> str:
    """A size on disk for players: "73 MB", "0.4 MB", "under 0.1 MB", "0 MB"."""
    mb = size / MEGABYTE
    if size <= 0:
        return "0 MB"
    if mb < 0.1:
        return "under 0.1 MB"
    if mb < 10:
        return f"{mb:.1f} MB"
    return f"{mb:,.0f} MB"


def seconds_left(measured: float, fraction: float | None, elapsed: float) -> float:
    """The time still to wait in one look (no smoothing; `Pace` smooths): the rate so far once
    the fraction is enough to trust, else the measured time less the time spent (negative once
    past it)."""
    if fraction is None or fraction < TRUST_RATE_FROM or elapsed <= 0:
        return measured - elapsed
    return elapsed * (1.0 - min(fraction, 1.0)) / min(fraction, 1.0)


class Pace:
    """The time left of a build that reports its fraction done, from its own rate: the fraction
    gained over the last `WINDOW` seconds (or the last `WINDOW_SHARE` of the time spent, if
    longer) against the time that took, so the slow start of a build (its set-up, its thin first
    layers) does not weigh on the rest; each report's figure is blended with the one before,
    aged by the time since (`SMOOTHING`). None until the fraction and the time spent are enough
    to trust (`TRUST_RATE_FROM`, `TRUST_RATE_AFTER`)."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []  # (elapsed, fraction) of each report
        self.estimate: float | None = None  # seconds left as of `at`
        self.at = 0.0

    def left(self, fraction: float, elapsed: float) -> float | None:
        """Seconds still to wait, or None while it is too early to say."""
        fraction = min(fraction, 1.0)
        self.samples.append((elapsed, fraction))
        if fraction < TRUST_RATE_FROM or elapsed < TRUST_RATE_AFTER:
            return None
        since = elapsed - max(WINDOW, WINDOW_SHARE * elapsed)
        while len(self.samples) > 2 and self.samples[1][0] <= since:
            self.samples.pop(0)  # older than the window (one kept at or before its start)
        then, before = self.samples[0]
        if elapsed > then and fraction > before:
            here = (1.0 - fraction) * (elapsed - then) / (fraction - before)
            if self.estimate is not None:
                aged = max(self.estimate - (elapsed - self.at), 0.0)
                here = SMOOTHING * here + (1.0 - SMOOTHING) * aged
            self.estimate, self.at = here, elapsed
        if self.estimate is None:
            return None
        return max(self.estimate - (elapsed - self.at), 0.0)


def guess_fraction(elapsed: float, measured: float) -> float:
    """How far a build that gives no fraction of its own probably is, from the time alone:
    MOST at the measured time, then on towards 1 (never reaching it)."""
    if measured <= 0:
        return MOST
    if elapsed <= measured:
        return MOST * elapsed / measured
    guessed = MOST + (1.0 - MOST) * (1.0 - math.exp(-(elapsed - measured) / measured))
    return min(guessed, ALMOST_DONE)  # far past the measured time the float rounds to 1


def say_time_left(seconds: float) -> str:
    """ "a few seconds left", "about 15 s left", "about 4 min left"; past the measured time
    (negative) "taking longer than usual"."""
    if seconds < 0:
        return "taking longer than usual"
    if seconds < 5:
        return "a few seconds left"
    if seconds < 60:
        return f"about {max(5, 5 * round(seconds / 5))} s left"
    return f"about {max(1, round(seconds / 60))} min left"


def say_duration(seconds: float) -> str:
    """ "a few seconds", "about 15 s", "about 4 min" (for a build not yet begun)."""
    return say_time_left(max(seconds, 0.0)).removesuffix(" left")


def where_kept(folder: Path | None = None) -> str:
    """The sentence naming the cache folder and what it holds now."""
    folder = configured_dir() if folder is None else folder
    return (
        f"Tables are kept in {printable(home_short(folder))} "
        f"({megabytes(folder_bytes(folder))} so far; Settings shows and clears it)."
    )


def home_short(path: Path) -> str:
    """`path` with the home folder written as ~."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except (ValueError, RuntimeError):
        return str(path)


def tell_where_once() -> str:
    """`where_kept()` the first time a process asks, else ""."""
    if _told_where.is_set():
        return ""
    _told_where.set()
    try:
        return " " + where_kept()
    except OSError:
        return ""


def forget_told() -> None:
    """Name the cache folder again in the next note (tests)."""
    _told_where.clear()


class Announcer:
    """Passes a build's reports on to `progress` with the plan's note and a fraction done.

    The builder's own fraction (`SearchStats.progress`) is used when it gives one, and the time
    left then comes from its rate (`Pace`); else the fraction is the time spent against the
    measured time (`guess_fraction`) and the time left the measured time less the time spent.
    `clock` gives seconds (tests pass a fake one).
    """

    def __init__(
        self,
        plan: BuildPlan,
        progress: Progress,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.plan = plan
        self.progress = progress
        self.clock = clock
        self.started = clock()
        self.pace = Pace()
        self._where: str | None = None

    def dress(self, stats: SearchStats) -> SearchStats:
        """`stats` with the note and the fraction done."""
        elapsed = self.clock() - self.started
        own = stats.progress
        if own is None:
            fraction = guess_fraction(elapsed, self.plan.seconds)
            time_left = say_time_left(seconds_left(self.plan.seconds, None, elapsed))
        else:
            fraction = own
            left = self.pace.left(own, elapsed)
            time_left = ESTIMATING if left is None else say_time_left(left)
        if self._where is None:
            self._where = tell_where_once()
        note = self.plan.saying(time_left) + self._where
        return replace(stats, note=note, progress=round(min(max(fraction, 0.0), 1.0), 3))

    def __call__(self, stats: SearchStats) -> None:
        if self.progress is not None:
            self.progress(self.dress(stats))
