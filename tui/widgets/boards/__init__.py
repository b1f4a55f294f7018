"""One board widget per layout kind. Each module defining a BoardWidget subclass with a
BOARD_KIND (a `Layout.kind`) is found by discovery; `board_class(layout.kind)` returns it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache

from kaeru.tui.widgets.board import BoardWidget


@cache
def board_classes() -> dict[str, type[BoardWidget]]:
    found: dict[str, type[BoardWidget]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BoardWidget) and value.BOARD_KIND:
                found[value.BOARD_KIND] = value
    return found


def board_class(kind: str) -> type[BoardWidget]:
    try:
        return board_classes()[kind]
    except KeyError:
        raise LookupError(f"no board widget for board kind {kind!r}") from None
