"""Pilot tests of the home screen by family, at 80×24 and 60×20: one line per family opening to
its presets, presets and entries post the right messages, the filter, the curiosities with the
engine's reasons, the difficulty, the explorer only where it can finish, a footer that fits.
(Opening a real game from home: tests/app/test_home.py.)"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest
from rich.console import Console
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.catalogue.entries import catalogue
from kaeru.engine.catalogue.explorable import explore_refusal
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.screens.home import screen as home_module
from kaeru.screens.home import survey as home_survey
from kaeru.screens.home.puzzle_list import (
    CURIOSITIES_ID,
    DAILY_ID,
    NOTHING_ID,
    RANDOM_ID,
    family_id,
)
from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenExplorer, OpenGame, OpenHelp, OpenScreen
from kaeru.tui.words import sentence

SIZES = [(80, 24), (60, 20)]
preset_names = {p.puzzle_id: p.label for e in catalogue() for p in e.presets}
group_names = {family_id(e.key): e.name for e in catalogue()} | {
    CURIOSITIES_ID: "Curiosities",
    RANDOM_ID: "Random game",
    DAILY_ID: "Daily puzzles",
}
ASKS = (OpenGame, OpenExplorer, OpenScreen, OpenHelp)


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("catalogue-cache"))


@pytest.fixture(autouse=True)
def private_cache(shared_cache: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder of these tests' own (the facts are found afresh, once), and the long
    survey steps held back so they do not run beside the tests."""
    monkeypatch.setenv("KAERU_CACHE_DIR", shared_cache)
    monkeypatch.setattr(home_survey, "SURVEY_DELAY", 600.0)


def line_text(option: Option, width: int = 60) -> str:
    """An option's line as plain text."""
    with open(os.devnull, "w") as sink:
        console = Console(width=width, color_system=None, record=True, file=sink)
        console.print(option.prompt)
    return console.export_text()


def home_of(app: KaeruApp) -> HomeScreen:
    assert isinstance(app.screen, HomeScreen), app.screen
    return app.screen


def listed(home: HomeScreen) -> list[str]:
    return [o.id or "" for o in home.query_one("#puzzles", OptionList).options]


def about(home: HomeScreen) -> str:
    shown = home.query_one("#about-text", Static).render()
    return " ".join(getattr(shown, "plain", str(shown)).split())


def footer_keys(home: HomeScreen) -> set[str]:
    return {key.key for key in home.query_one(Footer).children}


def record_asks(home: HomeScreen) -> list[Message]:
    """The messages the screen posts to the app from now on, kept instead of sent."""
    asked: list[Message] = []
    post = home.post_message

    def keep(message: Message) -> bool:
        if isinstance(message, ASKS):
            asked.append(message)
            return True
        return post(message)

    home.post_message = keep  # type: ignore[method-assign]
    return asked


async def wait_for(pilot: Pilot, check: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


@pytest.mark.parametrize("size", SIZES)
async def test_home_by_family(size):
    app = KaeruApp(resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        home = home_of(app)
        # one line per family, after the Random game and Daily entries
        ids = listed(home)
        assert ids[:2] == [RANDOM_ID, DAILY_ID]
        families = [family_id(e.key) for e in catalogue()]
        assert [i for i in ids if i in families] == families and "frogs-3" not in ids
        # nothing cut: the list and its lines, the footer (Enter first, no overlap)
        puzzles = home.query_one("#puzzles", OptionList)
        assert puzzles.region.right <= size[0] and puzzles.region.bottom <= size[1]
        keys = list(home.query_one(Footer).children)
        assert keys[0].key == "enter" and keys[0].description == "Play"
        spans = sorted((k.region.x, k.region.right) for k in keys)
        assert spans[-1][1] <= size[0]
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
        # the curiosities, apart, each with the engine's own proof
        await wait_for(pilot, lambda: "jealous-husbands-4-boat2" in home.facts)
        home.select_preset("pegs-french")
        french = get_puzzle("pegs-french")
        reason = french.unsolvable_reason(french.initial(), french.initial())
        assert reason and f"Cannot be won. {sentence(reason)}"[:60] in about(home)
        home.select_preset("jealous-husbands-4-boat2")
        home.select_preset("jealous-husbands-3")
        ids = listed(home)
        assert "cannot be done" not in about(home)
        assert ids.index(family_id("river")) < ids.index("jealous-husbands-3")
        assert ids.index(CURIOSITIES_ID) < ids.index("jealous-husbands-4-boat2")
        width = puzzles.scrollable_content_region.width
        for option in puzzles.options:
            name = option.id and (preset_names.get(option.id) or group_names.get(option.id))
            assert name and name in line_text(option, width), option.id
        # the explorer offered only where it can finish, and why not elsewhere
        home.select_preset("sliding-4x4")
        await pilot.pause()
        assert explore_refusal(get_puzzle("sliding-4x4")) is not None
        assert "e" not in footer_keys(home) and "No explorer:" in about(home)
        home.select_preset("frogs-3")
        await pilot.pause()
        assert "e" in footer_keys(home) and "e explores" in about(home)
        # the difficulty: the solver's optimal length (frogs-3 is solved by the first step)
        option = puzzles.highlighted_option
        assert option is not None and "15 moves" in line_text(option, width)
        assert "Shortest solution: 15 moves." in about(home)
        # the filter: typed names narrow the list, Escape clears it
        await pilot.press("slash", "g")
        assert isinstance(app.focused, Input)
        home.query_one("#filter", Input).value = "guarini"
        await pilot.pause()
        assert listed(home) == [family_id("knights"), "knights-3x3"]
        assert home.chosen_id == "knights-3x3"
        await pilot.press("escape")  # the whole list, the preset found still highlighted
        assert home.query_one("#filter", Input).value == "" and app.focused is puzzles
        assert family_id("pegs") in listed(home) and home.chosen_id == "knights-3x3"


async def test_keys_open_presets_entries_and_the_explorer(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(home_module.secrets, "choice", lambda ids: ids[0])  # a quick draw
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        home = home_of(app)
        asked = record_asks(home)
        assert home.highlighted_id == family_id("flip-it")
        await pilot.press("right", "down")
        assert home.chosen_id == "flip-it-5"
        await pilot.press("left")  # closes the family, back on its line
        assert home.highlighted_id == family_id("flip-it") and "flip-it-5" not in listed(home)
        await pilot.press("down", "down", "enter", "down", "down", "down")
        assert home.chosen_id == "frogs-3" and "Frog jump (3 a side)" in about(home)
        await pilot.press("enter", "e")
        await pilot.press("slash", "f")
        home.query_one("#filter", Input).value = "oshidori bw"
        await pilot.press("enter")  # Enter in the filter plays the best match
        await pilot.press("escape", "home", "enter")  # Random game
        await wait_for(pilot, lambda: len(asked) == 4)
        await pilot.press("down", "enter", "r", "question_mark")
        assert [type(m).__name__ for m in asked] == [
            "OpenGame",
            "OpenExplorer",
            "OpenGame",
            "OpenGame",
            "OpenScreen",
            "OpenScreen",
            "OpenHelp",
        ]
        frogs, explore, oshidori, drawn, daily, records, _ = asked
        assert isinstance(frogs, OpenGame) and frogs.game_id == "frogs-3"
        assert isinstance(explore, OpenExplorer) and explore.puzzle_id == "frogs-3"
        assert isinstance(oshidori, OpenGame) and oshidori.game_id == "oshidori-bw"
        assert isinstance(drawn, OpenGame) and drawn.fresh
        assert drawn.game_id.startswith("flip-it-5:")
        assert isinstance(daily, OpenScreen) and daily.name == "daily"
        assert isinstance(records, OpenScreen) and records.name == "records"


async def test_enter_in_the_filter_plays_the_preset_its_words_name():
    """Regression: the first preset of a family whose blurb held the words was played ("15
    puzzle" opened the 8-puzzle, "two" Frog jump); a filter matching nothing said nothing."""
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        home = home_of(app)
        asked = record_asks(home)
        field = home.query_one("#filter", Input)
        wanted = {
            "15-puzzle": "sliding-4x4",
            "15 puzzle": "sliding-4x4",
            "English T": "pegs-english-t",
            "two": "two-blank-3x3",
            "guarini": "knights-3x3",
        }
        for text, puzzle_id in wanted.items():
            await pilot.press("slash")
            field.value = text
            await pilot.press("enter")
            assert home.chosen_id == puzzle_id, text
            await pilot.press("escape")
        assert [m.game_id for m in asked if isinstance(m, OpenGame)] == list(wanted.values())
        await pilot.press("slash")
        field.value = "zzq"
        await pilot.pause()
        assert listed(home) == [NOTHING_ID]
        nothing = home.query_one("#puzzles", OptionList).options[0]
        assert "Nothing matches “zzq”" in line_text(nothing, 80)
        await pilot.press("enter", "down", "enter")
        assert len(asked) == len(wanted)  # nothing opened
