"""The search worker starts where POSIX's process calls are missing (Windows): no `os.nice`, no
`resource`. It then runs at the app's priority and without a memory cap, and does not fail."""

from __future__ import annotations

import builtins
import os

import pytest

from kaeru.engine.service import worker


def test_no_nice_no_lowered_priority(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delattr(os, "nice", raising=False)
    worker.lower_priority(10)  # no AttributeError


def test_no_resource_module_no_memory_cap(monkeypatch: pytest.MonkeyPatch):
    real_import = builtins.__import__

    def without_resource(name: str, *args: object, **kwargs: object) -> object:
        if name == "resource":
            raise ModuleNotFoundError("No module named 'resource'", name="resource")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", without_resource)
    worker.limit_memory(1 << 50)  # no ImportError (and harmless were the cap applied)
