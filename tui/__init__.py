"""Kaeru Arcade's Textual front end: the app, the CLI entry point and the widgets."""
