"""Widgets: the board base class, one board per board shape (in `boards/`), stats, playback."""
