"""A progress line's stage is a `Step`: what the window and the CLI branch on (`loading model`, `judging pairs`)
is a member, so a renamed label is found by mypy, not by a window that stops showing its progress."""
from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store
from memgui.core.tasks import Step, run_to_end
from memgui.core.vectors.nominate import scan_store


def test_every_stage_a_scan_reports_is_a_step(tmp_path) -> None:
    seen = []
    with open_store(build_demo_store(tmp_path / "demo" / "netclaw.db"), read_only=True) as store:
        run_to_end(scan_store(store), seen.append)
    assert seen and all(type(p.stage) is Step for p in seen)
    assert {Step.INDEXING, Step.NOMINATING} <= {p.stage for p in seen}
