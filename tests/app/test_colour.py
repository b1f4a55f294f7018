"""The arcade reads in 16 colours (`TERM=xterm`, no `COLORTERM`) and with `NO_COLOR`.

The screen is read as the terminal would show it: the compositor's cells, each colour rounded to
the terminal's 16 exactly as Rich rounds it when Textual writes to a 16-colour terminal (a dark
terminal: the default background counts as black, the default foreground as white). Checked on
the way through every kind of board (a row board with hint, coach, letters and playback), help,
the explorer, notifications and home: no text cell is drawn in its own background colour, no white
stone or knight is red, and with NO_COLOR the highlighted list entry is marked by its text style.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from rich.cells import cell_len
from rich.color import Color, ColorSystem
from rich.style import Style
from textual.pilot import Pilot
from textual.widget import Widget

from kaeru.screens.home.screen import HomeScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.palette import ANSI_THEME, few_colours, starting_theme, theme_setting
from tests.app.conftest import settle

WHITE_PIECES = {"○", "♘"}  # row boards' white stone, the white knight
WHITE_LETTER = "W"  # the same in the letter view (v)
RED = {1, 9}  # red and bright red among the 16
DEFAULT_FG, DEFAULT_BG = 7, 0  # a dark terminal's default colours, as the nearest of the 16
SIZE = (100, 30)
OTHER_BOARDS = ("pegs-english", "sliding-3x3", "jealous-husbands-3")  # holes, grid, river


@dataclass(frozen=True)
class Cell:
    """One character cell as a 16-colour terminal shows it (colours 0–15, reverse applied)."""

    x: int
    y: int
    char: str
    fg: int
    bg: int
    style: Style

    def is_text(self) -> bool:
        """Not blank and not a frame line: box drawing and eighth blocks are decoration (the
        shades ░▒▓, which boards draw squares with, are kept)."""
        code = ord(self.char)
        frame = 0x2500 <= code <= 0x259F and self.char not in "░▒▓"
        return not self.char.isspace() and not frame


def sixteen(color: Color | None, default: int) -> int:
    """The colour number a 16-colour terminal shows for `color` (Rich's own rounding)."""
    if color is None or color.is_default:
        return default
    number = color.downgrade(ColorSystem.STANDARD).number
    assert number is not None
    return number


def screen_cells(app: KaeruApp) -> Iterator[Cell]:
    """Every cell of the current screen, from the compositor's lines (filters applied)."""
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x = 0
        for text, style, _control in strip:
            style = style or Style()
            fg, bg = sixteen(style.color, DEFAULT_FG), sixteen(style.bgcolor, DEFAULT_BG)
            if style.reverse:
                fg, bg = bg, fg
            for char in text:
                yield Cell(x, y, char, fg, bg, style)
                x += cell_len(char)


def within(widget: Widget, cell: Cell) -> bool:
    return widget.region.contains(cell.x, cell.y)


def assert_readable(app: KaeruApp, where: str) -> None:
    """No text cell in its background's colour; no white piece on the board in red."""
    cells = list(screen_cells(app))
    hidden = [cell for cell in cells if cell.is_text() and cell.fg == cell.bg]
    assert not hidden, f"{where}: text drawn in its background colour: " + ", ".join(
        f"{cell.char!r} at {cell.x},{cell.y} colour {cell.fg}" for cell in hidden[:8]
    )
    boards = app.screen.query("#board")
    if boards:
        board = boards.first()
        white = WHITE_LETTER if getattr(board, "plain", False) else WHITE_PIECES
        red = [c for c in cells if within(board, c) and c.char in white and c.fg in RED]
        assert not red, f"{where}: white pieces drawn red: {[(c.char, c.x, c.y) for c in red]}"


def assert_highlight_shown_without_colour(app: KaeruApp, where: str) -> None:
    """With NO_COLOR the highlighted entry of the focused list is told apart by reverse video
    or underline, on one row only."""
    lists = app.screen.query("OptionList")
    assert lists, f"{where}: no list on screen"
    option_list = lists.first()
    rows = {
        cell.y
        for cell in screen_cells(app)
        if within(option_list, cell)
        and cell.is_text()
        and (cell.style.reverse or cell.style.underline)
    }
    assert len(rows) == 1, f"{where}: the highlighted entry is not marked (rows {sorted(rows)})"


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch):
    """Set the terminal: `terminal(colours, no_color)`, before the app is made."""

    def set_terminal(colours: str, no_color: bool = False) -> None:
        monkeypatch.delenv("TEXTUAL_COLOR_SYSTEM", raising=False)
        monkeypatch.setenv("TERM", "xterm" if colours == "16" else "xterm-256color")
        if colours == "truecolor":
            monkeypatch.setenv("COLORTERM", "truecolor")
        else:
            monkeypatch.delenv("COLORTERM", raising=False)
        if no_color:
            monkeypatch.setenv("NO_COLOR", "1")
        else:
            monkeypatch.delenv("NO_COLOR", raising=False)

    return set_terminal


# ---- which theme ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("environ", "few"),
    [
        ({"TERM": "xterm"}, True),
        ({"TERM": "linux"}, True),
        ({"TERM": "dumb"}, True),
        ({"TERM": "xterm-256color"}, False),
        ({"TERM": "xterm", "COLORTERM": "truecolor"}, False),
        ({"TERM": "xterm-256color", "TEXTUAL_COLOR_SYSTEM": "standard"}, True),
    ],
)
def test_few_colours_is_read_from_the_environment(environ: dict[str, str], few: bool) -> None:
    assert few_colours(environ) is few


def test_starting_theme() -> None:
    themes = {"textual-dark", "nord", ANSI_THEME}
    assert starting_theme(None, themes, few=True) == ANSI_THEME
    assert starting_theme(None, themes, few=False) is None  # Textual's default
    assert starting_theme("nord", themes, few=True) == "nord"
    assert starting_theme("gone", themes, few=False) is None
    assert theme_setting(True) != theme_setting(False)


async def test_a_16_colour_terminal_starts_in_the_ansi_theme_and_keeps_its_own_choice(
    terminal,
) -> None:
    terminal("16")
    app = KaeruApp(resume=False)
    app.store.set_setting(theme_setting(False), "nord")  # chosen in a true-colour terminal
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == ANSI_THEME and app.native_ansi_color
        app.theme = "ansi-light"
        await pilot.pause()
        assert app.store.get_setting(theme_setting(True)) == "ansi-light"
        assert app.store.get_setting(theme_setting(False)) == "nord"  # untouched


# ---- what the screens look like ------------------------------------------------------------
async def press(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def tour(app: KaeruApp, pilot: Pilot, *, no_color: bool) -> None:
    """A row board (hint, coach, letters, playback), knights, the other board kinds, help, the
    explorer, notifications, and home last (its catalogue survey starts only when it is shown,
    and a short look needs none of it); with NO_COLOR, where no colour can clash, two boards
    and home."""
    await settle(pilot)
    assert_readable(app, "frogs-3")
    if not no_color:
        await press(pilot, "i", "o")
        assert_readable(app, "frogs-3 with a hint and the coach")
        board = app.screen.query_one("#board")
        board.plain = True  # type: ignore[attr-defined]
        await pilot.pause()
        assert_readable(app, "frogs-3 in letters")
        board.plain = False  # type: ignore[attr-defined]
        await press(pilot, "s")
        assert_readable(app, "frogs-3 playing back its solution")

    app.open_game("knights-3x3")
    await settle(pilot)
    assert_readable(app, "knights-3x3")
    if not no_color:
        for game_id in OTHER_BOARDS:
            app.open_game(game_id)
            await settle(pilot)
            assert_readable(app, game_id)
        await press(pilot, "question_mark")
        assert_readable(app, "help")
        app.pop_screen()
        app.open_explorer("frogs-3")
        await settle(pilot)
        assert_readable(app, "explorer")
        app.notify("a warning", severity="warning")
        app.notify("an error", severity="error")
        await pilot.pause()
        assert_readable(app, "notifications")
        app.clear_notifications()

    while not isinstance(app.screen, HomeScreen):
        app.pop_screen()
    await pilot.pause()
    await pilot.pause()
    assert_readable(app, "home")
    if no_color:
        assert_highlight_shown_without_colour(app, "home")


@pytest.mark.parametrize("no_color", [False, True], ids=["16 colours", "16 colours NO_COLOR"])
async def test_every_screen_reads_in_16_colours(terminal, no_color: bool) -> None:
    terminal("16", no_color)
    app = KaeruApp("frogs-3", resume=False)
    app.store.set_setting("timer", "off")
    async with app.run_test(size=SIZE) as pilot:
        await tour(app, pilot, no_color=no_color)


def hue_is_red_or_orange(color: Color | None) -> bool:
    if color is None or color.triplet is None:
        return False
    hue, lightness, saturation = colorsys.rgb_to_hls(*color.triplet.normalized)
    return saturation > 0.35 and 0.1 < lightness < 0.9 and (hue < 45 / 360 or hue > 330 / 360)


@pytest.mark.slow  # a longer scenario; the default run keeps its like
async def test_true_colour_keeps_the_default_theme_with_white_pieces_not_red_or_orange(
    terminal,
) -> None:
    """In the default dark and light themes too, a white piece is never red or orange."""
    terminal("truecolor")
    app = KaeruApp("frogs-3", resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark" and not app.native_ansi_color
        for game_id in ("frogs-3", "knights-3x3"):
            app.open_game(game_id)
            await settle(pilot)
            for theme in ("textual-dark", "textual-light"):
                app.theme = theme
                await pilot.pause()
                board = app.screen.query_one("#board")
                white = [
                    c for c in screen_cells(app) if within(board, c) and c.char in WHITE_PIECES
                ]
                where = f"{game_id} in {theme}"
                assert white, f"{where}: no white piece on the board"
                orange = [c for c in white if hue_is_red_or_orange(c.style.color)]
                assert not orange, f"{where}: white pieces in red/orange: {orange[:3]}"
