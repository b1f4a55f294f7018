"""Kaeru Arcade: a keyboard-driven terminal puzzle arcade with a solver engine.

The installed names are `kaeru.engine` (rules and search, no Textual), `kaeru.screens` and
`kaeru.tui` (the Textual front end). In a checkout they are the top-level folders `engine/`,
`screens/` and `tui/`, reached through the links in this folder, so no generic top-level name
(`engine`, `tui`, `screens`) is ever installed into site-packages.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("kaeru-arcade")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0+checkout"
