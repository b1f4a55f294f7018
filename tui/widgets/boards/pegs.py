"""The peg board: peg solitaire on the English cross, the French octagon and the triangle,
each drawn in its true shape (the triangle's rows offset by half a hole).

Everything reads by shape, so it works in 16 colours and with NO_COLOR: a peg is ●, an empty
hole ·, the cursor is bracketed [●], the chosen peg ◉, the holes it can jump to ○, a hint ★ (the
peg) and ☆ (where it lands), the peg that last moved is underlined and the peg it jumped shows ✕
(so playback shows each jumped peg leaving). Press G (or set KAERU_ASCII) for o . * letters.

Keys: arrows (or h j k l) move the cursor; Enter or Space picks the peg under it, then the
hole to jump to; with a peg chosen, Shift+arrow jumps it that way. Typing a hole's name (`d2`)
goes there and acts. After a jump the peg stays chosen while it can jump on (a chain).
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType

from kaeru.engine.pegs.boards import Board
from kaeru.tui.widgets.board import BoardWidget

GLYPHS = {"peg": "●", "hole": "·", "chosen": "◉", "target": "○", "hint_from": "★",
          "hint_to": "☆", "jumped": "✕"}
LETTERS = {"peg": "o", "hole": ".", "chosen": "@", "target": "+", "hint_from": "*",
           "hint_to": "^", "jumped": "x"}
STEP = 2  # characters per half hole across
LABEL = 3  # columns for the row numbers on the left
LETTERS_ROW = "abcdefg"


class PegBoard(BoardWidget):
    """Holes in the board's own shape with a cursor; pick a peg, then where it jumps."""

    BOARD_KIND = "pegs"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(0, -1)", "Up", show=False),
        Binding("down,j", "cursor(0, 1)", "Down", show=False),
        Binding("left,h", "cursor(-1, 0)", "Left", show=False),
        Binding("right,l", "cursor(1, 0)", "Right", show=False),
        Binding("shift+up", "jump(0, -1)", "Jump up", show=False),
        Binding("shift+down", "jump(0, 1)", "Jump down", show=False),
        Binding("shift+left", "jump(-1, 0)", "Jump left", show=False),
        Binding("shift+right", "jump(1, 0)", "Jump right", show=False),
        Binding("enter,space", "act", "Pick / jump"),
        Binding("escape", "drop", "Drop the peg", show=False),
        Binding("G", "toggle_glyphs", "Glyphs/letters", show=False),
    ]
    BINDINGS += [
        Binding(f, f"column({i})", "type a hole (d2): pick or jump there" if i == 0 else "",
                show=False)
        for i, f in enumerate(LETTERS_ROW)
    ]
    BINDINGS += [Binding(str(r), f"row({r})", show=False) for r in range(1, 8)]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "pegboard--peg",
        "pegboard--hole",
        "pegboard--cursor",
        "pegboard--chosen",
        "pegboard--target",
        "pegboard--hint",
        "pegboard--last",
        "pegboard--jumped",
        "pegboard--label",
    }

    DEFAULT_CSS = """
    PegBoard { width: auto; height: auto; padding: 0 1; }
    PegBoard > .pegboard--peg { color: $text; text-style: bold; }
    PegBoard > .pegboard--hole { color: $foreground-muted; }
    PegBoard > .pegboard--cursor { color: $accent; text-style: bold; }
    PegBoard > .pegboard--chosen { text-style: reverse bold; }
    PegBoard > .pegboard--target { color: $success; text-style: bold; }
    PegBoard > .pegboard--hint { color: $accent; text-style: bold; }
    PegBoard > .pegboard--last { text-style: bold underline; }
    PegBoard > .pegboard--jumped { color: $error; }
    PegBoard > .pegboard--label { color: $foreground-muted; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.geometry: Board = self.puzzle.geometry  # type: ignore[attr-defined]
        self.plain = bool(os.environ.get("KAERU_ASCII"))
        self.selected: int | None = None
        self.keep_after_jump: int | None = None  # the peg that just jumped: chosen again
        self.column_typed: int | None = None
        state = int(self.state)  # type: ignore[call-overload]
        pegs = [h for h in range(self.geometry.size) if state >> h & 1]
        self.cursor = self.geometry.centre if self.geometry.centre is not None else pegs[0]

    # ---- geometry -----------------------------------------------------------------------------
    def position(self, hole: int) -> tuple[int, int]:
        """(column in half holes, row) where the hole is drawn."""
        x, y = self.geometry.coords[hole]
        if self.geometry.lattice == "triangle":
            top = max(r for _, r in self.geometry.coords)
            return 2 * x + (top - y), y
        return 2 * x, y

    def board_width(self) -> int:
        widest = max(self.position(h)[0] for h in range(self.geometry.size))
        return LABEL + STEP * widest + 3

    def needed_size(self) -> tuple[int, int]:
        return self.board_width() + 2, len(self.geometry.rows) + 1

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.board_width()

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.geometry.rows) + 1

    def hole_at(self, column: int, row: int) -> int | None:
        for hole in range(self.geometry.size):
            if self.position(hole) == (column, row):
                return hole
        return None

    # ---- drawing ------------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"pegboard--{name}")

    def targets(self) -> dict[int, Any]:
        """Holes the chosen peg can jump to, with the move for each."""
        if self.selected is None:
            return {}
        found = {}
        for move in self.puzzle.moves(self.state):
            sources, ends = self.puzzle.move_cells(self.state, move)
            if sources == (self.selected,):
                found[ends[0]] = move
        return found

    def mark_of(self, hole: int, state: int, marks: dict[str, Any]) -> tuple[str, Style]:
        """The glyph and style of one hole."""
        glyphs = LETTERS if self.plain else GLYPHS
        peg = bool(state >> hole & 1)
        if hole == self.selected:
            return glyphs["chosen"], self._style("chosen")
        if hole in marks["targets"]:
            return glyphs["target"], self._style("target")
        if hole == marks["hint_from"]:
            return glyphs["hint_from"], self._style("hint")
        if hole == marks["hint_to"]:
            return glyphs["hint_to"], self._style("hint")
        if not peg and hole == marks["jumped"]:
            return glyphs["jumped"], self._style("jumped")
        if peg:
            style = self._style("peg")
            if hole == marks["last_to"]:
                style += self._style("last")
            return glyphs["peg"], style
        return glyphs["hole"], self._style("hole")

    def render(self) -> Text:
        state = int(self.state)  # type: ignore[call-overload]
        hint = self.hint_move
        last = self.last_move
        marks = {
            "targets": self.targets(),
            "hint_from": hint[0] if hint else None,
            "hint_to": hint[2] if hint else None,
            "jumped": last[1] if last else None,
            "last_to": last[2] if last else None,
        }
        label = self._style("label")
        cursor = self._style("cursor")
        width = self.board_width()
        lines = []
        for row_number, row in enumerate(self.geometry.rows, 1):
            chars: list[tuple[str, Style | None]] = [(" ", None)] * (width - LABEL)
            for hole in row:
                column = STEP * self.position(hole)[0]
                glyph, style = self.mark_of(hole, state, marks)
                chars[column + 1] = (glyph, style)
                if hole == self.cursor and not self.locked:
                    chars[column] = ("[", cursor)
                    chars[column + 2] = ("]", cursor)
            text = Text(f"{row_number:>2} ", label)
            for char, style in chars:
                text.append(char, style)
            lines.append(text)
        if self.geometry.lattice == "square":
            columns = max(x for x, _ in self.geometry.coords) + 1
            footer = " " * (LABEL + 1) + "   ".join(LETTERS_ROW[:columns])
        else:
            footer = " " * LABEL + "a = each row's left"
        lines.append(Text(footer[:width], label))
        return Text("\n").join(lines)

    # ---- state changes ------------------------------------------------------------------------
    def watch_state(self, state: Any) -> None:
        self.selected = None
        keep, self.keep_after_jump = self.keep_after_jump, None
        landed = self.last_move[2] if self.last_move else None
        if keep is not None and keep == landed and not self.locked and self.moves_from(keep):
            self.selected = keep  # the same peg may jump on: a chain is one move

    def watch_locked(self, locked: bool) -> None:
        self.selected = None
        self.keep_after_jump = None
        self.refresh()

    # ---- keys and clicks ----------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        """Move to the nearest hole that way (on the triangle, up and down go half a hole)."""
        cx, cy = self.position(self.cursor)
        best = None
        for hole in range(self.geometry.size):
            x, y = self.position(hole)
            along = (x - cx) * dx + (y - cy) * dy * 2
            if along <= 0:
                continue
            across = abs((x - cx) * dy) + abs((y - cy) * dx) * 2
            key = (along + 2 * across, x, y)
            if best is None or key < best[0]:
                best = (key, hole)
        if best is not None:
            self.cursor = best[1]
            self.refresh()

    def action_column(self, column: int) -> None:
        self.column_typed = column

    def action_row(self, row: int) -> None:
        """A row digit after a column letter names a hole (`d2`): go there and act."""
        column, self.column_typed = self.column_typed, None
        if column is None:
            return
        name = f"{LETTERS_ROW[column]}{row}"
        if name not in self.geometry.names:
            self.refuse(f"there is no hole {name} on this board")
            return
        self.cursor = self.geometry.names.index(name)
        self.refresh()
        self.action_act()

    def on_key(self, event: events.Key) -> None:
        if event.key not in LETTERS_ROW and not event.key.isdigit():
            self.column_typed = None

    def action_toggle_glyphs(self) -> None:
        self.plain = not self.plain
        self.refresh()

    def action_drop(self) -> None:
        if self.selected is None:
            raise SkipAction()  # Escape goes on to cancel or leave, as elsewhere
        self.selected = None
        self.refresh()

    def _jump(self, move: Any) -> None:
        self.cursor = move[2]
        self.keep_after_jump = move[2]
        self.choose(move)

    def action_jump(self, dx: int, dy: int) -> None:
        """Jump the chosen peg (or the one under the cursor) the way of the arrow."""
        source = self.selected if self.selected is not None else self.cursor
        sx, sy = self.position(source)
        ahead = []
        for move in self.moves_from(source):
            x, y = self.position(move[2])
            if (x - sx) * dx + 2 * (y - sy) * dy > 0 and (dx == 0 or y == sy):
                ahead.append(move)
        name = self.geometry.names[source]
        if len(ahead) == 1:
            self._jump(ahead[0])
        elif ahead:
            self.refuse(f"the peg in {name} can jump that way to two holes: pick one with Enter")
        else:
            self.refuse(f"the peg in {name} cannot jump that way")

    def action_act(self) -> None:
        """Pick up the peg under the cursor, or jump the chosen peg to the cursor."""
        if self.locked:
            self.choose(None)  # the base class explains that playback is running
            return
        here = self.cursor
        name = self.geometry.names[here]
        state = int(self.state)  # type: ignore[call-overload]
        if self.selected is not None:
            if here == self.selected:
                self.selected = None
                self.refresh()
                return
            move = self.targets().get(here)
            if move is not None:
                self._jump(move)
                return
            if not state >> here & 1:
                chosen = self.geometry.names[self.selected]
                self.refuse(f"the peg in {chosen} cannot jump to {name}")
                return
        if not state >> here & 1:
            self.refuse(f"{name} is empty: put the cursor on a peg first")
            return
        if not self.moves_from(here):
            self.refuse(f"the peg in {name} has no jump: it needs a neighbour and an empty "
                        "hole beyond it")
            return
        self.selected = here
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        column = event.x - 1 - LABEL  # 1: the left padding
        if column < 0:
            return
        hole = self.hole_at(column // STEP, event.y)
        if hole is None:
            hole = self.hole_at((column - 1) // STEP, event.y)
        if hole is not None:
            self.cursor = hole
            self.action_act()
