"""Kaeru Arcade: a keyboard-driven terminal puzzle arcade with a solver engine.

The installed names are `kaeru.engine` (rules and search, no Textual), `kaeru.screens` and
`kaeru.tui` (the Textual front end). In a checkout they are the top-level folders `engine/`,
`screens/` and `tui/`, reached through the links in this folder, so no generic top-level name
(`engine`, `tui`, `screens`) is ever installed into site-packages.

`__version__` is the one place the version is written: pyproject.toml reads it from here
(setuptools' `attr:`, without importing), so `kaeru --version` reads no package metadata.
"""

__version__ = "0.2.0"
APP_NAME = "kaeru-arcade"  # the one name of its cache, data and log folders (platformdirs)
