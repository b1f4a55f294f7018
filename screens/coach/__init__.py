"""The coach's screens: the analysis after a win, and the drill.
"""
