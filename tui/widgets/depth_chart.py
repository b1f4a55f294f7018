"""A horizontal bar chart of positions per depth (moves to the goal), drawn with block characters.

One line per depth. Bars are `█` (with eighth blocks at the tip); a second series that is a
part of the first (two-blank puzzles: positions with the pair at the end) is drawn over the
start of the bar as `▒`, so the chart reads without colour. Numbers are shown on demand and the
scale can be linear or logarithmic. While a count runs the chart grows from the depths reported
so far (`show_partial`); a depth not reported yet is drawn as a dim `·` until the final figures.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

EIGHTHS = " ▏▎▍▌▋▊▉"
FULL = "█"
PART = "▒"
LABEL_WIDTH = 4  # "  34" then " │"
UNKNOWN = -1  # a depth whose count has not been reported yet
NOT_SEEN = "·"


def series_title(name: str) -> str:
    """`pair_at_end` -> `both gaps at the end` (the seed's "pair at the end")."""
    return {"pair_at_end": "both gaps at the end"}.get(name, name.replace("_", " "))


class DepthChart(Widget):
    """Positions per depth as bars; `show_numbers` and `log_scale` change the view."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "depthchart--label",
        "depthchart--bar",
        "depthchart--part",
        "depthchart--number",
    }

    DEFAULT_CSS = """
    DepthChart { height: auto; width: 1fr; }
    DepthChart > .depthchart--label { color: $foreground-muted; }
    DepthChart > .depthchart--bar { color: $primary; }
    DepthChart > .depthchart--part { color: $warning; }
    DepthChart > .depthchart--number { color: $text; }
    """

    axis = "moves"  # what a depth counts, written over the depth column

    histogram: reactive[tuple[int, ...]] = reactive((), layout=True)
    series: reactive[dict[str, tuple[int, ...]]] = reactive(dict, layout=True)
    show_numbers: reactive[bool] = reactive(False)
    log_scale: reactive[bool] = reactive(False)

    def show(self, histogram: tuple[int, ...], series: dict[str, tuple[int, ...]]) -> None:
        self.series = dict(series)
        self.histogram = tuple(histogram)

    def show_partial(self, layers: dict[int, int]) -> None:
        """The depths counted so far ({depth: positions}); depths in between not yet reported
        are drawn as not seen."""
        deepest = max(layers, default=-1)
        self.show(tuple(layers.get(d, UNKNOWN) for d in range(deepest + 1)), {})

    def clear(self) -> None:
        self.show((), {})

    @property
    def complete(self) -> bool:
        """Whether every depth's count is known."""
        return all(count != UNKNOWN for count in self.histogram)

    # ---- geometry ------------------------------------------------------------------------------
    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.histogram) + 2 if self.histogram else 1

    @property
    def part_name(self) -> str | None:
        """The first series when it is a part of the histogram (drawn inside the bars)."""
        for name, values in self.series.items():
            if len(values) == len(self.histogram) and all(
                0 <= v <= h for v, h in zip(values, self.histogram, strict=True)
            ):
                return name
        return None

    def number_text(self, depth: int) -> str:
        if self.histogram[depth] == UNKNOWN:
            return "?"
        text = f"{self.histogram[depth]:,}"
        extra = [values[depth] for values in self.series.values() if depth < len(values)]
        if extra:
            text += " (" + ", ".join(f"{v:,}" for v in extra) + ")"
        return text

    def scaled(self, count: int, top: int, cells: int) -> float:
        """Bar length in cells for `count` when `top` fills `cells`."""
        if count <= 0 or top <= 0:
            return 0.0
        if self.log_scale:
            return cells * math.log1p(count) / math.log1p(top)
        return cells * count / top

    # ---- drawing -------------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"depthchart--{name}")

    def render(self) -> Text:
        histogram = self.histogram
        if not histogram:
            return Text("No figures yet.", self._style("label"))
        numbers = [self.number_text(d) for d in range(len(histogram))] if self.show_numbers else []
        number_width = max((len(n) for n in numbers), default=0)
        cells = max(self.size.width - LABEL_WIDTH - 2 - (number_width + 1 if numbers else 0), 4)
        top = max(max(histogram), 1)
        part = self.part_name
        part_values = self.series.get(part, ()) if part else ()
        lines = [self.legend(part)]
        for depth, count in enumerate(histogram):
            line = Text(f"{depth:>{LABEL_WIDTH}} │", self._style("label"))
            if count == UNKNOWN:
                bar = Text(NOT_SEEN, self._style("label"))
            else:
                bar = self.bar(count, part_values[depth] if part_values else 0, top, cells)
            line.append_text(bar)
            if numbers:
                line.append(" " * (cells - bar.cell_len + 1))
                line.append(numbers[depth].rjust(number_width), self._style("number"))
            lines.append(line)
        lines.append(Text(self.scale_note(top), self._style("label")))
        for line in lines:  # one row a depth: a narrow chart crops its lines, never wraps them
            line.truncate(max(self.size.width, 1), overflow="crop")
        chart = Text("\n").join(lines)
        chart.no_wrap = True
        chart.overflow = "crop"
        return chart

    def bar(self, count: int, part: int, top: int, cells: int) -> Text:
        length = self.scaled(count, top, cells)
        eighths = max(round(length * 8), 1 if count else 0)
        full, rest = divmod(eighths, 8)
        solid = FULL * full + (EIGHTHS[rest] if rest else "")
        part_cells = 0
        if part:
            part_cells = max(1, min(len(solid), round(self.scaled(part, top, cells))))
            if self.log_scale:  # a log-scaled part would mislead: keep its share of the bar
                part_cells = max(1, min(len(solid), round(len(solid) * part / count)))
        text = Text(PART * part_cells, self._style("part"))
        text.append(solid[part_cells:], self._style("bar"))
        return text

    def legend(self, part: str | None) -> Text:
        text = Text(f"{self.axis:>{LABEL_WIDTH + 1}} "[-(LABEL_WIDTH + 2) :], self._style("label"))
        text.append(FULL, self._style("bar"))
        text.append(" positions", self._style("label"))
        if part:
            text.append("  ")
            text.append(PART, self._style("part"))
            text.append(f" {series_title(part)}", self._style("label"))
        return text

    def scale_note(self, top: int) -> str:
        scale = "log scale" if self.log_scale else "linear"
        return f"{' ' * (LABEL_WIDTH + 2)}{scale}: a full bar is {top:,}"
