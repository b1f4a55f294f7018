"""The safety rules of the river crossings, one small class per story.

Each rule set names its people (labels in display order; identical people repeat a label, as
the missionaries and cannibals do), the boat's size, who may row, and `trouble(group, place)`:
why a group of people may not be together at a place, in words, or None when they may.

Convention, the usual one: a crossing is judged by the boat's load while it crosses and by
both banks once it has landed, its passengers counted on the bank they arrive at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

BOAT = "boat"  # the place name `trouble` gets for the boat's load
LEFT = "left bank"
RIGHT = "right bank"
COUPLE_LETTERS = "abcdefgh"


@dataclass(frozen=True)
class RiverRules:
    """Who is crossing and what may not happen; subclasses say `trouble`."""

    people: tuple[str, ...]  # everyone, in display order (repeats for identical people)
    capacity: int  # the most the boat carries
    rowers: frozenset[str] | None = None  # labels that can row; None when anyone can
    def story(self) -> str:
        """The rules in a few lines, for the help screen."""
        raise NotImplementedError

    def trouble(self, group: Sequence[str], place: str) -> str | None:
        """Why `group` may not be together at `place` (LEFT, RIGHT or BOAT), or None."""
        raise NotImplementedError

    def can_row(self, label: str) -> bool:
        return self.rowers is None or label in self.rowers

    def rower_words(self) -> str:
        """Who may row, for messages: "anyone", "only the Farmer"."""
        if self.rowers is None:
            return "anyone"
        return "only the " + " or the ".join(sorted(self.rowers))


@dataclass(frozen=True)
class JealousHusbands(RiverRules):
    """Couples Ha/Wa, Hb/Wb, ...: no wife with another man unless her husband is there."""

    def story(self) -> str:
        couples = len(self.people) // 2
        who = "One couple" if couples == 1 else f"{couples} couples"
        return (
            f"{who} must cross a river in a boat that holds {self.capacity};\n"
            "anyone rows. No wife may be with another man — on a bank or in\n"
            "the boat — unless her husband is there too.\n"
            "Husbands are Ha, Hb, ..., their wives Wa, Wb, ..."
        )

    @classmethod
    def couples(cls, count: int, capacity: int) -> JealousHusbands:
        letters = COUPLE_LETTERS[:count]
        people = tuple(label for x in letters for label in (f"H{x}", f"W{x}"))
        return cls(people, capacity)

    def trouble(self, group: Sequence[str], place: str) -> str | None:
        here = set(group)
        men = [p for p in self.people if p[0] == "H" and p in here]
        if not men:
            return None
        for wife in (p for p in self.people if p[0] == "W" and p in here):
            husband = "H" + wife[1:]
            if husband in here:
                continue
            other = next(man for man in men if man != husband)  # there is one: no husband
            if place == BOAT:
                return f"{wife} would be in the boat with {other} without {husband}"
            return f"{wife} would be with {other} while {husband} is across"
        return None


@dataclass(frozen=True)
class MissionariesAndCannibals(RiverRules):
    """Missionaries M and cannibals C: cannibals never outnumber missionaries who are there."""

    def story(self) -> str:
        each = len(self.people) // 2
        return (
            f"{each} missionaries (M) and {each} cannibals (C) must cross in a boat\n"
            f"that holds {self.capacity}; anyone rows. Wherever there are missionaries —\n"
            "on a bank or in the boat — the cannibals there must not outnumber\n"
            "them. A boat's passengers count on the bank they land on."
        )

    @classmethod
    def parties(cls, count: int, capacity: int) -> MissionariesAndCannibals:
        return cls(("M",) * count + ("C",) * count, capacity)

    def trouble(self, group: Sequence[str], place: str) -> str | None:
        counts = Counter(group)
        missionaries, cannibals = counts["M"], counts["C"]
        if 0 < missionaries < cannibals:
            where = "in the boat" if place == BOAT else f"on the {place}"
            return (
                f"the cannibals would outnumber the missionaries {where} "
                f"({cannibals} to {missionaries})"
            )
        return None


FARMER, WOLF, GOAT, CABBAGE = "Farmer", "Wolf", "Goat", "Cabbage"


@dataclass(frozen=True)
class WolfGoatCabbage(RiverRules):
    """The farmer rows; left without him the wolf eats the goat and the goat the cabbage."""

    def story(self) -> str:
        return (
            "A farmer must take a wolf, a goat and a cabbage across. Only the\n"
            "farmer rows, and the boat holds him and one more. Left without the\n"
            "farmer, the wolf eats the goat and the goat eats the cabbage."
        )

    @classmethod
    def classic(cls) -> WolfGoatCabbage:
        return cls((FARMER, WOLF, GOAT, CABBAGE), 2, frozenset({FARMER}))

    def trouble(self, group: Sequence[str], place: str) -> str | None:
        here = set(group)
        if FARMER in here:
            return None
        where = f" on the {place}" if place != BOAT else ""
        if WOLF in here and GOAT in here:
            return f"the Wolf would eat the Goat{where}"
        if GOAT in here and CABBAGE in here:
            return f"the Goat would eat the Cabbage{where}"
        return None
