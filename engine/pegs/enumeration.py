"""Every position reachable from a start, by jumps made, for the explore screen and the CLI.

Each jump removes one peg, so the layers of a breadth-first search are the positions with 1, 2,
3... fewer pegs and never meet: only two layers are held at a time (engine.pegs.space, numpy).
Layers hold one position per symmetry class (under the symmetries that fix the start), and each
class counts for the size of its orbit, so the figures are exact position counts:

- `histogram` (and `positions`): positions at each depth, every symmetric image counted, as for
  every other family;
- `positions_up_to_symmetry` and the series "classes up to symmetry": the classes (the English
  central game's space is 23,475,688 classes, George Bell's count of the positions reachable
  from the central vacancy up to the board's 8 symmetries, finishable or not; 187,636,299
  positions);
- the series "pegs left": the pegs on the board at each depth.

The budget counts the classes held (two layers); by default what the memory allows, at most a
gigabyte of layers, so a space far too large (the French board's) gives up within a minute
with the layers it finished, and the size the next layer was heading for.
"""

from __future__ import annotations

from kaeru.engine.pegs.boards import Board
from kaeru.engine.pegs.space import Layer, image_of, layers, symmetries_fixing
from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.results import FARTHEST_LIMIT, BudgetExceeded, Enumeration

BYTES_PER_CLASS = 32  # a class in a layer array, its sort copy and the merge of the parts
LAYER_MEMORY = 1 << 30  # at most this much for the layers when the budget is left to memory


def enumerate_positions(board: Board, root: int, control: Control = QUIET) -> Enumeration:
    """Positions reachable from `root` after 0, 1, 2... jumps (and classes up to symmetry).

    Raises BudgetExceeded (with the layers finished in its message) or Cancelled."""
    meter = Meter(
        "numpy layered BFS by pegs left (symmetry classes)",
        control,
        bytes_per_position=BYTES_PER_CLASS,
        cap_bytes=LAYER_MEMORY,
    )
    finished: list[Layer] = []
    try:
        found = layers(board, root, meter, finished)
    except BudgetExceeded as stop:
        raise BudgetExceeded(_gave_up(board, root, finished, str(stop)), stop.stats) from None
    pegs = root.bit_count()
    group = symmetries_fixing(board, root)
    farthest: set[str] = set()
    for code in found[-1].classes[:FARTHEST_LIMIT].tolist():  # each gives one position or more
        farthest.update(board.format_state(image_of(p, code)) for p in group)
        if len(farthest) >= FARTHEST_LIMIT:
            break
    classes = tuple(layer.count for layer in found)
    meter.extra["classes"] = f"{sum(classes):,}"
    return Enumeration(
        root=board.format_state(root),
        histogram=tuple(layer.positions for layer in found),
        farthest=tuple(sorted(farthest)[:FARTHEST_LIMIT]),
        stats=meter.finish(),
        series={
            "classes up to symmetry": classes,
            "pegs left": tuple(pegs - depth for depth in range(len(found))),
        },
        totals={"positions_up_to_symmetry": sum(classes), "symmetries": len(group)},
    )


def _gave_up(board: Board, root: int, finished: list[Layer], why: str) -> str:
    """The figures reached, in one line."""
    classes = sum(layer.count for layer in finished)
    positions = sum(layer.positions for layer in finished)
    depth = len(finished) - 1
    return (
        f"the {board.key} space from this position is too large: {why}; finished {depth} "
        f"jumps deep ({root.bit_count() - depth} pegs left): {classes:,} classes up to "
        f"symmetry ({positions:,} positions), the last layer {finished[-1].count:,} classes"
    )
