"""The arcade as a place: what the players of one server share and see of each other —
display names (`names`), daily results and leaderboards, the hall of fame (`ranking`), who is
here and the live games watchers follow (`presence`), each daily's optimum — kept by `Place`
(`place`) in the server's SQLite file or in PostgreSQL (`schema`). No Textual here.
"""
