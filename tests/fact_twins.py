"""A kept restatement and its changed twin: the lens passes the one and flags the other (the rule under test reads
the rewording, and does not swallow the change)."""
from __future__ import annotations

from memgui.core.merge.strict import check_strict


def assert_kept_and_changed(sources: list[str], kept: str, changed: str) -> None:
    report = check_strict(sources, kept)
    assert report.passed, [a.describe() for a in report.at_risk]
    assert not check_strict(sources, changed).passed
