"""Past overwrites that lost an older value (issue 38, item 6): `audit --recheck` names writes that replaced a
value in place without keeping the older one as dated history."""
from __future__ import annotations

import datetime as dt
import json

from factories import seed_document, update_document
from memgui.__main__ import main
from memgui.core.forensics.overwrites import BY_LATER_WRITE, stale_overwrites
from memgui.core.ops.apply import MODE_APPEND, MODE_MERGED_BODY, MergePlan, merge_cluster
from memgui.core.ops.stamps import draft_stamps
from memgui.core.ops.supersede import plan_supersession, write_supersession
from memgui.core.store import create_store, open_store
from memgui.core.tasks import run_to_end

OLD_PHONE = "Ana's mobile number is 06 12 55 01 23."
NEW_PHONE = "Ana's mobile number is 07 99 11 22 33."


def ms(iso: str) -> int:
    return int(dt.datetime.fromisoformat(iso + "+00:00").timestamp() * 1000)


def _two_notes(store):
    a = seed_document(store, "Ana", OLD_PHONE, anchor="ana", freshness_at=ms("2024-06-10T10:00:00"))
    b = seed_document(store, "Ana's phone", NEW_PHONE, anchor="ana-phone", freshness_at=ms("2025-01-15T10:00:00"))
    return a.document_id, b.document_id


def _merge(store, target, ids, body, mode=MODE_MERGED_BODY):
    plan = MergePlan(target_id=target, source_ids=tuple(ids), mode=mode, merged_body=body,
                     drafted=draft_stamps(store, ids), guard_override=True)
    return merge_cluster(store, plan)


def test_a_merge_that_kept_only_the_newer_value_is_named(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a, b = _two_notes(store)
        entry = _merge(store, b, [b, a], NEW_PHONE)
        found = stale_overwrites(store)
    assert [(o.document_id, o.audit_id, o.replaced) for o in found] == [(b, entry.audit_id, ((OLD_PHONE, NEW_PHONE),))]


def test_a_supersession_keeps_the_older_value_as_history_and_is_not_named(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a, b = _two_notes(store)
        plan = run_to_end(plan_supersession(store, [a, b], None, reviewer_reads_supersedes=True))
        write_supersession(store, plan)
        assert "(previously: Ana's mobile number is 06 12 55 01 23, as of 2024-06-10)" in store.document(b).markdown_body
        assert stale_overwrites(store) == []


def test_a_later_write_over_a_document_memgui_wrote_is_compared_with_what_memgui_wrote(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a, b = _two_notes(store)
        entry = _merge(store, a, [a, b], None, mode=MODE_APPEND)  # both values kept: nothing lost by memgui
        assert stale_overwrites(store) == []
        doc = store.document(a)
        update_document(store, doc, markdown_body="Ana's mobile number is 07 70 00 00 01.",
                        updated_at=doc.updated_at + 60_000)  # the daemon's UPDATE, in place, no history
        found = stale_overwrites(store)
    assert len(found) == 1 and found[0].by == BY_LATER_WRITE and found[0].audit_id == entry.audit_id
    assert {older for older, _ in found[0].replaced} == {OLD_PHONE, NEW_PHONE}


def test_a_daemon_write_over_a_document_memgui_never_wrote_is_not_guessed(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a, _ = _two_notes(store)
        doc = store.document(a)
        update_document(store, doc, markdown_body=NEW_PHONE, updated_at=doc.updated_at + 60_000)
        assert stale_overwrites(store) == []


def test_audit_recheck_reports_the_overwrite_and_exits_1(tmp_path, capsys):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a, b = _two_notes(store)
        _merge(store, b, [b, a], NEW_PHONE)
    assert main(["audit", "--store", str(path), "--recheck", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["overwrites"][0]["replaced"] == [{"older": OLD_PHONE, "now": NEW_PHONE}]
    assert main(["audit", "--store", str(path), "--recheck"]) == 1
    text = capsys.readouterr().out
    assert f"was: {OLD_PHONE}" in text and f"now: {NEW_PHONE}" in text
