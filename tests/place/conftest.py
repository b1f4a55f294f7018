"""The run's temporary PostgreSQL server (tests/place/pg_cluster.py) for the place tests."""

from __future__ import annotations

import pytest

from tests.place.pg_cluster import SKIP_REASON, Cluster, shared


@pytest.fixture
def pg() -> Cluster:
    made = shared()
    if made is None:
        pytest.skip(SKIP_REASON)
    return made
