"""One time-stamp rule for the whole window (core/netfx.py, N10): the Audit tab and the Review tab show the same
instant the same way — local time with its UTC offset — so a merge's row and its sources' "updated" agree."""
from __future__ import annotations

import re
import time

import pytest

from memgui.gui.audit.models import when_text
from memgui.gui.review.sources_view import format_ms

MS = 1_780_000_000_123  # 2026-05-28 20:26:40.123 UTC


@pytest.fixture
def kolkata(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_audit_and_review_tabs_show_a_time_alike(kolkata):
    review, audit = format_ms(MS), when_text(MS, seconds=False)
    assert review == audit == "2026-05-29 01:56 +05:30"
    assert when_text(MS) == "2026-05-29 01:56:40 +05:30"  # the detail pane adds the seconds, same rule


def test_every_shown_time_carries_its_offset():
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d [+-]\d\d:\d\d", format_ms(MS))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d", when_text(MS))


def test_no_time_is_shown_as_none():
    assert format_ms(None) == "—" and when_text(None) == ""
