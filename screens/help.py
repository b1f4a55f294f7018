"""The help screen: a puzzle's rules and every key in force, read from the real bindings of the
screen underneath (its own, its widgets', the app's), keymap applied — so it cannot drift."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.markup import escape
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from kaeru.engine.core import Puzzle

# Textual's own bindings on every screen, not worth a line in a puzzle's help.
TEXTUAL_OWN = frozenset({"app.focus_next", "app.focus_previous", "screen.copy_text",
                         "focus_next", "focus_previous", "copy_text", "command_palette",
                         "app.command_palette"})


def binding_rows(node: DOMNode) -> list[tuple[str, str, str]]:
    """(keys, description, binding id) for every described binding of `node`, keymap applied,
    keys that run the same action joined ("u / Backspace")."""
    by_action: dict[tuple[str, str], list[str]] = {}
    ids: dict[tuple[str, str], str] = {}
    bindings_map = node._bindings.copy()
    bindings_map.apply_keymap(node.app._keymap)
    for key, bindings in bindings_map.key_to_bindings.items():
        for binding in bindings:
            if not binding.description or binding.action in TEXTUAL_OWN:
                continue
            group = (binding.action, binding.description)
            display = node.app.get_key_display(Binding(key, binding.action))
            by_action.setdefault(group, [])
            if display not in by_action[group]:
                by_action[group].append(display)
            ids[group] = binding.id or ""
    return [(" / ".join(keys), description, ids[(action, description)])
            for (action, description), keys in by_action.items()]


def sections(screen: Screen[object]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The key tables of `screen`: its widgets' (board, playback), its own, the app's."""
    found: list[tuple[str, list[tuple[str, str, str]]]] = []
    seen: set[type] = set()
    for widget in screen.walk_children(with_self=False):
        if type(widget) in seen or not getattr(type(widget), "HELP_SECTION", ""):
            continue
        seen.add(type(widget))
        rows = binding_rows(widget)
        if rows:
            found.append((type(widget).HELP_SECTION, rows))  # type: ignore[attr-defined]
    own = binding_rows(screen)
    if own:
        found.append(("On this screen", own))
    app_rows = binding_rows(screen.app)
    app_rows.append(("^p", "command palette: open any puzzle, switch theme", "app.palette"))
    found.append(("Everywhere", app_rows))
    return found


class HelpScreen(ModalScreen[None]):
    """Rules and keys; Escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, puzzle: Puzzle | None, under: Screen[object]) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.under = under

    def compose(self) -> ComposeResult:
        parts: list[str] = []
        if self.puzzle is not None:
            parts += [f"[b]{escape(self.puzzle.title)}[/b]", "", escape(self.puzzle.rules), ""]
        for title, rows in sections(self.under):
            parts.append(f"[b]{escape(title)}[/b]")
            parts += [f"  {escape(keys):<18} {escape(text)}" for keys, text, _ in rows]
            parts.append("")
        parts.append("[dim]Keys can be changed in keymap.toml (see the README). "
                     "Escape closes this help.[/dim]")
        with VerticalScroll():
            yield Static("\n".join(parts), id="help-text")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
