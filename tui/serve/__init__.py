"""Serving the arcade to other people: `kaeru serve ssh` (one arcade process per SSH connection,
each with its own player data) and `kaeru serve web` (textual-serve with an offline page)."""
