"""The "holes" board: pieces on places at (row, col), some places absent — the knights'
chessboard and the peg-solitaire boards. Choosing a piece and then its target is the
pick-then-target base's (`tui.widgets.pick_target`); the two looks draw the cells
(`squares_look`: shaded squares and knights; `pegs_look`: pegs and holes in the board's shape).

Each look has two forms: a compact one (`needed_size`, what the screen must give) and a larger
one, drawn only when the room the board is given holds it whole. Press v (or set KAERU_ASCII)
for plain letters instead of glyphs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Size

from kaeru.engine.rules.layout import HolesScene
from kaeru.tui.widgets.boards.pegs_look import PegsLook
from kaeru.tui.widgets.boards.squares_look import SquaresLook
from kaeru.tui.widgets.pick_target import PickTargetBoard, PieceWords

NO_SCENE = HolesScene("squares", (), ())
PADDING = 2  # the board's own padding, left and right (see DEFAULT_CSS)
# Rows a play screen needs around the board (header, title, status, message, footer): the
# larger form is drawn only when the terminal has these to spare besides.
CHROME = 11


class HolesBoard(PickTargetBoard):
    """Squares or holes with a cursor; pick a piece, then where it goes."""

    BOARD_KIND = "holes"

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "holesboard--light",
        "holesboard--dark",
        "holesboard--black",
        "holesboard--white",
        "holesboard--peg",
        "holesboard--hole",
        "holesboard--cursor",
        "holesboard--selected",
        "holesboard--target",
        "holesboard--hint",
        "holesboard--last",
        "holesboard--jumped",
        "holesboard--label",
    }

    # Shapes carry every meaning (16 colours, NO_COLOR): knights ♞/♘ (B/W) in the default
    # foreground, black bold; marks by glyph, bracket, reverse or underline.
    DEFAULT_CSS = """
    HolesBoard { width: auto; height: auto; padding: 0 1; }
    HolesBoard > .holesboard--light { background: $surface-lighten-2; color: $foreground; }
    HolesBoard > .holesboard--dark { background: $surface-darken-1; color: $foreground-muted; }
    HolesBoard > .holesboard--black { color: $foreground; text-style: bold; }
    HolesBoard > .holesboard--white { color: $foreground; text-style: none; }
    HolesBoard > .holesboard--peg { color: $foreground; text-style: bold; }
    HolesBoard > .holesboard--hole { color: $foreground-muted; }
    HolesBoard > .holesboard--cursor { color: $accent; text-style: bold; }
    HolesBoard > .holesboard--selected { text-style: reverse bold; }
    HolesBoard > .holesboard--target { color: $success; text-style: bold; }
    HolesBoard > .holesboard--hint { color: $accent; text-style: bold; }
    HolesBoard > .holesboard--last { text-style: bold underline; }
    HolesBoard > .holesboard--jumped { color: $error; }
    HolesBoard > .holesboard--label { color: $foreground-muted; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.look: SquaresLook | PegsLook = (
            PegsLook(self) if self.scene().look == "pegs" else SquaresLook(self)
        )

    def scene(self) -> HolesScene:
        return self.shown.holes or NO_SCENE

    def words(self) -> PieceWords:
        return self.look.words

    def style_of(self, name: str) -> Style:
        return self.get_component_rich_style(f"holesboard--{name}")

    # ---- the two forms -------------------------------------------------------------------------
    def needed_size(self) -> tuple[int, int]:
        width, height = self.look.size(large=False)
        return width + PADDING, height

    def large_fits(self, room: Size) -> bool:
        """Whether the larger form fits in `room` columns × rows of content."""
        width, height = self.look.size(large=True)
        return width <= room.width and height <= room.height

    def room(self, container: Size, viewport: Size) -> Size:
        """The content room the board may take: its container's, and no more than the
        terminal's less the play screen's chrome (a container of `height: auto` passes on
        its own container's height, which its other children share; 0 where it says none)."""
        width = min(container.width or viewport.width, viewport.width - PADDING)
        height = viewport.height - CHROME
        return Size(width, min(container.height, height) if container.height else height)

    @property
    def large(self) -> bool:
        """Whether the larger form is drawn: the content region given holds it whole."""
        return self.large_fits(self.size)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.look.size(self.large_fits(self.room(container, viewport)))[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        large = self.large_fits(self.room(container, viewport))
        if width < self.look.size(large)[0]:
            large = False
        return self.look.size(large)[1]

    # ---- drawing: the look's ------------------------------------------------------------------
    def render(self) -> Text:
        return self.look.render(self.large)

    def cell_at(self, x: int, y: int) -> int | None:
        return self.look.cell_at(x, y, self.large)
