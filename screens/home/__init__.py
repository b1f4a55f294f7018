"""The home screen: the catalogue, and what a newcomer needs to start playing.

- `screen`: `HomeScreen`; `puzzle_list`: the families and presets with their marks;
  `about`: the pane about the puzzle under the cursor; `survey`: the difficulty survey, a job
  of the search service while home is on top.
"""
