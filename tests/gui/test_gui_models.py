"""qtmodeltester on every item model of the window, plus what the queue shows and how it sorts/filters."""
from PySide6.QtCore import Qt

from memgui.core.merge.guard import check_merge
from memgui.gui.review.cluster_model import CLUSTER_ROLE, MERGED, NEW, ClusterFilterProxy, ClusterRow, ClusterTableModel
from memgui.gui.review.guard_panel import GuardTokenModel


class _Pair:
    def __init__(self, a, b, cosine):
        self.a, self.b, self.cosine = a, b, cosine


class _Cluster:
    def __init__(self, cid, members, top):
        self.id, self.member_ids, self.top_cosine = cid, members, top
        self.pairs = (_Pair(members[0], members[1], top),)


def _rows():
    return [
        ClusterRow(_Cluster("c1", ("d1", "d2"), 0.91), ("Alpha", "Alpha copy"), ("anchor:alpha", "anchor:alpha")),
        ClusterRow(_Cluster("c2", ("d3", "d4", "d5"), 0.97), ("Beta", "Beta 2", "Beta 3"), ("anchor:beta", "anchor:b2", "anchor:b3")),
        ClusterRow(_Cluster("c3", ("d6", "d7"), None), ("Gamma", "Gamma"), ("anchor:g", "anchor:g")),
    ]


def test_cluster_model_passes_modeltester_and_shows_columns(qtmodeltester):
    model = ClusterTableModel()
    model.set_rows(_rows())
    qtmodeltester.check(model)
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(5)] == \
        ["Status", "Cosine", "Size", "Titles", "Anchor"]
    row = [model.data(model.index(1, c)) for c in range(5)]
    assert row == ["new", "0.970", "3", "Beta · Beta 2 · Beta 3", "beta +2"]
    assert model.data(model.index(2, 1)) == "lexical"  # degraded path: no cosine
    model.set_status("c2", MERGED, audit_id=7)
    assert model.data(model.index(1, 0)) == MERGED
    assert model.row_for_audit(7).cluster_id == "c2"
    qtmodeltester.check(model)


def test_proxy_sorts_by_value_and_filters_by_documents(qtmodeltester):
    model = ClusterTableModel()
    model.set_rows(_rows())
    proxy = ClusterFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    proxy.sort(1, Qt.SortOrder.DescendingOrder)
    assert [proxy.data(proxy.index(r, 1)) for r in range(3)] == ["0.970", "0.910", "lexical"]
    proxy.set_allowed_documents({"d1", "d7"})
    assert sorted(proxy.data(proxy.index(r, 0), CLUSTER_ROLE).cluster_id
                  for r in range(proxy.rowCount())) == ["c1", "c3"]
    proxy.set_allowed_documents(set())
    assert proxy.rowCount() == 0
    proxy.set_allowed_documents(None)
    assert proxy.rowCount() == 3
    assert proxy.data(proxy.index(0, 0)) == NEW
    qtmodeltester.check(proxy)


def test_guard_token_model_groups_by_class_missing_first(qtmodeltester):
    report = check_merge(
        ["Postgres 14.2 on db-01.internal port 5432, see https://example.com/db", "Replica db-02.internal port 5433"],
        "Postgres 14.2 on db-01.internal port 5432",
    )
    model = GuardTokenModel()
    model.set_tokens(report.tokens, ["#1", "#2"])
    qtmodeltester.check(model)
    shown = [(model.data(model.index(r, 1)), model.data(model.index(r, 3))) for r in range(model.rowCount())]
    classes = [c for c, _ in shown]
    assert classes == sorted(classes)  # grouped by class
    for kind in set(classes):
        statuses = [s for c, s in shown if c == kind]
        assert statuses == sorted(statuses, key=lambda s: s != "MISSING")  # missing first inside a class
    missing = {model.data(model.index(r, 0)) for r in range(model.rowCount()) if model.data(model.index(r, 3)) == "MISSING"}
    assert missing == set(report.missing) and "https://example.com/db" in missing
    sources = {model.data(model.index(r, 0)): model.data(model.index(r, 2)) for r in range(model.rowCount())}
    assert sources["5433"] == "#2"


def test_missing_only_filter_of_the_token_table(qtmodeltester, qtbot):
    from memgui.gui.review.guard_panel import GuardPanel

    panel = GuardPanel()
    qtbot.addWidget(panel)
    report = check_merge(["Postgres 14.2 on db-01.internal port 5432"], "Postgres 14.2 on db-01.internal")
    panel.set_report(report, ["#1"])
    proxy = panel.table.model()
    qtmodeltester.check(proxy)
    total = proxy.rowCount()
    panel.missing_only.setChecked(True)
    assert 0 < proxy.rowCount() < total
    assert {proxy.data(proxy.index(r, 3)) for r in range(proxy.rowCount())} == {"MISSING"}
    qtmodeltester.check(proxy)
    assert "failed" in panel.verdict.text()
