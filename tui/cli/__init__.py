"""The `kaeru` command line: `kaeru.tui.cli.main` is the console script's entry point."""

from kaeru.tui.cli.main import main

__all__ = ["main"]
