"""Each run publishes Prefect artifacts: a markdown summary, removals by kind, quarantine by reason.
Read back through the Prefect API (ephemeral mode here; tests/test_flow_server.py does it on a real server)."""
from __future__ import annotations

import shutil

import pytest

from newsclean.cleaners import store
from tests.conftest import SEEDS_RAW

pytestmark = pytest.mark.prefect


def read_artifacts(flow_run_id) -> dict:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    with get_client(sync_client=True) as client:
        arts = client.read_artifacts(artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id])))
    return {a.key: a for a in arts}


def test_run_publishes_summary_and_breakdown_artifacts(tmp_path):
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus

    raw, out = tmp_path / "raw", tmp_path / "out"
    shutil.copytree(SEEDS_RAW, raw)
    (raw / "empty.txt").write_bytes(b"")
    (raw / "debris.txt").write_text("Watch LIVE\n\nWhat do you think?\n")
    state = clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(1))(raw_dir=str(raw), out_dir=str(out), return_state=True)
    assert state.is_completed()
    summary = state.result()
    arts = read_artifacts(state.state_details.flow_run_id)
    assert set(summary["artifacts"]) == {"newsclean-summary", "newsclean-removals", "newsclean-quarantine", "newsclean-report"} <= set(arts)

    md = arts["newsclean-summary"]
    assert md.type == "markdown"
    assert "## Removed by kind" in md.data and "## Quarantined by reason" in md.data
    assert f"{summary['tables']['articles']} articles" in md.data
    assert f"{summary['docs_cleaned']} documents ({summary['docs_quarantined']} quarantined)" in md.data
    assert all(f"| {kind} |" in md.data for kind in summary["removed_by_kind"])

    removed = store.read_table(out, "removed")
    table = arts["newsclean-removals"]
    assert table.type == "table"
    rows = {r["kind"]: r for r in _rows(table.data)}
    assert {k: r["total"] for k, r in rows.items()} == removed["kind"].value_counts().to_dict()
    assert sum(r["whole lines"] for r in rows.values()) == int(removed["whole_line"].sum())

    quarantine = store.read_table(out, "quarantine")
    reasons = _rows(arts["newsclean-quarantine"].data)
    assert sum(r["documents"] for r in reasons) == len(quarantine) == 2
    assert any("no article body found" in r["reason"] for r in reasons)


def _rows(data) -> list[dict]:
    import json

    data = json.loads(data) if isinstance(data, str) else data
    if isinstance(data, dict):  # column-oriented
        keys = list(data)
        return [dict(zip(keys, vals)) for vals in zip(*data.values())]
    return data
