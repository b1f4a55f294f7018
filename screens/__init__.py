"""Textual screens: home, the generic play screen, help, new game, the state-space explorer."""
