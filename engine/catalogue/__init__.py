"""The catalogue: what there is to play, what the engine knows about it, games drawn for a player.

- `entries`: one entry per family with its sizes and variants, as a newcomer meets it.
- `facts`, `survey`, `cache`: each preset's measured difficulty, the survey of them all, kept
  in `catalogue.json` in the cache folder; `marks`: the player's marks and bests beside them.
- `daily`, `random_games`: the day's games and fair random starts with their optimal length.
- `explorable`: which puzzles the explorer can count, counting from the goal.
- `game_ids`: `puzzle-id:start` parsed and written; `cache_folder`: the cache folder as the
  settings screen shows it.
- `tables_ahead`: the tables `kaeru tables` builds ahead (which an id names, how each is
  built, which are built).

Above the puzzles, the searches, the tables and the store; below the service and the game.
"""
