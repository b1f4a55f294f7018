"""Driving the arcade without a terminal (tests, the README's screenshots, benches): `settle`
waits until what a key set going has finished, so the next look at the screen is stable."""

from __future__ import annotations

import asyncio
import time

from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from kaeru.screens.home.survey import SURVEY_GROUP
from kaeru.screens.play.screen import PlayScreen


async def settle(pilot: Pilot, timeout: float = 60.0) -> None:
    """Wait until every worker and every search of the open game is done (cancelled ones
    included) and their messages handled. Home's long catalogue survey (`SURVEY_GROUP`) is not
    waited for: it runs while home is shown, for as long as it takes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause()
        running = [
            worker
            for worker in pilot.app.workers
            if not worker.is_finished and worker.group != SURVEY_GROUP
        ]
        for worker in running:
            try:
                await worker.wait()
            except (WorkerCancelled, WorkerFailed):
                pass  # a replaced search: its successor is what the caller waits for
        screen = pilot.app.screen
        searching = isinstance(screen, PlayScreen) and screen.session.running_searches
        if not running and not searching:
            break
        if searching:
            await asyncio.sleep(0.02)
    await pilot.pause()
