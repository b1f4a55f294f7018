"""Running session callbacks on the UI thread, whichever thread the search service calls from."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from textual.app import App


def ui_poster(app: App[Any]) -> Callable[[Callable[[], None]], None]:
    """A `post` for Session: call at once on the UI thread, else hand over to it; drop the call
    quietly once the app has stopped (a late answer has nowhere to go)."""
    ui_thread = threading.get_ident()

    def post(callback: Callable[[], None]) -> None:
        if threading.get_ident() == ui_thread:
            callback()
            return
        if not app.is_running:
            return
        try:
            app.call_from_thread(callback)
        except RuntimeError:
            pass

    return post
