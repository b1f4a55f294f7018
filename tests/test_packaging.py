"""`pip install .` (not editable) finds only regular packages: every source folder needs an
__init__.py, or the installed `kaeru` fails to import it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_source_folder_is_a_regular_package():
    missing = [
        str(folder.relative_to(ROOT))
        for top in ("engine", "screens", "tui")
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]
        if folder.is_dir() and folder.name != "__pycache__" and any(folder.glob("*.py"))
        and not (folder / "__init__.py").exists()
    ]
    assert missing == []
