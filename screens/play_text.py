"""Words the play screen shows for a game's outcome: the move counter, the verdict, the clock.
Pure formatting of what the session reports; no rule of play is decided here."""

from __future__ import annotations

from textual.markup import escape

from kaeru.engine.game_record import Outcome


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


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
    if outcome.optimal is None:
        return f"Solved in {plural(outcome.moves, 'move')}!"
    perfect = " A perfect game." if outcome.moves == outcome.optimal else ""
    return f"Solved in {plural(outcome.moves, 'move')} — optimal is {outcome.optimal}!{perfect}"


def status_text(outcome: Outcome) -> str:
    """The status lines under the board (Textual markup, input escaped)."""
    text = counter_text(outcome)
    if outcome.won and outcome.moves:
        helped = " (with help)" if outcome.helped else ""
        text += f"\n[b]{escape(verdict_text(outcome))}[/b]{helped}"
    elif outcome.reason:
        text += f"\n[b]This position can no longer be won:[/b] {escape(outcome.reason)}"
    return text
