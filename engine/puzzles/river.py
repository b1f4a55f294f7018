"""River crossings (seed 001, problem 3, and its kin): jealous husbands, missionaries and
cannibals, the wolf, the goat and the cabbage. One Puzzle class; the stories' rules live in
`engine.puzzles._river_rules`.

A position is who stands on the left bank (labels in roster order, repeats for identical
people) and which side the boat is on. Its text form lists the left bank, the word `boat` on
the boat's side of a `|`, then the right bank: `Ha Wa Hb Wb Hc Wc boat | ` at the start,
`Ha Hb Hc Wc | boat Wa Wb` after the first crossing. A move is the tuple of labels crossing,
in roster order (`("Wa", "Wb")`, `("M", "C")`); the boat goes from its side to the other.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from typing import NamedTuple

from kaeru.engine.puzzles._river_rules import (
    BOAT,
    LEFT,
    RIGHT,
    JealousHusbands,
    MissionariesAndCannibals,
    RiverRules,
    WolfGoatCabbage,
)
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.layout import PERSON, Cell, Layout, LayoutMove, Refusal, RiverScene
from kaeru.engine.rules.protocol import BadInput, Capabilities, Puzzle, Solution, Unsolvable
from kaeru.engine.rules.text_input import ascii_number
from kaeru.engine.search.bidirectional import bidirectional_bfs
from kaeru.engine.search.enumerate import enumerate_bfs

Move = tuple[str, ...]
BOAT_WORD = "boat"


class RiverState(NamedTuple):
    """Who is on the left bank (roster order) and whether the boat is there."""

    left: tuple[str, ...]
    boat_left: bool


class River(Puzzle[RiverState, Move]):
    """Get everyone from the left bank to the right without breaking the story's rule."""

    family = "river"
    board = "river"
    # the same load can always row straight back; solved by bidirectional BFS, with the
    # story's words when there is no way across
    capabilities = Capabilities(reversible=True, own_solver=True)

    def __init__(self, puzzle_id: str, title: str, rules: RiverRules) -> None:
        self.id = puzzle_id
        self.title = title
        self.river_rules = rules
        self.people = rules.people
        self.capacity = rules.capacity
        self._order = {label: i for i, label in reversed(list(enumerate(self.people)))}
        self._moves_seen: dict[RiverState, list[Move]] = {}
        self.rules = (
            rules.story()
            + "\nPick who boards, then cross: get everyone to the right bank.\n"
            + "Text form: the left bank, `boat` on its side of the |, the right\n"
            + f"bank, e.g. {self.format(self.initial()).strip()}"
        )

    # ---- banks ------------------------------------------------------------------------------
    def sort_labels(self, labels: Iterable[str]) -> tuple[str, ...]:
        """Labels in roster order (the canonical order of banks and moves)."""
        return tuple(sorted(labels, key=self._order.__getitem__))

    def bank(self, state: RiverState, left: bool) -> tuple[str, ...]:
        """The people on one bank, in roster order."""
        if left:
            return state.left
        return self.sort_labels((Counter(self.people) - Counter(state.left)).elements())

    def crossing(self, labels: Iterable[str]) -> Move:
        """The move for these people boarding (any order): what a front end should push."""
        return self.sort_labels(labels)

    # ---- the rules --------------------------------------------------------------------------
    def initial(self) -> RiverState:
        return RiverState(self.people, True)

    def goal(self, start: RiverState) -> RiverState:
        return RiverState((), False)

    def moves(self, state: RiverState) -> list[Move]:
        found = self._moves_seen.get(state)
        if found is None:  # the spaces are small (at most 2 × 2^10 positions): remember them
            here = self.bank(state, state.boat_left)
            there = self.bank(state, not state.boat_left)
            found = [
                load
                for size in range(self.capacity, 0, -1)
                for load in dict.fromkeys(combinations(here, size))
                if self._problem(state, load, here, there) is None
            ]
            self._moves_seen[state] = found
        return list(found)

    def predecessors(self, state: RiverState) -> Iterable[tuple[RiverState, Move]]:
        """Every crossing can be rowed straight back by the same load."""
        return [(self.apply(state, move), move) for move in self.moves(state)]

    def apply(self, state: RiverState, move: Move) -> RiverState:
        if state.boat_left:
            left = tuple((Counter(state.left) - Counter(move)).elements())
        else:
            left = state.left + move
        return RiverState(self.sort_labels(left), not state.boat_left)

    def _problem(
        self,
        state: RiverState,
        load: Move,
        here: tuple[str, ...] | None = None,
        there: tuple[str, ...] | None = None,
    ) -> str | None:
        """Why a load that is on the boat's bank (`here`) and fits the boat may not cross to
        the other bank (`there`), or None."""
        rules = self.river_rules
        if not any(rules.can_row(label) for label in load):
            return f"the boat needs a rower: {rules.rower_words()} can row"
        reason = rules.trouble(load, BOAT)
        if reason:
            return reason
        behind = list(self.bank(state, state.boat_left) if here is None else here)
        for label in load:
            behind.remove(label)
        arriving = list(self.bank(state, not state.boat_left) if there is None else there)
        arriving += load
        names = (LEFT, RIGHT) if state.boat_left else (RIGHT, LEFT)
        for group, place in zip((behind, arriving), names, strict=True):  # left behind first
            reason = rules.trouble(group, place)
            if reason:
                return reason
        return None

    def explain_illegal(self, state: RiverState, move: Move) -> str:
        if isinstance(move, str) or not isinstance(move, Iterable):
            return f"not a crossing: {move!r} (expected the people who board)"
        load = list(move)
        if not load:
            return "the boat needs a rower: nobody is aboard"
        unknown = sorted({str(label) for label in load if label not in self._order})
        if unknown:
            return f"nobody here is called {unknown[0]} (the people are {self._roll_call()})"
        side = "left" if state.boat_left else "right"
        here = Counter(self.bank(state, state.boat_left))
        for label, wanted in Counter(load).items():
            if here[label] < wanted:
                if wanted == 1 or self.people.count(label) == 1:
                    return f"{label} is not on the {side} bank, where the boat is"
                return f"only {here[label]} {label} on the {side} bank, where the boat is"
        if len(load) > self.capacity:
            return f"the boat holds {self.capacity}"
        canonical = self.sort_labels(load)
        reason = self._problem(state, canonical)
        if reason is None and move != canonical:
            return f"write the crossing as {canonical!r}: a tuple, people in roster order"
        return reason or super().explain_illegal(state, move)

    def layout(self, state: RiverState) -> Layout:
        """One cell a person, in roster order (identical people fill their places on the left
        bank from the first); a crossing's sources are the people aboard; every boatload that
        may not cross is listed with the reason."""
        counts = Counter(state.left)
        on_left = []
        for label in self.people:
            on_left.append(counts[label] > 0)
            counts[label] -= 1
        repeated = {label for label in self.people if self.people.count(label) > 1}
        names = [
            f"{label}{self.people[: slot + 1].count(label)}" if label in repeated else label
            for slot, label in enumerate(self.people)
        ]  # M1 M2 M3 for identical people
        cells = tuple(
            Cell(names[slot], slot, 0 if left else 1, PERSON, label)
            for slot, (label, left) in enumerate(zip(self.people, on_left, strict=True))
        )
        free = [slot for slot, left in enumerate(on_left) if left == state.boat_left]

        def seats(load: Move) -> tuple[int, ...]:
            chosen: list[int] = []
            for label in load:
                chosen.append(next(s for s in free if self.people[s] == label and s not in chosen))
            return tuple(chosen)

        legal = self.moves(state)
        moves = tuple(LayoutMove(load, self.describe(load), seats(load)) for load in legal)
        here = self.bank(state, state.boat_left)
        there = self.bank(state, not state.boat_left)
        known = set(legal)
        refusals = tuple(
            Refusal(
                seats(load),
                (load and self._problem(state, load, here, there))
                or self.explain_illegal(state, load),
            )
            for size in range(min(self.capacity, len(here)) + 1)
            for load in dict.fromkeys(combinations(here, size))  # in roster order, as moves are
            if load not in known
        )
        scene = RiverScene(tuple(on_left), state.boat_left, self.capacity)
        return Layout("river", len(cells), 2, cells, moves, refusals, river=scene)

    def _roll_call(self) -> str:
        return " ".join(dict.fromkeys(self.people))

    # ---- text -------------------------------------------------------------------------------
    def describe(self, move: Move) -> str:
        return " ".join(move) + " cross"

    def format_move(self, move: Move) -> str:
        """Who crosses, in roster order: `Ha Wa`."""
        return " ".join(move)

    def parse_move(self, text: str, state: RiverState) -> Move:
        """The crossing of the people named, in any order and case, with or without `cross`."""
        by_lower = {label.lower(): label for label in self.people}
        words = [w for w in re.split(r"[\s,+]+", text.strip()) if w and w.lower() != "cross"]
        unknown = [w for w in words if w.lower() not in by_lower]
        if not words or unknown:
            named = f"nobody here is called {unknown[0]}" if unknown else "nobody is named"
            raise BadInput(f"{named}: name who crosses, e.g. 'Ha Wa' ({self._roll_call()})")
        move = self.sort_labels(by_lower[w.lower()] for w in words)
        if move not in self.moves(state):
            reason = self.explain_illegal(state, move)
            raise BadInput(f"'{text.strip()}' cannot cross: {reason}")
        return move

    def format(self, state: RiverState) -> str:
        left = list(state.left) + ([BOAT_WORD] if state.boat_left else [])
        right = ([] if state.boat_left else [BOAT_WORD]) + list(self.bank(state, False))
        return f"{' '.join(left)} | {' '.join(right)}"

    def game_id(self, start: RiverState) -> str:
        """`wolf-goat-cabbage:Farmer,Wolf,Goat,Cabbage,boat/`: the banks apart by a /, no
        space and no | (a shell's pipe), so the id pastes on a command line as it is."""
        left, _, right = self.format(start).partition("|")
        return f"{self.id}:{','.join(left.split())}/{','.join(right.split())}"

    def parse(self, text: str) -> RiverState:
        example = self.format(self.initial())
        if "|" not in text and text.count("/") == 1:  # the game id's form
            text = text.replace("/", "|")
        if text.count("|") != 1:
            raise BadInput(
                f"{self.id}: expected the left bank, a |, then the right bank, e.g. '{example}'"
            )
        left_text, right_text = text.split("|")
        left, boat_left = self._read_bank(left_text)
        right, boat_right = self._read_bank(right_text)
        if boat_left == boat_right:
            raise BadInput(f"{self.id}: write 'boat' once, on the side where it is: '{example}'")
        missing = Counter(self.people) - Counter(left)
        if right and Counter(right) != missing:
            raise BadInput(
                f"{self.id}: the two banks must hold everyone ({self._roll_call()}) exactly once"
            )
        if Counter(left) - Counter(self.people):
            raise BadInput(
                f"{self.id}: too many on the left bank; the people are {self._roll_call()}"
            )
        state = RiverState(self.sort_labels(left), boat_left)
        self._check_position(state)
        return state

    def _read_bank(self, text: str) -> tuple[list[str], bool]:
        by_lower = {label.lower(): label for label in self.people}
        labels, boat = [], False
        for word in re.split(r"[\s,]+", text.strip()):
            if not word:
                continue
            if word.lower() == BOAT_WORD:
                boat = True
            elif word.lower() in by_lower:
                labels.append(by_lower[word.lower()])
            else:
                raise BadInput(
                    f"{self.id}: unknown '{word}'; the people are {self._roll_call()} "
                    f"and the word 'boat'"
                )
        return labels, boat

    def _check_position(self, state: RiverState) -> None:
        for left in (True, False):
            reason = self.river_rules.trouble(self.bank(state, left), LEFT if left else RIGHT)
            if reason:
                raise BadInput(f"{self.id}: not a safe position: {reason}")
        here = self.bank(state, state.boat_left)
        if state != self.goal(state) and not any(map(self.river_rules.can_row, here)):
            raise BadInput(
                f"{self.id}: nobody on the boat's bank can row it "
                f"({self.river_rules.rower_words()} can row)"
            )

    # ---- solving ----------------------------------------------------------------------------
    def own_solve(
        self, state: RiverState, start: RiverState, control: Control
    ) -> Solution[RiverState, Move]:
        """Optimal by bidirectional BFS; when none exists, say so in the story's words."""
        try:
            return bidirectional_bfs(self, state, start, control)
        except Unsolvable as error:
            reachable = enumerate_bfs(self, state, control).positions
            raise Unsolvable(
                f"{self.title} cannot be done: all {reachable:,} safe positions reachable "
                f"from here were searched and none has everyone across",
                error.stats,
            ) from None


# ---- the variants --------------------------------------------------------------------------
def default_boat(people: int) -> int:
    """The smallest boat that makes n couples (or n missionaries and n cannibals) possible."""
    return 2 if people <= 3 else 3 if people <= 5 else 4


OFFERED = (
    "jealous-husbands-3",
    "jealous-husbands-4",
    "jealous-husbands-5",
    "jealous-husbands-4-boat2",
    "missionaries-3",
    "wolf-goat-cabbage",
)
ID_PATTERN = re.compile(r"(jealous-husbands|missionaries)-([0-9]+)(?:-boat([0-9]+))?")
MAX_PARTY = 5
MAX_BOAT = 4


def _make(puzzle_id: str) -> River | None:
    if puzzle_id == "wolf-goat-cabbage":
        return River(puzzle_id, "Wolf, goat and cabbage", WolfGoatCabbage.classic())
    found = ID_PATTERN.fullmatch(puzzle_id)
    if found is None:
        if puzzle_id.startswith(("jealous-husbands", "missionaries")):
            raise BadInput(
                f"bad river id '{puzzle_id}': expected e.g. jealous-husbands-3, "
                f"jealous-husbands-4-boat2 or missionaries-3"
            )
        return None
    story, count_text, boat_text = found.groups()
    count = ascii_number(count_text) or 0
    boat = (ascii_number(boat_text) or 0) if boat_text else default_boat(count)
    if not 1 <= count <= MAX_PARTY:
        unit = "couples" if story == "jealous-husbands" else "of each"
        raise BadInput(f"{story} takes 1 to {MAX_PARTY} {unit}, not {count}")
    if not 1 <= boat <= MAX_BOAT:
        raise BadInput(f"{story}: the boat holds 1 to {MAX_BOAT}, not {boat}")
    if story == "jealous-husbands":
        rules: RiverRules = JealousHusbands.couples(count, boat)
        title = f"Jealous husbands ({count} couple{'s' * (count != 1)}, boat of {boat})"
    else:
        rules = MissionariesAndCannibals.parties(count, boat)
        title = f"Missionaries and cannibals ({count} + {count}, boat of {boat})"
    return River(puzzle_id, title, rules)


FAMILY = Family(
    key="river",
    title="River crossings",
    blurb="Ferry everyone across without leaving the wrong people together.",
    ids=OFFERED,
    make=_make,
    order=60,
)
