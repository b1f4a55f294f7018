"""The river scene: two banks, the river and the boat, for every river-crossing puzzle.

Everyone has a fixed slot, numbered 1–9 and 0, drawn on the bank where they stand. Press a
slot's number (or move the ▸ cursor and press Space) to put that person in the boat: they are
drawn in it, their place on the bank shows dots. Enter crosses. The rules stay in the engine:
an unsafe crossing is refused with the engine's reason, which the layout lists for every
boatload that may not cross. A hint marks the people to send with ★; a crossing sails the boat
over with its passengers aboard. Escape empties the boat (and, when it is empty, goes on to the
screen); `v` draws plain ASCII (> cursor, * hint, a boat of _ and slashes) instead of glyphs.
The cursor starts on someone who may board. People, boat and water read by their characters,
so the scene needs no colour.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.timer import Timer

from kaeru.engine.rules.layout import Layout, RiverScene
from kaeru.tui.widgets.board import BoardWidget, arrow_bindings

WAVE = "~"
SAIL_SECONDS = 0.3  # how long the boat takes to cross
WIDTH = 40  # columns the scene fills (the play screen keeps its side panel up to 40 at 80×24)
KEYS = "1234567890"
NO_SCENE = RiverScene((), True, 1)
GLYPHS = {"cursor": "▸", "hint": "★", "away": "·", "hull": ("╲", "_", "╱"), "right": "→",
          "left": "←", "enter": "⏎", "to": "–", "dots": "…",
          "sep": " · "}
LETTERS = {"cursor": ">", "hint": "*", "away": ".", "hull": ("\\", "_", "/"), "right": "->",
           "left": "<-", "enter": "Enter", "to": "-", "dots": "...",
           "sep": ", "}


def first_boarder(layout: Layout) -> int:
    """The first person (slot) who may cross in some boatload, else slot 0."""
    starts = [entry.sources[0] for entry in layout.moves if entry.sources]
    return min(starts) if starts else 0


class RiverBoard(BoardWidget):
    """Two banks and a boat; number keys choose who boards, Enter crosses."""

    BOARD_KIND = "river"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "cross", "Cross", id="board.move"),
        Binding("space", "toggle_cursor", "Board / leave", show=False, id="board.pick"),
        *arrow_bindings({"left": "cursor(-1)", "right": "cursor(1)", "up": "cursor_row(-1)",
                         "down": "cursor_row(1)"}),
        Binding("escape", "clear", "Empty the boat", show=False, id="board.drop"),
    ]
    BINDINGS += [
        Binding(key, f"aboard({i})", "1–9, 0: board or leave the boat" if i == 0 else "",
                show=False, id=f"board.digit_{key}")
        for i, key in enumerate(KEYS)
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "riverboard--bank",
        "riverboard--water",
        "riverboard--boat",
        "riverboard--person",
        "riverboard--away",
        "riverboard--aboard",
        "riverboard--cursor",
        "riverboard--hint",
        "riverboard--key",
        "riverboard--label",
    }

    DEFAULT_CSS = """
    RiverBoard { width: auto; height: auto; }
    RiverBoard > .riverboard--bank { background: $success 15%; }
    RiverBoard:ansi > .riverboard--bank { background: ansi_default; }
    RiverBoard > .riverboard--water { color: $primary; }
    RiverBoard > .riverboard--boat { color: $foreground; text-style: bold; }
    RiverBoard > .riverboard--person { color: $text; text-style: bold; }
    RiverBoard > .riverboard--away { color: $text-muted; }
    RiverBoard > .riverboard--aboard { color: $accent; text-style: bold; }
    RiverBoard > .riverboard--cursor { text-style: reverse; }
    RiverBoard > .riverboard--hint { color: $accent; text-style: bold; }
    RiverBoard > .riverboard--key { color: $text-muted; }
    RiverBoard > .riverboard--label { color: $foreground-muted; text-style: italic; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.people: tuple[str, ...] = tuple(cell.label for cell in self.shown.cells)
        self.capacity: int = self.scene().capacity
        self.label_width = max(len(p) for p in self.people)
        self.per_row = self._per_row()
        self.cursor = first_boarder(self.shown)
        self.aboard: set[int] = set()  # slots chosen to cross
        self.sailing: tuple[bool, tuple[str, ...], int] | None = None  # from left, load, frame
        self._sail_timer: Timer | None = None

    def _per_row(self) -> int:
        """Slots a row: identical people share a row, long names get a row each, else pairs."""
        if self.label_width > 3:
            return 1
        kinds = list(dict.fromkeys(self.people))
        if len(kinds) < len(self.people):
            return max(self.people.count(kind) for kind in kinds)
        return 2

    def scene(self) -> RiverScene:
        return self.shown.river or NO_SCENE

    @property
    def boat_left(self) -> bool:
        return self.scene().boat_left

    # ---- geometry ----------------------------------------------------------------------------
    @property
    def slot_width(self) -> int:
        return 3 + self.label_width  # cursor mark, key, hint mark, label

    @property
    def bank_width(self) -> int:
        return self.per_row * self.slot_width + 2

    @property
    def boat_width(self) -> int:
        return max(self.label_width + 4, 6)

    @property
    def river_width(self) -> int:
        return max(WIDTH - 2 * self.bank_width, self.boat_width + 4)

    @property
    def travel(self) -> int:
        """Columns the boat moves from one bank to the other."""
        return self.river_width - self.boat_width

    @property
    def body_rows(self) -> int:
        return max(-(-len(self.people) // self.per_row), self.capacity + 1)

    def needed_size(self) -> tuple[int, int]:
        return 2 * self.bank_width + self.river_width, self.body_rows + 2

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.needed_size()[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.needed_size()[1]

    # ---- where everyone is -------------------------------------------------------------------
    def sides(self) -> list[bool]:
        """For each slot, True when that person is on the left bank."""
        return list(self.scene().on_left)

    def hinted(self) -> set[int]:
        """Slots of the people a hint sends across (on the boat's bank)."""
        hint = self.hint_entry()
        return set(hint.sources) if hint is not None else set()

    def load(self) -> tuple[str, ...]:
        """The people aboard, in roster order."""
        return tuple(self.people[i] for i in sorted(self.aboard))

    def same_people(self, slots: tuple[int, ...]) -> bool:
        """Whether these slots hold the same people as the boat (identical people match)."""
        return Counter(self.people[i] for i in slots) == Counter(self.load())

    # ---- drawing -----------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"riverboard--{name}")

    @property
    def signs(self) -> dict[str, Any]:
        """Glyphs, or plain ASCII after `v`."""
        return LETTERS if self.plain else GLYPHS

    def slot_text(self, slot: int, present: bool, hint: bool, ashore: bool) -> Text:
        """One slot on one bank: the cursor mark, the key, the hint mark and the person."""
        width = self.label_width
        text = Text()
        cursor = slot == self.cursor and not self.locked
        if not present:
            return Text(" " * self.slot_width)
        signs = self.signs
        text.append(signs["cursor"] if cursor else " ",
                    self._style("cursor") if cursor else Style())
        text.append(KEYS[slot] if slot < len(KEYS) else " ", self._style("key"))
        text.append(signs["hint"] if hint else " ", self._style("hint"))
        if not ashore:
            name = len(self.people[slot])
            text.append(signs["away"] * name + " " * (width - name), self._style("away"))
        else:
            style = self._style("person") + (self._style("cursor") if cursor else Style())
            text.append(self.people[slot].ljust(width), style)
        return text

    def bank_row(self, row: int, left: bool, sides: list[bool], hints: set[int]) -> Text:
        bank = self._style("bank")
        text = Text(" ", bank)
        slots = range(row * self.per_row, min((row + 1) * self.per_row, len(self.people)))
        hidden = self.hidden_slots()
        for slot in slots:
            present = sides[slot] == left and slot not in hidden
            text.append_text(self.slot_text(slot, present, slot in hints, slot not in self.aboard))
        text.append(" " * (self.bank_width - text.cell_len), bank)
        text.stylize(bank)
        return text

    def hidden_slots(self) -> set[int]:
        """Slots of passengers still in the boat while it sails (not yet ashore)."""
        if self.sailing is None:
            return set()
        from_left, load, _ = self.sailing
        sides = self.sides()
        hidden: set[int] = set()
        for label in load:
            slot = next(
                (i for i, p in enumerate(self.people)
                 if p == label and sides[i] != from_left and i not in hidden),
                None,
            )
            if slot is not None:
                hidden.add(slot)
        return hidden

    def boat_place(self) -> tuple[int, tuple[str, ...]]:
        """The boat's column in the river and who is shown in it."""
        if self.sailing is not None:
            from_left, load, frame = self.sailing
            return (frame if from_left else self.travel - frame), load
        passengers = tuple(self.people[i] for i in sorted(self.aboard))
        return (0 if self.boat_left else self.travel), passengers

    def water(self, row: int, start: int, end: int) -> Text:
        """River columns start..end-1 of a row: waves every other column, rows offset."""
        chars = "".join(WAVE if (col + row) % 2 == 0 else " " for col in range(start, end))
        return Text(chars, self._style("water"))

    def river_row(self, row: int) -> Text:
        """One row of the river: water, and the boat in the bottom rows (passengers stacked
        above the hull, the first aboard nearest the hull)."""
        column, passengers = self.boat_place()
        hull_row = self.body_rows - 1
        seat = hull_row - row  # 0 for the hull, 1.. for the seats above it
        if seat < 0 or seat > self.capacity:
            return self.water(row, 0, self.river_width)
        inner = self.boat_width - 2
        if seat == 0:
            left, bottom, right = self.signs["hull"]
            boat = Text(left + bottom * inner + right, self._style("boat"))
        else:
            who = passengers[seat - 1] if seat <= len(passengers) else ""
            style = self._style("aboard") if self.sailing is None else self._style("person")
            boat = Text(" ") + Text(who.center(inner), style) + Text(" ")
            if not who:
                return self.water(row, 0, self.river_width)
        text = self.water(row, 0, column)
        text.append_text(boat)
        text.append_text(self.water(row, column + self.boat_width, self.river_width))
        return text

    def status_line(self) -> Text:
        label = self._style("label")
        signs = self.signs
        if self.sailing is not None:
            return Text(f"Crossing{signs['dots']}", label)
        arrow = signs["right"] if self.boat_left else signs["left"]
        enter, sep = signs["enter"], signs["sep"]
        if self.picture:
            return Text(f"Boat holds {self.capacity}", label)
        if not self.aboard:
            last = KEYS[min(len(self.people), len(KEYS)) - 1]
            return Text(f"Boat holds {self.capacity}{sep}1{signs['to']}{last}: aboard{sep}"
                        f"{enter} {arrow}", label)
        names = " ".join(self.people[i] for i in sorted(self.aboard))
        return Text(f"Aboard: {names} ({len(self.aboard)}/{self.capacity})  {enter} {arrow}",
                    label)

    def render(self) -> Text:
        label = self._style("label")
        header = Text()
        header.append("Left bank".center(self.bank_width), label)
        header.append("river".center(self.river_width), label)
        header.append("Right bank".center(self.bank_width), label)
        sides = self.sides()
        hints = self.hinted()
        lines = [header]
        for row in range(self.body_rows):
            line = self.bank_row(row, True, sides, hints)
            line.append_text(self.river_row(row))
            line.append_text(self.bank_row(row, False, sides, hints))
            lines.append(line)
        lines.append(self.status_line())
        return Text("\n").join(lines)

    # ---- state changes and sailing -----------------------------------------------------------
    def watch_shown(self, layout: Layout) -> None:
        if not self.moved:
            return
        self.aboard.clear()
        self._stop_sailing()
        before = self.previous.river if self.previous is not None else None
        entry = self.last_entry()
        if entry is None or before is None or self._no_animation():
            return
        now = self.scene()
        sailed = before.boat_left != now.boat_left and all(
            before.on_left[slot] != now.on_left[slot] for slot in entry.sources
        )
        if sailed:
            self.sailing = (before.boat_left, tuple(self.people[i] for i in entry.sources), 0)
            self._sail_timer = self.set_interval(SAIL_SECONDS / self.travel, self._sail_step)

    def _no_animation(self) -> bool:
        return not self.is_attached or self.app.animation_level == "none"

    def _sail_step(self) -> None:
        if self.sailing is None:
            return
        from_left, load, frame = self.sailing
        if frame + 1 >= self.travel:
            self._stop_sailing()
        else:
            self.sailing = (from_left, load, frame + 1)
        self.refresh()

    def _stop_sailing(self) -> None:
        self.sailing = None
        if self._sail_timer is not None:
            self._sail_timer.stop()
            self._sail_timer = None

    def watch_locked(self, locked: bool) -> None:
        self.aboard.clear()
        self.refresh()

    # ---- keys and clicks ---------------------------------------------------------------------
    def action_cursor(self, delta: int) -> None:
        self.cursor = (self.cursor + delta) % len(self.people)
        self.refresh()

    def action_cursor_row(self, delta: int) -> None:
        target = self.cursor + delta * self.per_row
        if 0 <= target < len(self.people):
            self.cursor = target
            self.refresh()

    def action_toggle_cursor(self) -> None:
        self.action_aboard(self.cursor)

    def action_aboard(self, slot: int) -> None:
        """Put the person in `slot` in the boat, or back ashore."""
        if slot >= len(self.people):
            return
        self.cursor = slot
        if self.locked:
            self.choose(None)  # refused by the base class: playback is running
            return
        if slot in self.aboard:
            self.aboard.discard(slot)
        else:
            person = self.people[slot]
            if self.sides()[slot] != self.boat_left:
                side, other = ("right", "left") if self.boat_left else ("left", "right")
                self.refuse(f"{person} is on the {side} bank; the boat is on the {other}")
                self.refresh()
                return
            if len(self.aboard) >= self.capacity:
                self.refuse(f"the boat holds {self.capacity}")
                self.refresh()
                return
            self.aboard.add(slot)
        self.refresh()

    def action_clear(self) -> None:
        if not self.aboard:
            raise SkipAction()  # let Escape go back or cancel, as elsewhere
        self.aboard.clear()
        self.refresh()

    def action_cross(self) -> None:
        """Offer the crossing, or refuse an unsafe one with the engine's reason."""
        for entry in self.shown.moves:
            if self.same_people(entry.sources):
                self.choose(entry.move)
                return
        if self.locked:
            self.choose(None)  # refused by the base class: playback is running
            return
        for refusal in self.shown.refusals:
            if self.same_people(refusal.sources):
                self.refuse(refusal.reason)
                return
        self.refuse("those people cannot cross together")

    def on_click(self, event: events.Click) -> None:
        row = event.y - 1
        if not 0 <= row < self.body_rows:
            return
        for left, start in ((True, 1), (False, self.bank_width + self.river_width + 1)):
            col = (event.x - start) // self.slot_width
            if start <= event.x < start + self.per_row * self.slot_width:
                slot = row * self.per_row + col
                if slot < len(self.people) and self.sides()[slot] == left:
                    self.action_aboard(slot)
                return
        self.action_cross()  # a click on the river sends the boat
