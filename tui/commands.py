"""The command palette's puzzle commands (ctrl+p): play or explore any puzzle by name."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from kaeru.engine.catalogue.explorable import explore_refusal
from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.tui.messages import OpenExplorer, OpenGame, OpenScreen


@cache
def explorable(puzzle_id: str) -> bool:
    """Whether the explorer can count `puzzle_id` (the palette offers no explorer it refuses)."""
    return explore_refusal(get_puzzle(puzzle_id)) is None


class PuzzleCommands(Provider):
    """"Play <title>" and "Explore <title>" for every puzzle the arcade lists."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        found: list[tuple[str, str, Callable[[], object]]] = []
        for family in families():
            for puzzle_id in family.ids:
                title = get_puzzle(puzzle_id).title
                post = self.app.post_message
                found.append((f"Play {title}", f"{family.title} · {puzzle_id}",
                              partial(post, OpenGame(puzzle_id))))
                if explorable(puzzle_id):
                    found.append((f"Explore {title}", f"Positions by depth for {puzzle_id}",
                                  partial(post, OpenExplorer(puzzle_id))))
        for name, help_text, screen in (
            ("Records", "your finished games and personal bests", "records"),
            ("Settings", "theme, clock, coach, playback, glyphs, keymap", "settings"),
            ("Daily puzzles", "today's starts, the same for everyone", "daily"),
            ("Drill: find the best move", "positions at a chosen distance from the goal", "drill"),
            ("Leaderboard", "today's daily results of everyone on this server", "leaderboard"),
            ("Hall of fame", "the best clean results of each daily puzzle", "hall"),
            ("Who is here", "players online now; watch their games", "who"),
        ):
            found.append((name, help_text, partial(self.app.post_message, OpenScreen(screen))))
        return found

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            if not name.startswith("Explore "):
                yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
