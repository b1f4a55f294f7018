"""Whether this arcade is `kaeru serve web`'s, shared with visitors: every tab plays with the
serving user's store, so its settings are the server's and a visitor does not change them
(`screens.settings`). Light on purpose: the settings screen imports it."""

from __future__ import annotations

import os

SERVED_ENV = "KAERU_SERVED"  # "web": set by `kaeru serve web` for each tab's arcade
SHARED_SETTINGS_NOTE = (
    "This arcade is shared with visitors: its settings are the server's and are not changed "
    "from here."
)


def settings_are_shared() -> bool:
    return os.environ.get(SERVED_ENV) == "web"
