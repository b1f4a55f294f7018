"""The 6×6's last step: of the many ways the lines were brought home, the one with the shortest
whole answer (lines + the 5×5 left).

What a candidate's 5×5 costs is known only by solving it: the databases' value misses it by 20
moves or more, by different amounts from one candidate to the next (candidates are screened in
the order of lines + that value, those within LINES_MARGIN of the least), and even a 2 s
schedule of falling weights lands 10-20 moves apart on rests alike (a lighter weight that fills
its memory stops it early). So every candidate (10-20 from `rest_aware`, or each way of each
line) gets one cheap screen: weighted A* at w = 1.5 in 4 million positions (1.5 million: 6 moves
longer in all), then 1.75, 2 and 3 should it fill them, a second or two each, for at most 70% of
the time. Screened lengths are real paths' lengths, so the ranking is by whole answers (lines +
rest). (A screen at w = 1.6 in more memory, for 40% of the time, came out 26-32 moves longer in
all over `bench/six_boards.py`'s seven boards.) The best two then have their 5×5's tails
shortened (`bounded._polish`) in equal shares of the time left (the next ones too when a polish
ends early), and the shortest whole answer wins. On four rests of one board (Random(36) #2), 8 s
of polish from a screen's path gave 112-120 moves, the 5×5's own 8 s schedule 113-124.
"""

from __future__ import annotations

import time
from fractions import Fraction

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.databases.pdb_big import big_database
from kaeru.engine.sliding.near_optimal.bounded import _polish, _Runner, heuristic, solve_bounded
from kaeru.engine.sliding.near_optimal.peeled import Peeled, play_part

SCREEN_WEIGHTS = (Fraction(3, 2), Fraction(7, 4), Fraction(2), Fraction(3))
SCREEN_NODES = 4_000_000  # positions a screening run may hold (about 270 MB on the 5×5)
SCREEN_SECONDS = 2.5  # CPU at most per screening run
SCREEN_SHARE = 0.7  # of the finish's time, at most, for the screens
LINES_MARGIN = 16  # candidates whose lines + rest's value pass the least by more: not screened
POLISHED = 2  # candidates whose rests are polished after the screens, in equal shares
LEFTOVER = 0.5  # CPU seconds left after those that are worth polishing the next candidate
TRACE = False


def screen(shape: Grid, sub: State, meter: Meter, nodes_cap: int) -> list[State] | None:
    """A quick answer for a candidate's rest: the first weight whose run fits in memory."""
    runner = _Runner(shape, sub, big_database(shape), meter)
    for weight in SCREEN_WEIGHTS:
        outcome = runner.weighted(weight, 4000, SCREEN_SECONDS, nodes_cap,
                                  min(SCREEN_NODES, nodes_cap + 4))
        if outcome >= 0:
            return runner.states(outcome)
    return None


def finish_best(full: Grid, whole: list[Peeled], control: Control, meter: Meter,
                until: float, nodes_cap: int) -> list[State] | None:
    """The whole board's shortest path over the candidates `whole` (lines brought home, a 5×5
    left): each one's rest screened, the best few polished, by `until` (process time)."""
    if len(whole) == 1:  # nothing to choose: the rest's schedule has all the time
        peeled = whole[0]
        last = solve_bounded(peeled.rest(full), peeled.rest_state(full),
                             Control(meter.progress, control.cancelled, control.budget),
                             max(until - time.process_time(), 0.5), plain_share=0.0)
        if last is None:
            return None
        return _joined(full, peeled, last.states)
    unique: dict[State, Peeled] = {}
    for peeled in sorted(whole, key=lambda p: len(p.states)):
        unique.setdefault(peeled.rest_state(full), peeled)  # the same rest: the shorter lines
    guess = {rest: len(p.states) + heuristic(p.rest(full), rest)  # lines + the rest's value
             for rest, p in unique.items()}
    likeliest = sorted(guess, key=guess.__getitem__)
    ranked = [unique[r] for r in likeliest if guess[r] <= guess[likeliest[0]] + LINES_MARGIN]
    screens_until = time.process_time() + (until - time.process_time()) * SCREEN_SHARE
    done: list[tuple[int, Peeled, list[State]]] = []  # (whole length, candidate, rest's path)
    for peeled in ranked:  # likeliest first: when time runs out, they are done
        if done and time.process_time() > screens_until:
            break
        rest = screen(peeled.rest(full), peeled.rest_state(full), meter, nodes_cap)
        if rest is not None:
            done.append((len(peeled.states) + len(rest) - 2, peeled, rest))
    if not done:
        return None
    done.sort(key=lambda d: d[0])
    if TRACE:
        print(f"  screened {len(done)} of {len(whole)}: "
              f"{[(len(p.states) - 1, n - len(p.states) + 1) for n, p, _ in done[:8]]}")
    best = done[0]
    for n, (_, peeled, rest) in enumerate(done):  # the next ones too, while time is left
        if n >= POLISHED and until - time.process_time() < LEFTOVER:
            break
        shape = peeled.rest(full)
        runner = _Runner(shape, rest[0], big_database(shape), meter)
        left = (until - time.process_time()) / max(1, min(POLISHED, len(done)) - n)
        rest = _polish(shape, rest, runner.db, meter, time.process_time() + left, nodes_cap,
                       runner)
        if TRACE:
            print(f"  polished: {len(peeled.states) - 1} + {len(rest) - 1}")
        if len(peeled.states) + len(rest) - 2 < best[0]:
            best = (len(peeled.states) + len(rest) - 2, peeled, rest)
    return _joined(full, best[1], best[2])


def _joined(full: Grid, peeled: Peeled, rest: list[State]) -> list[State]:
    """The candidate's whole-board states, then its rest's path played on the whole board."""

    states = list(peeled.states)
    play_part(full, states, rest, peeled.top, peeled.left, peeled.rest(full))
    return states
