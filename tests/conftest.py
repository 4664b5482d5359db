"""Shared fixtures. Prefect runs in its local ephemeral mode with a project-local PREFECT_HOME;
tests that start many `newsclean` processes share one real Prefect server (`prefect_server`)."""
from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("PREFECT_HOME", str(ROOT / ".prefect"))
if os.environ.get("PYTEST_XDIST_WORKER"):
    # each pytest-xdist worker gets a Prefect home of its own: two ephemeral servers writing one
    # SQLite database would wait on each other's locks
    os.environ["PREFECT_HOME"] = str(Path(os.environ["PREFECT_HOME"]) / "xdist" / os.environ["PYTEST_XDIST_WORKER"])
from newsclean.flows.env import configure  # noqa: E402
from newsclean.flows.prefect_api import answers_health, free_port  # noqa: E402

configure()

SEEDS_RAW = ROOT / "raw"
GOLDEN = Path(__file__).parent / "golden" / "seeds_expected.jsonl"


@pytest.fixture(scope="session")
def expected_seeds() -> dict[str, dict]:
    return {r["source"]: r for r in map(json.loads, GOLDEN.read_text(encoding="utf-8").splitlines())}


@pytest.fixture
def settings():
    from newsclean.cleaners.settings import Settings
    return Settings()


@pytest.fixture
def line_scans(monkeypatch) -> list[tuple[int, list]]:
    """Each call of a batch's line scans (newsclean.cleaners.lines.line_forms_many) during the test:
    (how many texts, their forms)."""
    from newsclean.cleaners import lines as L

    calls = []
    real = L.line_forms_many

    def counted(batch, keep_curly_quotes):
        forms = real(batch, keep_curly_quotes)
        calls.append((len(batch), forms))
        return forms

    monkeypatch.setattr(L, "line_forms_many", counted)
    return calls


def stop_prefect_services() -> None:
    """Stop the event and log workers Prefect starts in this process when a flow runs in it. The
    events worker's websocket sends a keep-alive ping every ~20 s from Prefect's loop thread, and
    each ping draws from the global `random` module (websockets), so Hypothesis warned ("Do not use
    the `random` module inside strategies") when one fell while it generated a later test's data.
    A later flow starts the workers again."""
    if "prefect.events.worker" not in sys.modules:
        return  # Prefect was never imported here: no flow ran
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    # (Prefect 3.8 keeps one registry for all its queue services, so either call drains both;
    # both are called in case a later release separates them)
    EventsWorker.drain_all(timeout=10, at_exit=False)
    APILogWorker.drain_all(timeout=10, at_exit=False)


@pytest.fixture(scope="module", autouse=True)
def _prefect_services_stopped_after_each_module():
    yield
    stop_prefect_services()


def _start_prefect_server(home: Path) -> tuple[subprocess.Popen, str]:
    """`prefect server start` on 127.0.0.1 at a free port with its own database under `home`, in a
    session of its own; returns once /health answers."""
    home.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server_env = os.environ.copy()
    server_env.pop("PREFECT_API_URL", None)
    server_env.update(PREFECT_HOME=str(home), PREFECT_SERVER_ANALYTICS_ENABLED="false",
                      PREFECT_SERVER_LOGGING_LEVEL="WARNING")
    with open(home / "server.log", "wb") as log:
        server = subprocess.Popen([str(Path(sys.executable).with_name("prefect")), "server", "start", "--host", "127.0.0.1",
                                   "--port", str(port), "--analytics-off"], env=server_env, stdout=log,
                                  stderr=subprocess.STDOUT, cwd=home, start_new_session=True)
    api = f"http://127.0.0.1:{port}/api"
    deadline = time.monotonic() + 180
    while not answers_health(api):
        if server.poll() is not None or time.monotonic() > deadline:
            _stop_prefect_server(server.pid)
            pytest.fail("prefect server did not start: " + (home / "server.log").read_text()[-2000:])
        time.sleep(0.5)
    return server, api


def _stop_prefect_server(pid: int) -> None:
    """SIGTERM to the server's process group, SIGKILL after 20 s. The process that started it
    reaps it; another (the xdist controller) waits for the group to be gone."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        except ChildProcessError:  # not this process's child
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.2)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# Under pytest-xdist the workers share one server: the first worker that needs it starts it and
# records it here, in the controller's base temporary folder (one per session), and the controller
# stops it when the session ends (pytest_sessionfinish). Each server costs ~15 s of CPU to start and
# a few percent of a core while idle.
SHARED_SERVER = "prefect-server.json"


@pytest.fixture(scope="session")
def prefect_server(tmp_path_factory):
    """A real `prefect server start` on 127.0.0.1 at a free port, with its own database, started
    once for the whole session (once for all pytest-xdist workers). Yields (api_url, env): `env`
    makes a `newsclean` or `prefect` subprocess a client of this server. Each process then skips
    the ephemeral server's start-up (~8-10 s of CPU per process here), which is what the tests
    running many CLI processes need."""
    own_pid = None  # the server this process stops (a plain run); xdist's controller stops a shared one
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        server, api = _start_prefect_server(tmp_path_factory.mktemp("prefect-server-home"))
        own_pid = server.pid
    else:
        shared = tmp_path_factory.getbasetemp().parent
        with open(shared / (SHARED_SERVER + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            record = shared / SHARED_SERVER
            if record.exists():
                api = json.loads(record.read_text(encoding="utf-8"))["api"]
            else:
                server, api = _start_prefect_server(shared / "prefect-server-home")
                record.write_text(json.dumps({"api": api, "pid": server.pid}), encoding="utf-8")
    env = os.environ.copy()
    env.update(PREFECT_API_URL=api, PREFECT_HOME=str(tmp_path_factory.mktemp("prefect-client-home")))
    try:
        yield api, env
    finally:
        if own_pid is not None:
            _stop_prefect_server(own_pid)


def pytest_sessionfinish(session):
    """The controller of an xdist run stops the workers' shared server."""
    if hasattr(session.config, "workerinput") or not hasattr(session.config, "_tmp_path_factory"):
        return
    record = session.config._tmp_path_factory.getbasetemp() / SHARED_SERVER
    if record.exists():
        _stop_prefect_server(json.loads(record.read_text(encoding="utf-8"))["pid"])


# `make test` runs the suite on every core (pytest-xdist, `--dist loadgroup`). A module's tests
# stay on one worker, so its module- and session-scoped fixtures (a CLI run over a corpus, a
# Prefect server) are built once; the property tests share no fixture and each takes tens of
# seconds, so they are spread over the workers one by one.
SPREAD_MODULES = frozenset({"test_properties.py"})


# tryfirst: pytest-xdist's own hook turns the xdist_group marks into the node ids' "@group"
# suffixes it schedules by, so the marks must be on the items before it runs. (With pytest 9.2 the
# suffix is ignored altogether: pyproject pins pytest below it; tests/test_suite_grouping.py.)
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.name not in SPREAD_MODULES:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
