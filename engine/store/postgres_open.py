"""Opening the store on PostgreSQL: never raises, like the SQLite store's `opening`.

No driver installed: the store runs in memory and says which extra to install. The server
cannot be reached at start: the store is opened all the same, its writes held (saves are
paused) and made when the server answers; reads show what this arcade holds until then.
"""

from __future__ import annotations

from kaeru.engine.store.opening import Opened, in_memory
from kaeru.engine.store.postgres import PgConnection, StoreUnavailable, driver, errors, where


def open_postgres(url: str, player: str) -> Opened:
    """The store of `player` on the PostgreSQL server at `url`."""
    try:
        driver()
    except StoreUnavailable as error:
        return in_memory(f"Saves are off: {error}.")
    reader = PgConnection(url, player)
    notice = None
    try:
        reader.execute("SELECT 1")
    except errors() as error:
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        notice = (
            f"Saves are paused: {first}. Your games are kept and will be saved when"
            " the server answers."
        )
    return Opened(
        reader, True, notice, None,
        connector=lambda: PgConnection(url, player),
        db_errors=errors(),
        label=where(url),
    )
