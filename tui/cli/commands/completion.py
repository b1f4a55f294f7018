"""`kaeru completion bash|zsh|fish|powershell`: a shell completion script for `kaeru`, made by
`shtab` from the same argument parser the command reads, so it never drifts from the options.

Puzzle ids complete from the list built into the script (they change only with the program);
game ids (`flip-it-7:B_BBBBB`) complete from the player's saves, read when Tab is pressed by the
hidden `kaeru completion --game-ids`. Bash splits words at a colon, so there a game id completes
whole from its puzzle id (`flip-it-7<Tab>`), not after the colon.

Install: `kaeru completion bash > ~/.local/share/bash-completion/completions/kaeru`,
`kaeru completion zsh > ~/.zfunc/_kaeru` (a folder in `fpath`),
`kaeru completion fish > ~/.config/fish/completions/kaeru.fish`.
"""

from __future__ import annotations

import argparse
from typing import Any

from kaeru.tui.cli.exit_codes import EXIT_BAD_INPUT, EXIT_OK

NAME = "completion"
HELP = "print a shell completion script (bash, zsh or fish)"
ORDER = 95

SHELLS = ("bash", "zsh", "fish", "powershell")
GAME_IDS_COMMAND = "kaeru completion --game-ids 2>/dev/null"
RECENT_GAMES = 50  # finished games offered, newest first, besides every game in progress


def configure(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("shell", nargs="?", choices=SHELLS, help="the shell: bash, zsh, fish, …")
    sub.add_argument("--game-ids", action="store_true", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    if args.game_ids:
        print("\n".join(saved_game_ids()))
        return EXIT_OK
    if args.shell is None:
        from kaeru.tui.cli.main import say

        say(f"completion needs a shell: {', '.join(SHELLS)} (see `kaeru completion --help`)")
        return EXIT_BAD_INPUT
    print(script(args.shell), end="")
    return EXIT_OK


def script(shell: str) -> str:
    """The completion script for `shell`, from the full `kaeru` parser."""
    import shtab

    from kaeru.tui.cli.main import build_parser

    parser, _ = build_parser()
    annotate(parser, puzzle_completer(), shtab.FILE, shtab.DIRECTORY)
    return str(shtab.complete(parser, shell=shell))


def puzzle_completer() -> dict[str, Any]:
    """shtab's description of how a puzzle or game id completes, in each shell."""
    from kaeru.engine.puzzles.registry import all_ids

    ids = " ".join(all_ids())
    function = "_kaeru_puzzle_or_game_id"
    return {
        "bash": function,
        "zsh": f"({ids} $({GAME_IDS_COMMAND}))",
        "fish": f"{ids} ({GAME_IDS_COMMAND})",
        "powershell": function,
        "preamble": {
            "bash": (
                f"{function}() {{\n"
                f'  compgen -W "{ids} $({GAME_IDS_COMMAND})" -- "$1"\n'
                "}\n"
            ),
            "powershell": (
                f"function {function} {{\n"
                "  param([string]$WordToComplete)\n"
                f"  @('{ids}' -split ' ') + @(kaeru completion --game-ids 2>$null) |\n"
                '    Where-Object { $_ -like "$WordToComplete*" }\n'
                "}\n"
            ),
        },
    }


def annotate(parser: argparse.ArgumentParser, ids: dict[str, Any], path: Any, folder: Any) -> None:
    """Give every argument of `parser` and its subcommands what completes it: ids for a puzzle
    or game id, files and folders for paths."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                annotate(sub, ids, path, folder)
        elif action.dest == "puzzle" or action.metavar == "ID":
            action.complete = ids  # type: ignore[attr-defined]
        elif action.metavar in ("PATH", "FILE"):
            action.complete = path  # type: ignore[attr-defined]
        elif action.metavar == "DIR":
            action.complete = folder  # type: ignore[attr-defined]


def saved_game_ids() -> list[str]:
    """The game ids of the player's games in progress and recent wins (none when there is no
    saves database yet: completing never creates one)."""
    from kaeru.engine.store import Store
    from kaeru.engine.store.opening import DB_NAME
    from kaeru.engine.store.store import data_folder

    folder = data_folder()
    if not (folder / DB_NAME).is_file():
        return []
    store = Store.open(folder)
    try:
        games = [g.game_id for g in store.games_in_progress()]
        games += [g.game_id for g in store.records(limit=RECENT_GAMES)]
    finally:
        store.close()
    return list(dict.fromkeys(games))
