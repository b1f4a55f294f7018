"""Where the play screen's parts go at a given terminal size: pure arithmetic, no widgets.

The parts: the board area (title, board, status, message, and the playback bar while a solution
plays back) and the side (the goal and, under or beside it, the search panel and the coach).
Tried in order, the first that fits wins:

- "wide": the side beside the board area;
- "stacked": the side below the board area (goal and search side by side, or one above the
  other);
- "tabbed": one pane at a time, a key switches: the board area, then the side (or the goal and
  the search each in its own pane when together they are too tall);
- "too-small": none fits; `need` is the smallest terminal the tabbed layout fits in.

The playback bar has a boxed form and a one-line one; the boxed form is tried first. Sizes are
the parts' smallest forms (a board's compact form, `needed_size()`), so a board given its
place is never clipped; a board draws larger only inside the room it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CHROME_ROWS = 2  # header and footer
TABS_ROWS = 1  # the one-line pane switcher of the tabbed layout
AREA_PAD = 2  # the board area's padding, left and right
TEXT_ROWS = 5  # title, status and message (two lines each; more scrolls)
BOX = 2  # a panel's border, top and bottom (or left and right)
STATS_WIDTH = 30  # the search panel's width: "positions looked at" and a value
PLAYBACK_BOXED = 5  # border, state, bar, speed (the last move may add a line)
PLAYBACK_LINE = 1
COACH_MIN = 3  # the coach panel's border and its distance line (its list scrolls)


@dataclass(frozen=True)
class Needs:
    """What the parts need now: the board's and the goal's smallest forms (columns, rows), the
    search panel's text rows, and whether playback and the coach are showing."""

    board: tuple[int, int]
    goal: tuple[int, int]
    stats_rows: int = 4
    playback: bool = False
    coach: bool = False


LayoutMode = Literal["wide", "stacked", "tabbed", "too-small", "unset"]  # unset: not laid out yet
Side = Literal["column", "row"]  # goal and search one above the other, or side by side
Pane = Literal["board", "side", "goal", "search"]
PlaybackForm = Literal["boxed", "line"]


@dataclass(frozen=True)
class Plan:
    mode: LayoutMode
    side: Side = "column"
    panes: tuple[Pane, ...] = ()  # tabbed: "board", "side", or "board", "goal", "search"
    playback: PlaybackForm = "boxed"
    spare_rows: int = 0  # rows left over (the screen may add air around the board)
    need: tuple[int, int] = (0, 0)  # the smallest terminal that fits (columns, rows)


def area_size(needs: Needs, playback: str) -> tuple[int, int]:
    """The board area's smallest (columns, rows) with the playback bar in the given form."""
    width, height = needs.board
    bar = 0 if not needs.playback else PLAYBACK_BOXED if playback == "boxed" else PLAYBACK_LINE
    return width + AREA_PAD, height + TEXT_ROWS + bar


def goal_size(needs: Needs) -> tuple[int, int]:
    width, height = needs.goal
    return width + BOX, height + BOX


def search_size(needs: Needs) -> tuple[int, int]:
    """The search panel with the coach under it (when on)."""
    return STATS_WIDTH, needs.stats_rows + BOX + (COACH_MIN if needs.coach else 0)


def side_size(needs: Needs, side: str) -> tuple[int, int]:
    (goal_w, goal_h), (search_w, search_h) = goal_size(needs), search_size(needs)
    if side == "row":
        return goal_w + search_w, max(goal_h, search_h)
    return max(goal_w, search_w), goal_h + search_h


def plan(width: int, height: int, needs: Needs) -> Plan:
    """The first layout that fits a `width`×`height` terminal."""
    rows = height - CHROME_ROWS
    for playback in ("boxed", "line"):
        area_w, area_h = area_size(needs, playback)
        side_w, side_h = side_size(needs, "column")
        if width >= area_w + side_w and rows >= max(area_h, side_h):
            return Plan("wide", "column", (), playback, rows - max(area_h, side_h))
        for side in ("row", "column"):
            side_w, side_h = side_size(needs, side)
            if width >= max(area_w, side_w) and rows >= area_h + side_h:
                return Plan("stacked", side, (), playback, rows - area_h - side_h)
    return tabbed(width, rows, needs)


def tabbed(width: int, rows: int, needs: Needs) -> Plan:
    """One pane at a time (the playback bar in its one-line form, under the board)."""
    area_w, area_h = area_size(needs, "line")
    goal_w, goal_h = goal_size(needs)
    search_w, search_h = search_size(needs)
    need_w = max(area_w, goal_w, search_w)
    need_h = CHROME_ROWS + TABS_ROWS + max(area_h, goal_h, search_h)
    pane_rows = rows - TABS_ROWS
    if width < need_w or pane_rows < max(area_h, goal_h, search_h):
        return Plan("too-small", need=(need_w, need_h))
    for side in ("row", "column"):
        side_w, side_h = side_size(needs, side)
        if width >= side_w and pane_rows >= side_h:
            return Plan("tabbed", side, ("board", "side"), "line", pane_rows - area_h,
                        (need_w, need_h))
    return Plan("tabbed", "column", ("board", "goal", "search"), "line", pane_rows - area_h,
                (need_w, need_h))
