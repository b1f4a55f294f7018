"""A served arcade (KAERU_SURVEY=server) never surveys the catalogue itself: the server did it
once (`tui.serve.processes.survey_ahead`), and the home screen reads the facts from the
shared cache, new ones included as the server finds them."""

from __future__ import annotations

import pytest

from kaeru.engine.catalogue.cache import FactsCache
from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.catalogue.survey import Survey
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.screens.home import survey as home_survey
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp


async def test_a_served_arcade_reads_the_servers_survey_and_never_runs_one(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("KAERU_SURVEY", "server")
    monkeypatch.setenv("KAERU_SEARCH_MODE", "thread")
    monkeypatch.setattr(home_survey, "SHARED_READ_SECONDS", 0.2)
    ran: list[str] = []
    monkeypatch.setattr(Survey, "run_instant", lambda self, *a, **k: ran.append("instant"))
    monkeypatch.setattr(Survey, "run", lambda self, *a, **k: ran.append("run"))
    server_cache = FactsCache.open()  # what the server's survey writes
    server_cache.put(get_puzzle("frogs-3"), Facts("frogs-3", length=15, settled=True))
    server_cache.save()

    app = KaeruApp(resume=False, data_dir=tmp_path / "data")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert home.facts["frogs-3"].length == 15
        server_cache.put(get_puzzle("frogs-4"), Facts("frogs-4", length=24, settled=True))
        server_cache.save()  # found later by the server's survey: read, not computed
        for _ in range(100):
            if "frogs-4" in home.facts:
                break
            await pilot.pause(0.05)
        assert home.facts["frogs-4"].length == 24
    assert ran == []
