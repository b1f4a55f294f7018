"""Words the play screen shows for a game: the move counter, the verdict, the title, the goal's
caption. Pure formatting of what the session and the puzzle report; no rule of play is decided
here. Engine words that mean nothing to a player are translated here, at the display."""

from __future__ import annotations

from typing import Any

from textual.markup import escape

from kaeru.engine.game.record import Outcome
from kaeru.engine.rules.protocol import Puzzle
from kaeru.tui.words import plural

__all__ = ["counter_text", "goal_words", "player_title", "plural", "status_text", "verdict_text"]

# Engine words a player would not follow, and what the screen says instead.
JARGON = {" (the seed's)": ""}


def player_title(title: str) -> str:
    """A puzzle's title as players read it ("T (the seed's)" is just "T")."""
    for word, plain in JARGON.items():
        title = title.replace(word, plain)
    return title


def goal_words(puzzle: Puzzle[Any, Any], start: Any) -> str:
    """The goal in words where the puzzle has some ("one peg left, in d4"); "" where its goal
    text is only the goal position's text form (the goal board shows that better)."""
    target = puzzle.goal(start)
    words = puzzle.goal_text(start)
    if target is not None and words == puzzle.format(target):
        return ""
    return words


def counter_text(outcome: Outcome) -> str:
    if outcome.chains is not None:  # pegs: moves are chains of jumps
        return f"Moves: {outcome.chains}   jumps: {outcome.moves}"
    text = f"Moves: {outcome.moves}"
    if outcome.optimal is not None:
        text += f"   optimal from the start: {outcome.optimal}"
    return text


def verdict_text(outcome: Outcome) -> str:
    if outcome.chains is not None:
        return f"Solved in {plural(outcome.chains, 'move')} ({plural(outcome.moves, 'jump')})."
    made = f"Solved in {plural(outcome.moves, 'move')}"
    if outcome.optimal is None:
        return f"{made}!"
    if outcome.moves <= outcome.optimal:
        return f"{made}: a perfect game!"
    return f"{made} (the fewest is {outcome.optimal})."


def status_text(outcome: Outcome) -> str:
    """The status lines under the board (Textual markup, input escaped); a lost position says
    why at once and offers the way back (U turns the coach on: it knows where it can be won)."""
    text = counter_text(outcome)
    if outcome.won and outcome.moves:
        helped = " (with help)" if outcome.helped else ""
        text += f"\n[b]{escape(verdict_text(outcome))}[/b]{helped}"
    elif outcome.reason:
        text += f"\n[b]This position can no longer be won:[/b] {escape(outcome.reason)}"
        text += "\nu: take back a move · U: back to where it can be won"
    return text
