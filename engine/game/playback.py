"""Stepping through a Solution: position, play/pause, speed — the state of a playback bar."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic

from kaeru.engine.rules.protocol import M, S, Solution

SPEEDS = (2.0, 1.2, 0.8, 0.5, 0.3, 0.18, 0.1, 0.05)  # seconds a step, slow to fast


@dataclass
class Playback(Generic[S, M]):
    """A cursor over a solution's states; the UI drives it with a timer."""

    solution: Solution[S, M]
    index: int = 0
    playing: bool = False
    speed_level: int = 3

    @property
    def state(self) -> S:
        return self.solution.states[self.index]

    @property
    def length(self) -> int:
        return self.solution.length

    @property
    def at_end(self) -> bool:
        return self.index >= self.length

    @property
    def at_start(self) -> bool:
        return self.index == 0

    @property
    def interval(self) -> float:
        return SPEEDS[self.speed_level]

    @property
    def next_move(self) -> M | None:
        return None if self.at_end else self.solution.moves[self.index]

    @property
    def last_move(self) -> M | None:
        return None if self.at_start else self.solution.moves[self.index - 1]

    def forward(self) -> bool:
        """One step on; False (and playing stops) at the end."""
        if self.at_end:
            self.playing = False
            return False
        self.index += 1
        if self.at_end:
            self.playing = False
        return True

    def back(self) -> bool:
        if self.at_start:
            return False
        self.index -= 1
        return True

    def seek(self, index: int) -> None:
        self.index = max(0, min(self.length, index))

    def toggle(self) -> bool:
        """Play or pause; playing from the end starts again from the beginning."""
        if not self.playing and self.at_end:
            self.index = 0
        self.playing = not self.playing
        return self.playing

    def command(self, name: str) -> None:
        """A playback key by name: toggle, forward, back, first, last, faster, slower, or tick
        (the UI timer's step, which keeps playing); stepping by hand pauses."""
        if name in ("forward", "back"):
            self.playing = False
        actions = {"toggle": self.toggle, "forward": self.forward, "tick": self.forward,
                   "back": self.back, "first": lambda: self.seek(0),
                   "last": lambda: self.seek(self.length), "faster": self.faster,
                   "slower": self.slower}
        if name not in actions:
            raise ValueError(f"unknown playback command {name!r}")
        actions[name]()

    def faster(self) -> None:
        self.speed_level = min(len(SPEEDS) - 1, self.speed_level + 1)

    def slower(self) -> None:
        self.speed_level = max(0, self.speed_level - 1)
