"""The "holes" board: pieces on places at (row, col), some places absent — the knights'
chessboard and the peg-solitaire boards. Choosing a piece and then its target is the
pick-then-target base's (`tui.widgets.pick_target`); the two looks draw the cells
(`squares_look`: shaded squares and knights; `pegs_look`: pegs and holes in the board's shape).

Press G (or g where no column is called g), or set KAERU_ASCII, for plain letters instead of
glyphs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType

from kaeru.engine.layout import HolesScene
from kaeru.tui.widgets.boards.pegs_look import PegsLook
from kaeru.tui.widgets.boards.squares_look import SquaresLook
from kaeru.tui.widgets.pick_target import PickTargetBoard, PieceWords

NO_SCENE = HolesScene("squares", (), ())


class HolesBoard(PickTargetBoard):
    """Squares or holes with a cursor; pick a piece, then where it goes."""

    BOARD_KIND = "holes"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("G", "toggle_glyphs", "Glyphs/letters", show=False),
        # g names a column where the board has one, else it switches glyphs as G does
        Binding("g", "letter('g')", show=False),
        Binding("g", "glyphs_key", "Glyphs/letters", show=False),
    ]

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

    DEFAULT_CSS = """
    HolesBoard { width: auto; height: auto; padding: 0 1; }
    HolesBoard > .holesboard--light { background: $surface-lighten-2; color: $foreground; }
    HolesBoard > .holesboard--dark { background: $surface-darken-1; color: $foreground-muted; }
    HolesBoard > .holesboard--black { color: $text; text-style: bold; }
    HolesBoard > .holesboard--white { color: $warning; text-style: bold; }
    HolesBoard > .holesboard--peg { color: $text; text-style: bold; }
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

    # ---- geometry and drawing: the look's ------------------------------------------------------
    def needed_size(self) -> tuple[int, int]:
        return self.look.needed_size()

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.look.content_size(viewport)[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.look.content_size(viewport)[1]

    def render(self) -> Text:
        return self.look.render()

    def cell_at(self, x: int, y: int) -> int | None:
        return self.look.cell_at(x, y)

    # ---- keys ----------------------------------------------------------------------------------
    def has_column_g(self) -> bool:
        return any(cell.name.startswith("g") for cell in self.shown.cells)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "glyphs_key":
            return not self.has_column_g()
        if action == "letter" and parameters == ("g",):
            return self.has_column_g()
        return True

    def action_glyphs_key(self) -> None:
        self.action_toggle_glyphs()
