"""Notes of one anchor are nominated together (issue 38, item 7): anchor edges, their mark, the big anchor split,
tombstoned documents and inactive anchors left out, exemptions kept, look-alikes under other anchors kept apart."""
from __future__ import annotations

import numpy as np

from factories import seed_anchor_store
from memgui.core.store.exemptions import add_exemption
from memgui.core.tasks import run_to_end
from memgui.core.vectors import nominate
from memgui.core.vectors.anchored import anchor_edges, vouched
from memgui.core.vectors.embed import EmbedderSource
from memgui.core.vectors.nominate import build_clusters, scan_store
from vector_fakes import FakeEmbedder, add_doc


def scan(store, fake=None, **kw):
    return run_to_end(scan_store(store, source=EmbedderSource(fake or FakeEmbedder(dims=32)), threshold=0.68, **kw))


def together(result, ids) -> bool:
    return any(set(ids) <= set(c.member_ids) for c in result.clusters)


def test_notes_of_one_anchor_are_nominated_together_and_marked(empty_store):
    trip = [add_doc(empty_store, t, b, anchor="lisbon-trip") for t, b in (
        ("Flights", "TP1351 leaves at 07:40"), ("Hotel", "Casa do Príncipe, four nights"), ("Why", "a talk"))]
    other = add_doc(empty_store, "Revenue", "grew 12 percent", anchor="revenue")
    result = scan(empty_store)  # random vectors: no cosine reaches the floor
    (cluster,) = result.clusters
    assert set(cluster.member_ids) == {d.document_id for d in trip} and other.document_id not in cluster.member_ids
    assert all(p.same_anchor and not p.nominee and p.cosine < 0.68 for p in cluster.pairs) and len(cluster.pairs) == 3
    assert scan(empty_store, by_anchor=False).clusters == ()  # the anchor, not the cosine, joined them


def test_tombstoned_documents_and_inactive_anchors_are_not_nominated(empty_store):
    live = [add_doc(empty_store, f"Note {i}", f"fact {i}", anchor="kept") for i in range(2)]
    gone = add_doc(empty_store, "Gone", "a tombstoned fact", anchor="kept")
    empty_store.writes.tombstone_document(gone.document_id)
    for i in range(2):
        add_doc(empty_store, f"Old {i}", f"old fact {i}", anchor="archived", anchor_status="tombstoned")
    result = scan(empty_store)
    assert [set(c.member_ids) for c in result.clusters] == [{d.document_id for d in live}]


def test_an_exempt_pair_stays_apart_under_one_anchor(empty_store):
    a, b = (add_doc(empty_store, f"Note {i}", f"fact {i}", anchor="one") for i in range(2))
    add_exemption(empty_store, a.document_id, b.document_id)
    assert scan(empty_store).clusters == ()


def test_a_big_anchor_is_not_one_cluster(empty_store):
    big = [add_doc(empty_store, f"Mira {i}", f"Mira fact number {i}", anchor="mira") for i in range(40)]
    result = scan(empty_store)
    assert result.clusters and max(len(c.member_ids) for c in result.clusters) <= nominate.MAX_CLUSTER_SIZE
    assert not together(result, [d.document_id for d in big])
    assert all(p.same_anchor for c in result.clusters for p in c.pairs)


def test_a_look_alike_under_another_anchor_does_not_split_an_anchor_group(empty_store):
    # the two trips' flights look alike (one topic vector); each trip's notes are otherwise unrelated
    lisbon = [add_doc(empty_store, "Lisbon flights", "flights-topic TP1351", anchor="lisbon"),
              add_doc(empty_store, "Lisbon hotel", "Casa do Príncipe", anchor="lisbon"),
              add_doc(empty_store, "Why Lisbon", "a talk", anchor="lisbon")]
    porto = [add_doc(empty_store, "Porto flights", "flights-topic TP1331", anchor="porto"),
             add_doc(empty_store, "Porto hotel", "Infante Sagres", anchor="porto")]
    result = scan(empty_store, FakeEmbedder(dims=32, topics=("flights-topic",)))
    assert together(result, [d.document_id for d in lisbon]) and together(result, [d.document_id for d in porto])
    assert not together(result, [lisbon[0].document_id, porto[0].document_id])
    cosine_only = scan(empty_store, FakeEmbedder(dims=32, topics=("flights-topic",)), by_anchor=False)
    assert [set(c.member_ids) for c in cosine_only.clusters] == [{lisbon[0].document_id, porto[0].document_id}]


def test_the_labelled_anchor_store_with_fake_vectors(empty_store):
    labels = seed_anchor_store(empty_store)
    result = scan(empty_store)
    assert all(together(result, ids) for ids in labels.groups.values())
    assert not any(together(result, pair) for pair in labels.lookalikes)
    assert not together(result, labels.big)


# ---- the pure parts -----------------------------------------------------------------------------------------


def test_anchor_edges_are_each_notes_k_nearest_mates():
    ids = ["a", "b", "c", "d", "x"]
    m = np.array([[1, .5, .4, .1, .9], [.5, 1, .3, .2, .9], [.4, .3, 1, .6, .9], [.1, .2, .6, 1, .9], [.9] * 4 + [1.]])
    pick = {x: i for i, x in enumerate(ids)}

    def cos(members):
        idx = [pick[x] for x in members]
        return m[np.ix_(idx, idx)]

    edges = anchor_edges({"a": "t", "b": "t", "c": "t", "d": "t"}, cos, k=1)
    assert set(edges) == {("a", "b"), ("c", "d")} and edges[("c", "d")] == .6  # x is under no anchor
    assert set(anchor_edges({"a": "t", "b": "t", "c": "t", "d": "t"}, cos, k=3)) == {
        ("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")}
    clusters, _ = build_clusters({}, order=ids, pair_cosine=cos, threshold=0.68, anchors={"a": "t", "b": "t"})
    assert [c.member_ids for c in clusters] == [("a", "b")] and clusters[0].pairs[0].same_anchor


def test_only_notes_that_look_like_no_member_are_vouched_for():
    assert vouched(np.array([[.3, .2]]), 0.68) and vouched(np.array([[.3, .2], [.1, .2]]), 0.68)
    assert not vouched(np.array([[.3, .8]]), 0.68)  # a look-alike stands on its cosines
    assert not vouched(np.empty((1, 0)), 0.68)


def test_the_cosine_clusters_first_and_the_anchor_fills_only_its_blind_spots():
    """One matrix, four cases (anchored.py, rules 1–3); every cosine not listed is 0.2."""
    anchors = {"d1": "A", "a2": "A", "a3": "A", "d2": "B",  # d1 and d2: one fact filed under two anchors
               "c1": "C", "c2": "C", "c3": "C",  # c1 and c2 restate one note of C; c3 is another detail of C
               "e1": "E", "e2": "E", "e3": "E",  # e3 looks like e1 (a sibling) but the cosine left it out
               "p1": "P", "p2": "P", "q1": "Q", "q2": "Q"}  # p1 and q1: two trips' flights, each trip with its hotel
    ids = list(anchors)
    at = {x: i for i, x in enumerate(ids)}
    m = np.full((len(ids), len(ids)), 0.2)
    np.fill_diagonal(m, 1.0)
    high = {("d1", "d2"): .9, ("c1", "c2"): .9, ("e1", "e2"): .9, ("e1", "e3"): .75, ("e2", "e3"): .6, ("p1", "q1"): .9}
    for (a, b), c in high.items():
        m[at[a], at[b]] = m[at[b], at[a]] = c

    def cos(members):
        idx = [at[x] for x in members]
        return m[np.ix_(idx, idx)]

    edges = {key: c for key, c in high.items() if c >= 0.68 and key != ("e1", "e3")}  # e3 missed by TopK
    found = {frozenset(c.member_ids) for c in build_clusters(edges, order=ids, pair_cosine=cos, threshold=0.68)[0]}
    assert found == {frozenset(p) for p in (("d1", "d2"), ("c1", "c2"), ("e1", "e2"), ("p1", "q1"))}
    clusters, _ = build_clusters(edges, order=ids, pair_cosine=cos, threshold=0.68, anchors=anchors)
    assert {frozenset(c.member_ids) for c in clusters} == {
        frozenset(("d1", "d2")), frozenset(("a2", "a3")),  # the duplicate is never pulled out to its anchor
        frozenset(("c1", "c2", "c3")),  # a complementary note joins a cluster of its own anchor's notes
        frozenset(("e1", "e2")),  # a look-alike sibling stays out of a cluster of duplicates
        frozenset(("p1", "p2")), frozenset(("q1", "q2")),  # parallel look-alikes go back to their own anchors
    }
    assert all(c.member_ids == tuple(sorted(c.member_ids, key=ids.index)) for c in clusters)  # store order


def test_a_duplicate_filed_under_another_anchor_stays_with_its_copy(empty_store):
    # the demo store's regression: anchor groups formed first took one copy of a duplicate away from the other
    lessons = add_doc(empty_store, "Portuguese lessons", "portuguese-topic with Rita on Tuesdays", anchor="portuguese")
    again = add_doc(empty_store, "Learning Portuguese", "portuguese-topic lessons, Tuesdays with Rita",
                    anchor="learning-portuguese")
    exam = add_doc(empty_store, "DIPLE result", "Passed the B2 exam in June", anchor="portuguese")
    note = add_doc(empty_store, "Textbook", "Português XXI, book 2", anchor="portuguese")
    result = scan(empty_store, FakeEmbedder(dims=32, topics=("portuguese-topic",)))
    assert {frozenset(c.member_ids) for c in result.clusters} == {
        frozenset((lessons.document_id, again.document_id)), frozenset((exam.document_id, note.document_id))}
    marks = {frozenset((p.a, p.b)): (p.nominee, p.same_anchor) for c in result.clusters for p in c.pairs}
    assert marks[frozenset((lessons.document_id, again.document_id))] == (True, False)
    assert marks[frozenset((exam.document_id, note.document_id))] == (False, True)
