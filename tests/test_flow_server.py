"""Against a real `prefect server start` on 127.0.0.1 at a free port (conftest.prefect_server):
`newsclean serve` serves the deployment with a schedule, a run is triggered through the REST API and
completes, its output and artifacts are checked; prefect.yaml deploys against the same server."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, SEEDS_RAW

pytestmark = [pytest.mark.prefect, pytest.mark.slow]
BIN = Path(sys.executable).parent


def _wait(what: str, check, timeout: float, proc: subprocess.Popen | None = None, every: float = 0.5):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"{what}: process exited with {proc.returncode}: {_tail(proc)}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


def _tail(proc: subprocess.Popen) -> str:
    try:
        out, err = proc.communicate(timeout=5)
    except Exception:  # noqa: BLE001
        return ""
    return ((out or "") + (err or ""))[-3000:]


def _stop(proc: subprocess.Popen, sig=signal.SIGINT, timeout: float = 30) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _deployment(api: str, name: str) -> dict | None:
    r = httpx.get(f"{api}/deployments/name/clean-corpus/{name}", timeout=10)
    return r.json() if r.status_code == 200 else None


def _create_flow_run(api: str, deployment_id: str, attempts: int = 5) -> dict:
    """Trigger a run through the API. The SQLite-backed server can answer a 5xx under load
    (database locked); retry those, and fail with the server's answer otherwise."""
    for attempt in range(attempts):
        resp = httpx.post(f"{api}/deployments/{deployment_id}/create_flow_run", json={}, timeout=30)
        if resp.status_code < 500:
            break
        time.sleep(1 + attempt)
    assert resp.status_code in (200, 201), (resp.status_code, resp.text[:500])
    return resp.json()


def test_serve_trigger_run_through_api(prefect_server, tmp_path):
    api, env = prefect_server
    raw, out = tmp_path / "raw", tmp_path / "out"
    shutil.copytree(SEEDS_RAW, raw)
    (raw / "empty.txt").write_bytes(b"")
    # the runner polls for triggered runs every second here instead of every 10 s (Prefect's default)
    env = env | {"PREFECT_RUNNER_POLL_FREQUENCY": "1"}
    serve = subprocess.Popen([str(BIN / "newsclean"), "serve", str(raw), str(out), "--interval", "3600", "--name", "test-serve"],
                             env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        dep = _wait("the served deployment", lambda: _deployment(api, "test-serve"), 120, serve)
        assert [s["schedule"].get("interval") for s in dep["schedules"]] == [3600.0]
        assert dep["parameters"]["out_dir"] == str(out.resolve())

        run = _create_flow_run(api, dep["id"])

        def finished():
            state = httpx.get(f"{api}/flow_runs/{run['id']}", timeout=10).json()["state"]
            return state if state["type"] in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED") else None

        state = _wait("the triggered flow run", finished, 300, serve, every=1)
        assert state["type"] == "COMPLETED", state
    finally:
        _stop(serve)

    summary = json.loads((out / "run.json").read_text())
    assert (summary["docs_read"], summary["docs_cleaned"], summary["docs_quarantined"]) == (6, 5, 1)
    assert (out / "articles.parquet").exists() and (out / "manifest.json").exists()

    arts = httpx.post(f"{api}/artifacts/filter", json={"artifacts": {"flow_run_id": {"any_": [run["id"]]}}}, timeout=10).json()
    by_key = {a["key"]: a for a in arts}
    assert {"newsclean-summary", "newsclean-removals", "newsclean-quarantine"} <= set(by_key)
    assert by_key["newsclean-summary"]["type"] == "markdown" and "Removed by kind" in by_key["newsclean-summary"]["data"]
    assert by_key["newsclean-removals"]["type"] == "table"

    tasks = httpx.post(f"{api}/task_runs/filter", json={"flow_runs": {"id": {"any_": [run["id"]]}}}, timeout=10).json()
    names = {t["name"].rsplit("-", 1)[0] for t in tasks}
    assert {"discover-sources", "fingerprint-sources", "corpus-statistics", "clean-batch", "validate-tables",
            "write-tables", "publish-artifacts"} <= names


def test_prefect_yaml_deploys(prefect_server, tmp_path):
    """`prefect deploy --all` accepts prefect.yaml: the deployment has the cron schedule and limit."""
    api, env = prefect_server
    subprocess.run([str(BIN / "prefect"), "work-pool", "create", "newsclean", "--type", "process"], env=env, cwd=ROOT,
                   capture_output=True, text=True, timeout=120)
    proc = subprocess.run([str(BIN / "prefect"), "--no-prompt", "deploy", "--all"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    dep = _deployment(api, "newsclean")
    assert dep is not None
    assert [s["schedule"].get("cron") for s in dep["schedules"]] == ["0 * * * *"]
    assert dep["concurrency_limit"] == 1 or (dep.get("global_concurrency_limit") or {}).get("limit") == 1
    assert dep["work_pool_name"] == "newsclean" and dep["entrypoint"] == "flows/clean_corpus.py:clean_corpus"


def test_serve_without_a_server_is_a_one_line_error(tmp_path):
    env = os.environ.copy()
    env.pop("PREFECT_API_URL", None)
    env["PREFECT_HOME"] = str(tmp_path / "home")
    proc = subprocess.run([str(BIN / "newsclean"), "serve", str(SEEDS_RAW), str(tmp_path / "out"), "--cron", "0 * * * *"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "needs a Prefect server" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
