"""Which arcade is playing a saved game, so that two arcades never share one save slot.

Each store names itself `host:pid:token` and writes that name into the games it saves
(`games.holder`); closing the store lets go of them. A game held by another arcade that is
still running (same host: its process is alive; another host: it saved within HOLD_SECONDS) is
not resumed: the second arcade starts a game of its own instead.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import UTC, datetime

HOLD_SECONDS = 600.0  # a game held from another host counts as played for this long


def holder_name() -> str:
    """This process's name for its store: host, process id, and a token (two stores of one
    process are two arcades)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def held_elsewhere(holder: object, me: str, updated: object) -> bool:
    """Whether `holder` (a games row's) is another arcade that is still playing the game."""
    if not isinstance(holder, str) or not holder or holder == me:
        return False
    host, _, rest = holder.partition(":")
    if host == socket.gethostname():
        try:
            pid = int(rest.partition(":")[0])
            if pid <= 0:
                return False
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        except (ValueError, OSError):
            return False
        return True
    try:
        saved = datetime.fromisoformat(str(updated))
    except ValueError:
        return False
    return (datetime.now(UTC) - saved).total_seconds() < HOLD_SECONDS
