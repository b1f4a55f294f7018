"""Surveying the whole catalogue: the facts of every preset (`engine.catalogue.facts`), the
cheap ones first, kept in the cache (`engine.catalogue.cache`) as each is found.

`Survey.known()` gives what the cache holds at once. `run_instant` adds the quick proofs and
the tiny puzzles (about half a second in all); `run` then spends a quick step on every preset
still unknown (those a player is looking at first, then the smallest puzzles) and a thorough
step on every answer that is not settled. Both report each new fact through a callback and
stop when `cancelled` says so, so a front end runs them in a worker thread and shows the facts
as they come; what was found stays in the cache, and the next run goes on from there.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from kaeru.engine.catalogue.cache import FactsCache
from kaeru.engine.catalogue.facts import (
    QUICK,
    THOROUGH,
    Facts,
    instant_facts,
    positions_of,
    survey,
)
from kaeru.engine.puzzles.registry import AnyPuzzle, get_puzzle
from kaeru.engine.rules.results import CancelCheck, Cancelled

Report = Callable[[Facts], None]


class Survey:
    """The facts of `puzzle_ids`, from `cache` and from the engine."""

    def __init__(self, puzzle_ids: Iterable[str], cache: FactsCache) -> None:
        self.puzzles = [get_puzzle(pid) for pid in puzzle_ids]
        self.cache = cache
        self.facts: dict[str, Facts] = {}
        for puzzle in self.puzzles:
            kept = cache.get(puzzle)
            if kept is not None:
                self.facts[puzzle.id] = kept

    def known(self) -> dict[str, Facts]:
        return dict(self.facts)

    def run_instant(self, report: Report, cancelled: CancelCheck = None) -> None:
        """The quick proofs and the tiny puzzles, for every preset not known yet."""
        for puzzle in self.puzzles:
            if puzzle.id in self.facts:
                continue
            _stop_if(cancelled)
            found = instant_facts(puzzle)
            if found is not None:
                self._learn(puzzle, found, report)
        self.cache.save()

    def run(
        self, report: Report, cancelled: CancelCheck = None, first: Collection[str] = ()
    ) -> None:
        """A quick step for every preset still unknown, then a thorough one for every answer
        not settled; the ids in `first` (the presets a player is looking at) before the others,
        then the smallest puzzles first. Raises Cancelled when told to stop."""
        by_size = sorted(
            self.puzzles, key=lambda puzzle: (puzzle.id not in first, positions_of(puzzle)[0])
        )
        for effort in (QUICK, THOROUGH):
            for puzzle in by_size:
                known = self.facts.get(puzzle.id)
                if known is not None and (known.settled or effort is QUICK):
                    continue
                _stop_if(cancelled)
                self._learn(puzzle, survey(puzzle, effort, cancelled), report)
                self.cache.save()

    def pending(self) -> list[str]:
        """The ids whose facts a survey could still change."""
        return [p.id for p in self.puzzles if not (f := self.facts.get(p.id)) or not f.settled]

    def _learn(self, puzzle: AnyPuzzle, facts: Facts, report: Report) -> None:
        self.facts[puzzle.id] = facts
        self.cache.put(puzzle, facts)
        report(facts)


def _stop_if(cancelled: CancelCheck) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled("survey cancelled")
