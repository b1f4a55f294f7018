"""The help screen: a puzzle's rules (re-flowed to the width) and every key in force, read from
the real bindings of the screen underneath (its widgets', its own in the groups it names, the
app's), keymap applied — so it cannot drift. Each key is listed with its meaning (the binding's
tooltip) rather than the footer's one-word label."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.markup import escape
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from kaeru.engine.rules.protocol import Puzzle
from kaeru.screens.play.text import player_title
from kaeru.tui.words import flow

# Textual's own bindings on every screen, not worth a line in a puzzle's help.
TEXTUAL_OWN = frozenset({"app.focus_next", "app.focus_previous", "screen.copy_text",
                         "focus_next", "focus_previous", "copy_text", "command_palette",
                         "app.command_palette"})


def in_force(node: DOMNode, action: str) -> bool:
    """Whether the node would run `action` now (a key its `check_action` turns off is not
    listed: it would do nothing)."""
    name = action.split("(", 1)[0]
    if "." in name:  # "app.quit", "screen.x": another node's action
        return True
    return node.check_action(name, ()) is not False


def binding_rows(node: DOMNode) -> list[tuple[str, str, str]]:
    """(keys, meaning, binding id) for every described binding of `node` in force, keymap
    applied, keys that run the same action joined ("u / Backspace"). The meaning is the
    binding's tooltip (a few words for players) where it has one, else its description."""
    by_action: dict[tuple[str, str], list[str]] = {}
    ids: dict[tuple[str, str], str] = {}
    bindings_map = node._bindings.copy()
    bindings_map.apply_keymap(node.app._keymap)
    for key, bindings in bindings_map.key_to_bindings.items():
        for binding in bindings:
            if not binding.description or binding.action in TEXTUAL_OWN:
                continue
            if not in_force(node, binding.action):
                continue
            meaning = binding.tooltip or binding.description
            meaning = meaning[:1].upper() + meaning[1:]
            group = (binding.action, meaning)
            display = node.app.get_key_display(Binding(key, binding.action))
            by_action.setdefault(group, [])
            if display not in by_action[group]:
                by_action[group].append(display)
            ids[group] = binding.id or ""
    return [(" / ".join(keys), meaning, ids[(action, meaning)])
            for (action, meaning), keys in by_action.items()]


def grouped(node: DOMNode, rows: list[tuple[str, str, str]], default: str
            ) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """`rows` split by the node's HELP_GROUPS ((title, binding ids), ...), in that order; rows
    in no group go under `default`."""
    groups: tuple[tuple[str, tuple[str, ...]], ...] = getattr(node, "HELP_GROUPS", ())
    found: list[tuple[str, list[tuple[str, str, str]]]] = []
    placed: set[str] = set()
    for title, ids in groups:
        members = sorted((row for row in rows if row[2] in ids), key=lambda r: ids.index(r[2]))
        placed.update(row[2] for row in members)
        if members:
            found.append((title, members))
    rest = [row for row in rows if row[2] not in placed]
    if rest:
        found.append((default, rest))
    return found


def sections(screen: Screen[object]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The key tables of `screen`: its widgets' (board, playback), its own, the app's."""
    found: list[tuple[str, list[tuple[str, str, str]]]] = []
    seen: set[type] = set()
    for widget in screen.walk_children(with_self=False):
        section = str(getattr(type(widget), "HELP_SECTION", ""))
        if type(widget) in seen or not section:
            continue
        seen.add(type(widget))
        rows = binding_rows(widget)
        if rows:
            found.append((section, rows))
    found += grouped(screen, binding_rows(screen), "On this screen")
    app_rows = binding_rows(screen.app)
    app_rows.append(("^p", "Command palette: open any puzzle, switch theme", "app.palette"))
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
        about = getattr(self.under, "HELP_ABOUT", "")  # what the screen underneath is for
        if about:
            parts += [escape(about), ""]
        if self.puzzle is not None:
            title = player_title(self.puzzle.title)
            parts += [f"[b]{escape(title)}[/b]", "", escape(flow(self.puzzle.rules)), ""]
        for title, rows in sections(self.under):
            parts.append(f"[b]{escape(title)}[/b]")
            parts += [f"  {escape(keys):<16} {escape(text)}" for keys, text, _ in rows]
            parts.append("")
        parts.append("[dim]Keys can be changed in keymap.toml (see the README). "
                     "Escape closes this help.[/dim]")
        with VerticalScroll():
            yield Static("\n".join(parts), id="help-text")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
