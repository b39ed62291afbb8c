"""Switching engines off in a test, by name in the schedule (engine/pipeline/schedule.py): a test
that pins an engine switches the others off rather than hoping it wins a race."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cbam.engine.pipeline import schedule
from cbam.engine.pipeline.engines import NOTHING, Outcome, RunContext


def switch_off(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """The engines ``schedule.<name>`` decide nothing, at once, wherever the schedule runs them."""
    for name in names:
        monkeypatch.setattr(getattr(schedule, name), "run", lambda ctx, seconds: NOTHING)


def replace_run(monkeypatch: pytest.MonkeyPatch, name: str, run: Callable[[RunContext, float], Outcome]) -> None:
    monkeypatch.setattr(getattr(schedule, name), "run", run)


RANDOM_AND_PATHS = ("TESTING", "EXPLORE", "EXPLORE_AFTER_BMC")
