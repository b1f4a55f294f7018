"""The midend's modes as an explicit state machine: which actions each mode allows, and the one
line a player reads when an action is refused.

A game is always in exactly one mode:
- PLAYING: the player moves; quiet searches (optimal length, dead-end check) may run.
- SEARCHING: a hint or a solution the player asked for is being searched; moving, undoing or
  restarting still works and cancels it (its answer would be for another position).
- PLAYBACK: a solution is being shown step by step; the live game is frozen until the player
  takes over (`t`) or leaves (Escape).
"""

from __future__ import annotations

from enum import Enum


class Mode(Enum):
    PLAYING = "playing"
    SEARCHING = "searching"
    PLAYBACK = "playback"


class Refused(Exception):
    """An action the current mode (or position) does not allow; the message is one line."""


ALL = frozenset(Mode)
LIVE = frozenset({Mode.PLAYING, Mode.SEARCHING})

# Every action of the Session and the modes it is allowed in.
ALLOWED: dict[str, frozenset[Mode]] = {
    "move": LIVE,
    "undo": LIVE,
    "redo": LIVE,
    "restart": LIVE,
    "hint": frozenset({Mode.PLAYING}),
    "solve": frozenset({Mode.PLAYING}),
    "cancel": ALL,
    "playback": frozenset({Mode.PLAYBACK}),
    "take_over": frozenset({Mode.PLAYBACK}),
    "leave_playback": frozenset({Mode.PLAYBACK}),
    "new_game": ALL,
}

# What a player is told, by (action, mode); the generic wording covers the rest.
WORDS = {
    "move": "move",
    "undo": "undo",
    "redo": "redo",
    "restart": "restart",
    "hint": "ask for a hint",
    "solve": "solve",
}


def refusal(action: str, mode: Mode) -> str:
    """Why `action` is refused in `mode`, in one line."""
    if mode is Mode.PLAYBACK:
        return f"Leave playback first (Escape) to {WORDS.get(action, action)}."
    if mode is Mode.SEARCHING:
        return "The engine is already thinking (Escape cancels)."
    if action in ("playback", "take_over", "leave_playback"):
        return "Nothing is playing back: press s to see a solution."
    return f"Not possible now: {action}."


def check(action: str, mode: Mode) -> None:
    """Raise Refused when `mode` does not allow `action`."""
    if mode not in ALLOWED[action]:
        raise Refused(refusal(action, mode))
