"""Where the engine keeps tables it builds once (pattern databases, depth tables) between runs."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_VAR = "KAERU_CACHE_DIR"


def cache_dir() -> Path:
    """The cache folder: $KAERU_CACHE_DIR if set, else the user cache directory; created."""
    override = os.environ.get(ENV_VAR)
    path = Path(override) if override else Path(platformdirs.user_cache_dir("kaeru-arcade"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_file(name: str) -> Path:
    """A path inside the cache folder for a table called `name` (e.g. `sliding-3x3.depth.npy`)."""
    return cache_dir() / name
