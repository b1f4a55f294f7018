"""The engine stands alone: importing it, its registry, every module under it (every puzzle
family included) and the session never pulls in Textual or the front end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import kaeru

REPO = Path(kaeru.__file__).resolve().parent.parent

PROBE = """
import importlib, json, pkgutil, sys
import kaeru.engine, kaeru.engine.puzzles.registry, kaeru.engine.game.session
imported = []
for info in pkgutil.walk_packages(kaeru.engine.__path__, "kaeru.engine."):
    importlib.import_module(info.name)
    imported.append(info.name)
families = [f.key for f in kaeru.engine.puzzles.registry.families()]
front = sorted(m for m in sys.modules
               if m.split(".")[0] in {"textual", "rich"}
               or m.startswith(("kaeru.tui", "kaeru.screens")))
print(json.dumps({"imported": imported, "families": families, "front": front}))
"""


def test_the_engine_never_imports_textual():
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["front"] == []
    for module in ("puzzles.flip_it", "puzzles.oshidori", "puzzles.frogs",
                   "puzzles.number_reversal", "search.packed", "game.playback"):
        assert f"kaeru.engine.{module}" in report["imported"]
    assert {"flip-it", "oshidori", "frogs", "number-reversal"} <= set(report["families"])
