"""The catalogue survey, once per server: `kaeru serve ssh` runs this in the background at a low
priority when it starts, and every arcade it serves reads the facts from the shared cache
(`engine.catalogue.cache`, KAERU_SURVEY=server) instead of surveying the catalogue itself (about
15 s of CPU and up to 365 MB per arcade on a cold cache).

    python -m kaeru.tui.serve.processes.survey_ahead [NICENESS]

What an earlier run found is kept: a warm cache makes this a moment's work.
"""

from __future__ import annotations

import os
import sys

from kaeru.engine.catalogue.cache import FactsCache
from kaeru.engine.catalogue.entries import catalogue
from kaeru.engine.catalogue.survey import Survey


def main(argv: list[str]) -> int:
    if argv and hasattr(os, "nice"):
        os.nice(int(argv[0]))
    ids = [p.puzzle_id for entry in catalogue() for p in entry.presets]
    survey = Survey(ids, FactsCache.open())
    survey.run_instant(lambda facts: None)
    survey.run(lambda facts: None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
