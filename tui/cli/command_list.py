"""The `kaeru` subcommands in `--help` order: name, one-line help, module in `commands/`.

The top-level parser is built from this list without importing any command (the commands
import the engine, numpy and numba), so `kaeru --version` and `kaeru --help` import no engine
module and only the command that runs is imported. Each module's own NAME and HELP must match
its line here (tests/cli/test_packaging_cli.py checks it, and that every command is listed).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, its line in `kaeru --help`, and its module in `commands/`."""

    name: str
    help: str
    module: str

    @property
    def module_path(self) -> str:
        return f"kaeru.tui.cli.commands.{self.module}"


COMMANDS = (
    Command("play", "open a puzzle in the arcade", "play"),
    Command("solve", "print a solution: optimal, or on sliding boards past 16 cells "
            "near-optimal with a proved bound", "solve"),
    Command("hint", "a best move from a position, and how far the goal is", "hint"),
    Command("grade", "grade a game's moves against the optimal distance", "grade"),
    Command("enumerate", "count every position reachable from the start, by depth", "enumerate"),
    Command("random", "a random start of a puzzle", "random_game"),
    Command("daily", "today's daily puzzles", "daily"),
    Command("list", "every puzzle id", "listing"),
    Command("records", "finished games, newest first", "records"),
    Command("leaderboard", "a day's daily leaderboards on this server", "leaderboard"),
    Command("serve", "serve the arcade over SSH or to a web browser", "serve"),
    Command("tables", "build the solver's tables ahead, or list them", "tables"),
    Command("completion", "print a shell completion script (bash, zsh or fish)", "completion"),
    Command("man", "print the manual page (roff)", "manual"),
)


def named(name: str) -> Command | None:
    """The command called `name`, if there is one."""
    return next((c for c in COMMANDS if c.name == name), None)
