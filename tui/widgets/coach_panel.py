"""The coach panel: the distance to the goal from the position shown, and the game's moves with
the coach's verdict on each (✓ optimal, ✗ wasted, ☠ lost, with the reason). It draws the values
the session's coach gives; it reads no puzzle."""

from __future__ import annotations

from collections.abc import Sequence

from textual.markup import escape
from textual.widgets import Static

from kaeru.engine.coach.distance import Distance
from kaeru.engine.coach.session_coach import MoveMark
from kaeru.tui.widgets.text_update import update_text

MARKS = {"optimal": "[green]✓[/green]", "wasted": "[yellow]✗[/yellow]", "lost": "[red]☠[/red]"}
ROWS = 8  # the newest moves shown


def distance_line(distance: Distance | None, unit: str, gave_up: bool = False) -> str:
    """ "12 moves to go", "lost: <reason>", or "working it out…" (plain text)."""
    if distance is None:
        return "too far to work out (the search gave up)" if gave_up else "working it out…"
    return distance.words(unit)


def mark_line(mark: MoveMark) -> str:
    """One move of the list, in Textual markup."""
    sign = MARKS.get(mark.verdict or "", "[dim]·[/dim]")
    after = "" if mark.after is None or mark.after.moves is None else f" → {mark.after.moves}"
    line = f"{mark.index:>3}. {sign} {escape(mark.move)}[dim]{after}[/dim]"
    if mark.reason:
        line += f"\n      [dim]{escape(mark.reason)}[/dim]"
    return line


class CoachPanel(Static):
    """Distance and move list; hidden while the coach is off."""

    DEFAULT_CSS = """
    CoachPanel { border: round $success; padding: 0 1; height: auto; max-height: 16;
                 width: 100%; }
    CoachPanel.-off { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Coach"
        self.text = ""

    def show_coach(
        self,
        enabled: bool,
        distance: Distance | None,
        marks: Sequence[MoveMark],
        unit: str,
        gave_up: bool = False,
    ) -> None:
        self.set_class(not enabled, "-off")
        if not enabled:
            return
        lines = [f"[b]{escape(distance_line(distance, unit, gave_up))}[/b]"]
        shown = list(marks)[-ROWS:]
        if len(marks) > len(shown):
            lines.append(f"[dim]… {len(marks) - len(shown)} earlier[/dim]")
        lines += [mark_line(mark) for mark in shown]
        if marks:
            counts = {v: sum(1 for m in marks if m.verdict == v) for v in MARKS}
            lines.append(
                f"[dim]{counts['optimal']} optimal, {counts['wasted']} wasted"
                + (f", {counts['lost']} lost" if counts["lost"] else "")
                + "[/dim]"
            )
        self.text = "\n".join(lines)
        update_text(self, self.text)
