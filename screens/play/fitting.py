"""The play screen's parts laid out for the terminal's size.

`screens.play.layout` does the arithmetic (a `Plan` from the sizes the parts need); this module
applies a plan to the screen: its layout classes (the .tcss reads them), the tabbed layout's
panes and their strip, the "too small" message, and where the focus goes. `PlayScreen` is
built on it; nothing here calls the session but to read its mode and the coach's switch.
"""

from __future__ import annotations

from typing import Any

from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Static

from kaeru.engine.game.modes import Mode
from kaeru.engine.game.session import Session
from kaeru.screens.play.layout import BOX, STATS_WIDTH, Needs, Plan, plan
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.goal_board import GoalBoard
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.widgets.stats import StatsPanel

PANE_TITLES = {"board": "Board", "side": "Goal · search", "goal": "Goal", "search": "Search"}
LAYOUT_CLASSES = ("-wide", "-stacked", "-tabbed", "too-small", "-side-row")
PANE_CLASSES = tuple(f"-pane-{name}" for name in PANE_TITLES)
MANAGED_CLASSES = (*LAYOUT_CLASSES, *PANE_CLASSES, "playing-back")


class FittingScreen(Screen[None]):
    """A screen of the play screen's parts (board, goal, stats, playback bar) that lays them
    out for the terminal's size; the subclass gives the session and the board."""

    session: Session[Any, Any]
    board: BoardWidget

    def __init__(self) -> None:
        super().__init__()
        self.plan = Plan("unset")  # until `fit` lays the parts out
        self.pane = "board"

    def on_resize(self, event: Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def needs(self) -> Needs:
        """What the parts need now (see `screens.play.layout`)."""
        return self.needs_of(self.query_one(GoalBoard), self.query_one(StatsPanel))

    def needs_of(self, goal: GoalBoard, stats: StatsPanel) -> Needs:
        return Needs(
            board=self.board.needed_size(),
            goal=goal.needed_size(),
            stats_rows=stats.rows_needed(),
            playback=self.session.mode is Mode.PLAYBACK,
            coach=self.session.coach.enabled,
        )

    def preset_layout(self, goal: GoalBoard, stats: StatsPanel) -> None:
        """The layout classes for the terminal's size, set before the parts are first styled:
        set after, they would restyle every part again (a tenth of a game's start-up). `fit`
        still lays the parts out when mounted."""
        width, height = self.app.size
        wanted = self.layout_classes(plan(width, height, self.needs_of(goal, stats)))
        self.update_classes({name: name in wanted for name in MANAGED_CLASSES}, update=False)

    def fit(self, width: int | None = None, height: int | None = None) -> None:
        """Lay the parts out for the terminal's size (`screens.play.layout.plan`); a 'needs
        W×H' message where nothing fits. Gives the board its focus back when it grows again."""
        if not self.is_mounted:
            return
        width = self.size.width if width is None else width
        height = self.size.height if height is None else height
        new = plan(width, height, self.needs())
        was_small = self.has_class("too-small")
        if new != self.plan or not any(self.has_class(c) for c in LAYOUT_CLASSES):
            self.apply_plan(new)
        else:
            self.restyle()
        if new.mode == "too-small":
            need_w, need_h = new.need
            self.query_one("#too-small", Static).update(
                f"Terminal too small: this board needs at least {need_w}×{need_h} "
                f"(now {width}×{height}).\nEnlarge the window, or press q to go back."
            )
        elif was_small or self.focused is None:
            self.focus_current()

    def apply_plan(self, new: Plan) -> None:
        self.plan = new
        if new.mode == "wide":
            goal_w = self.query_one(GoalBoard).needed_size()[0]
            self.query_one("#side").styles.width = max(goal_w + BOX, STATS_WIDTH)
        else:
            self.query_one("#side").styles.width = None
        self.query_one(PlaybackBar).set_compact(new.playback == "line")
        if new.mode != "tabbed" or self.pane not in new.panes:
            self.pane = "board"
        self.show_pane(self.pane)
        self.board.styles.max_width = None  # a larger form, if the room allows (checked next)
        self.call_after_refresh(self.check_board_room)

    def layout_classes(self, layout: Plan | None = None) -> set[str]:
        """The screen's classes for the plan (`layout`, else the one applied) and the pane
        shown (the .tcss reads them)."""
        layout = self.plan if layout is None else layout
        mode = layout.mode
        wanted = {"too-small" if mode == "too-small" else f"-{mode}", f"-pane-{self.pane}"}
        if layout.side == "row":
            wanted.add("-side-row")
        if self.session.mode is Mode.PLAYBACK:
            wanted.add("playing-back")
        return wanted

    def restyle(self) -> None:
        """Set the layout classes in one batch: one restyle of the screen, not one per class."""
        wanted = self.layout_classes()
        self.update_classes({name: name in wanted for name in MANAGED_CLASSES})

    def check_board_room(self) -> None:
        """A board draws a larger form when the width allows; where the rows do not, hold it to
        its compact form (the plan counted that one)."""
        width, height = self.board.needed_size()
        if self.board.outer_size.height - height > self.plan.spare_rows:
            self.board.styles.max_width = width

    def show_pane(self, pane: str) -> None:
        """Tabbed layout: show one pane (the board, the side, the goal or the search)."""
        self.pane = pane
        self.restyle()
        strip = []
        for name in self.plan.panes:
            title = PANE_TITLES[name]
            if name == pane:
                strip.append(f"[reverse b] {title} [/]")
            else:
                strip.append(f"[@click=screen.show_pane('{name}')] {title} [/]")
        others = "the board" if pane != "board" else "the goal and search"
        strip.append(f" [dim]w: {others}[/dim]")
        self.query_one("#panes", Static).update("".join(strip))
        if pane == "board":
            self.focus_current()
        elif self.focused is self.board or isinstance(self.focused, PlaybackBar):
            self.set_focus(None)

    def action_show_pane(self, pane: str) -> None:
        if pane in self.plan.panes:
            self.show_pane(pane)

    def action_next_pane(self) -> None:
        panes = self.plan.panes
        if panes:
            self.show_pane(panes[(panes.index(self.pane) + 1) % len(panes)])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_pane":
            return self.plan.mode == "tabbed"
        return True

    def focus_current(self) -> None:
        if self.plan.mode == "tabbed" and self.pane != "board":
            return
        if self.session.mode is Mode.PLAYBACK:
            self.query_one(PlaybackBar).focus()
        else:
            self.board.focus()
