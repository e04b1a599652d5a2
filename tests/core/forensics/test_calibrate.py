"""core/forensics/calibrate.py: the floor that keeps ≥ 95 % of accepted merges nominated, computed on known sets, and
labelled pairs gathered from a real audit trail, the demo labels and real stored vectors."""
from __future__ import annotations

import numpy as np
import pytest

from factories import put_embedding, seed_document
from memgui.core.forensics.calibrate import (
    ACCEPTED,
    KEPT_SEPARATE,
    LabelledPair,
    demo_label_requests,
    labelled_pairs,
    metrics_at,
    suggest_threshold,
)
from memgui.core.ops.apply import MODE_APPEND, MergePlan, draft_stamps, keep_separate, merge_cluster
from memgui.core.ops.undo import undo
from memgui.core.store.audit_log import list_entries
from memgui.core.vectors.embed import StoredVectors


def lp(c, label):
    return LabelledPair(c, label)


def test_known_set_twenty_accepted_one_may_fall_below():
    accepted = [0.99 - 0.01 * i for i in range(20)]  # 0.99 … 0.80
    kept = [0.95, 0.85, 0.82, 0.70, 0.60]
    cal = suggest_threshold([lp(c, ACCEPTED) for c in accepted] + [lp(c, KEPT_SEPARATE) for c in kept])
    # 95 % of 20 = 19 must stay nominated → the 19th highest accepted cosine, 0.81, rounded down
    assert cal.threshold == pytest.approx(0.81)
    assert (cal.nominated_accepted, cal.nominated_kept_separate) == (19, 3)
    assert cal.recall == pytest.approx(19 / 20) and cal.precision == pytest.approx(19 / 22)
    assert cal.recall >= 0.95
    assert "19 of 20" in cal.message and "3 of 5" in cal.message


def test_threshold_rounds_down_and_never_drops_an_accepted_pair_it_promised():
    cal = suggest_threshold([lp(0.86789, ACCEPTED), lp(0.9, ACCEPTED), lp(0.95, ACCEPTED)])
    assert cal.threshold == pytest.approx(0.867)
    assert cal.nominated_accepted == 3 and cal.recall == 1.0
    assert cal.precision is None and "precision is not measured" in cal.message
    assert "first estimate" in cal.message


def test_ties_at_the_floor_all_count_as_nominated():
    pairs = [lp(0.9, ACCEPTED)] * 10 + [lp(0.9, KEPT_SEPARATE)]
    cal = suggest_threshold(pairs)
    assert cal.threshold == pytest.approx(0.9) and cal.nominated_kept_separate == 1
    assert metrics_at(pairs, 0.9) == (10, 1, 10, 1)


def test_empty_and_one_class_inputs_say_why_there_is_no_floor():
    empty = suggest_threshold([])
    assert empty.threshold is None and "no decisions yet" in empty.message
    only_kept = suggest_threshold([lp(0.9, KEPT_SEPARATE)])
    assert only_kept.threshold is None and only_kept.kept_separate == 1 and "no accepted merge" in only_kept.message
    one = suggest_threshold([lp(0.88, ACCEPTED)])
    assert one.threshold == pytest.approx(0.88) and one.recall == 1.0


def test_unusable_pairs_are_ignored_and_bad_targets_refused():
    cal = suggest_threshold([lp(float("nan"), ACCEPTED), lp(2.5, ACCEPTED), lp(0.9, "maybe"), lp(0.91, ACCEPTED)])
    assert cal.ignored == 3 and cal.accepted == 1
    with pytest.raises(ValueError):
        suggest_threshold([], target_recall=0)


def test_demo_label_requests_cover_cluster_pairs_and_siblings():
    labels = {"duplicate_clusters": [["a", "b", "c"]], "sibling_pairs": [["a", "x"], ["y", "z"]]}
    req = demo_label_requests(labels)
    assert sorted(r for r in req if r[2] == ACCEPTED) == [("a", "b", ACCEPTED), ("a", "c", ACCEPTED), ("b", "c", ACCEPTED)]
    assert demo_label_requests(labels, present={"a", "b", "x"}) == [("a", "b", ACCEPTED), ("a", "x", KEPT_SEPARATE)]


# ---- from a real store: audit trail + stored vectors -----------------------------------------------------------

MODEL = "test-model-3d"


def _doc(store, title, body, vec):
    """A document on the anchor named after its title, with its unit-length `MODEL` vector."""
    d = seed_document(store, title, body, anchor=title.lower().replace(" ", "-"))
    v = np.asarray(vec, dtype=np.float32)
    put_embedding(store, d, MODEL, v / np.linalg.norm(v))
    return store.document(d.document_id)


def test_labelled_pairs_from_the_audit_trail_with_real_stored_vectors(empty_store):
    store = empty_store
    a = _doc(store, "Build server", "The build server is ci.example.org.", [1, 0, 0])
    b = _doc(store, "Build host", "The build host is ci.example.org.", [0.9, 0.1, 0])
    c = _doc(store, "Release", "Version 1.2 ships on Monday.", [0.6, 0.8, 0])
    d = _doc(store, "Release two", "Version 1.3 ships on Friday.", [0.5, 0.8, 0.3])
    source = StoredVectors(store, MODEL)  # vectors must be read before the merge rewrites/tombstones them
    keep_separate(store, [c.document_id, d.document_id], note="different versions")
    ids = [a.document_id, b.document_id]
    merge_cluster(store, MergePlan(a.document_id, tuple(ids), mode=MODE_APPEND, drafted=draft_stamps(store, ids),
                                   cosines=((a.document_id, b.document_id, 0.97),)))
    pairs = labelled_pairs(store, source=source, include_demo=False)
    got = {(frozenset((p.a, p.b)), p.label): p.cosine for p in pairs}
    assert got[(frozenset(ids), ACCEPTED)] == pytest.approx(0.97)  # the cosine recorded with the merge
    expected_cd = float(np.dot(np.array([0.6, 0.8, 0]) / 1.0, np.array([0.5, 0.8, 0.3]) / np.linalg.norm([0.5, 0.8, 0.3])))
    assert got[(frozenset((c.document_id, d.document_id)), KEPT_SEPARATE)] == pytest.approx(expected_cd, abs=1e-5)
    # a lookup (e.g. the current scan) wins over the recorded cosine; an undone decision no longer counts
    override = labelled_pairs(store, cosine_of=lambda x, y: 0.5, include_demo=False)
    assert {p.cosine for p in override} == {0.5}
    undo(store, list_entries(store, operation="merge")[0].audit_id)
    assert [p.label for p in labelled_pairs(store, source=source, include_demo=False)] == [KEPT_SEPARATE]


def test_demo_labels_are_used_when_the_store_holds_the_demo_documents(tmp_path):
    from memgui.core.store import open_store
    from memgui.core.store.demo import build_demo_store, demo_labels

    with open_store(build_demo_store(tmp_path / "netclaw.db"), read_only=True) as store:
        pairs = labelled_pairs(store, cosine_of=lambda a, b: 0.9)
    labels = demo_labels()
    n_accepted = sum(len(c) * (len(c) - 1) // 2 for c in labels["duplicate_clusters"])
    assert sum(p.label == ACCEPTED for p in pairs) == n_accepted
    assert sum(p.label == KEPT_SEPARATE for p in pairs) == len(labels["sibling_pairs"])
    assert {p.source for p in pairs} == {"demo"}


def test_no_cosine_source_leaves_undecidable_pairs_out(empty_store):
    store = empty_store
    c = _doc(store, "Release", "Version 1.2 ships on Monday.", [0.6, 0.8, 0])
    d = _doc(store, "Release two", "Version 1.3 ships on Friday.", [0.5, 0.8, 0.3])
    keep_separate(store, [c.document_id, d.document_id])
    assert labelled_pairs(store, include_demo=False) == []
