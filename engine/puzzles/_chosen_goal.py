"""A goal chosen apart from the start, for the families whose goal follows the start.

In Flip It and knight exchange the goal is the start with its colours swapped, so a game begun
anywhere else aims somewhere else. The explorer counts every position's distance to the
*standard* game's goal and opens its farthest positions as games towards that goal: such a game
is the same puzzle with its goal chosen, `flip-it-7@_WWWWWW`, the goal's text after `@` as peg
solitaire writes its finishing hole. The puzzle id carries the goal, so the game id
(`flip-it-7@_WWWWWW:W_BWBWB`), saves, records and the search service's jobs, which all name a
puzzle by its id, name the same game, and the command line takes it as `--goal`.
`SwappedOrChosenGoal` gives both families that goal rule.
"""

from __future__ import annotations

from kaeru.engine.rules.protocol import BadInput

SWAP = str.maketrans("BW", "WB")


def swap_colours(state: str) -> str:
    """Black stones or knights white and white black (`_` stays)."""
    return state.translate(SWAP)


class SwappedOrChosenGoal:
    """The goal of Flip It and knight exchange: a game's start with its colours swapped, or
    the goal chosen for every game (`chosen_goal`, which the constructor sets)."""

    chosen_goal: str | None = None

    def goal(self, start: str) -> str:
        return swap_colours(start) if self.chosen_goal is None else self.chosen_goal


def split_goal(puzzle_id: str) -> tuple[str, str | None]:
    """(the base id, the goal's text or None) of `flip-it-7@_WWWWWW`; BadInput for a bare `@`."""
    base, at, goal = puzzle_id.partition("@")
    if at and not goal.strip():
        raise BadInput(f"{puzzle_id}: give the goal after @, as a layout like a start's")
    return base, goal if at else None


def chosen_rule(goal_text: str) -> str:
    """The goal line of the rules for a game with a chosen goal."""
    return f"Goal: the layout {goal_text}, shown as the goal (chosen, not the start's swap)."
