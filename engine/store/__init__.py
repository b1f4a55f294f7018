"""The player's data in one SQLite store: games in progress, finished games, settings.

`Store` (engine.store.store) is the API; `SavedGame`, `FinishedGame` and `PuzzleSummary`
(engine.store.models) the values it takes and gives. The schema and its migrations are in
`schema`, the handling of faults at open in `opening`, the writer thread that holds writes the
file cannot take in `writer`, what is held until written in `held`, rows read back (and those
that cannot be) in `rows`, which arcade plays a game in `holders`, summaries in `records`, the
one-time import of the old JSON saves in `legacy`.
"""

from kaeru.engine.store.models import FinishedGame, PuzzleSummary, SavedGame
from kaeru.engine.store.opening import DB_NAME
from kaeru.engine.store.store import IN_PROGRESS, SOLVED, Store, data_folder

__all__ = [
    "DB_NAME",
    "IN_PROGRESS",
    "SOLVED",
    "FinishedGame",
    "PuzzleSummary",
    "SavedGame",
    "Store",
    "data_folder",
]
