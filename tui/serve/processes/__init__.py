"""One process per player, made cheap: the warm parent, the forked arcades, the shared ones.

- `warm_parent`: imports what an arcade imports, then forks each arcade onto the descriptors
  passed to it; `forked_arcade`: the server's side of it (a child subreaper);
  `arcade_child`: the spawn model's entry point (kept for the bench).
- `shared_processes`: what a server starts once (the warm parent, the search pool, the survey
  ahead: `survey_ahead`); `limits`: each arcade's memory and size limits.
"""
