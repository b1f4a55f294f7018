"""The Daily screen shows the 15-puzzle's optimum once the shared place knows it for the day
(issue 22: it showed `optimal ?` though the server had worked it out)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from kaeru.engine.catalogue.daily import daily_games
from kaeru.engine.place.place import Place
from kaeru.tui.app import KaeruApp
from tests.app.conftest import settle

DAY = "2026-11-23"


async def test_the_daily_list_shows_the_optimum_the_place_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kaeru.screens.daily import DailyScreen

    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path))
    [fifteen] = [g for g in daily_games(DAY) if g.id == "sliding-4x4"]
    assert fifteen.optimal is None
    place = Place.open()
    place.set_optimum(DAY, "sliding-4x4", fifteen.game_id, 46)
    place.close()
    app = KaeruApp(resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        daily = DailyScreen(DAY)
        await app.push_screen(daily)
        options = daily.query_one(OptionList)
        for _ in range(200):  # until the worker has drawn the list
            if "sliding-4x4" in daily.games:
                break
            await pilot.pause(0.05)
        line = str(options.get_option("sliding-4x4").prompt)
        assert "optimal 46" in line and "?" not in line
        assert daily.games["sliding-4x4"].optimal == 46
