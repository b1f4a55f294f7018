"""The shared place's screens: what other players do on this server.

- `leaderboard`: the daily leaderboards and the hall of fame; `replay`: a shared win step by
  step with the coach's marks; `who`: who is here; `watch`: another player's game, move by
  move; `name`: the name shown to others.
"""
