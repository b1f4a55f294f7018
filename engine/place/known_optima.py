"""The optima of a day's dailies as far as they are known without searching: the daily's own
(`engine.catalogue.daily`), else the one the shared place stored for that day (`Place.optimum`,
worked out once per day per server: `engine.place.optima`), else the one a win of that very start
recorded in the player's store. The 15-puzzle's daily has no optimum of its own, so `kaeru daily`
and the
Daily screen read it here instead of printing `optimal ?` once anyone has it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from kaeru.engine.catalogue.random_games import RandomGame
from kaeru.engine.place.place import Place
from kaeru.engine.store.models import FinishedGame


def known_optimum(day: str, game: RandomGame, place: Place | None = None) -> int | None:
    """The optimum of `day`'s daily `game` known without searching: the daily's own, else the
    one `place` stored for that day (None when neither knows it)."""
    if game.optimal is not None or place is None:
        return game.optimal
    return place.optimum(day, game.id)


def with_known_optima(
    day: str,
    games: Sequence[RandomGame],
    place: Place | None = None,
    records: Iterable[FinishedGame] = (),
) -> list[RandomGame]:
    """`games` (the dailies of `day`) with each unknown optimum filled from `place` or from
    `records` (the player's wins) when either knows it; still None when neither does."""
    won: dict[str, int] = {}
    for record in records:
        if record.daily == day and record.optimal is not None:
            won.setdefault(record.game_id, record.optimal)
    known = []
    for game in games:
        optimal = known_optimum(day, game, place)
        if optimal is None:
            optimal = won.get(game.game_id)
        known.append(game if optimal == game.optimal else replace(game, optimal=optimal))
    return known
