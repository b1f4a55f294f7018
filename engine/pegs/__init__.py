"""Peg solitaire's heavy parts: board geometry, bitboards, pagoda functions, position classes,
the classic shapes and the solver. `engine.puzzles.pegs` turns them into Puzzle variants."""
