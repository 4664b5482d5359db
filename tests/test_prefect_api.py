"""newsclean.flows.prefect_api: the CLI's temporary Prefect API server, started before the flow's modules are
imported, without importing Prefect's server module, and seen by every thread of the process.

Each case runs in a fresh interpreter: Prefect's process-wide settings are read at its import."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PROBE = r'''
import json, os, sys, threading, urllib.request
from newsclean.flows.env import configure
configure()
from newsclean.flows import prefect_api
from prefect.settings import PREFECT_API_URL

def in_a_new_thread():
    # a thread started without a copy of the caller's context, as Prefect's process pool starts
    # its event forwarder: it reads the process-wide settings
    seen = {}
    t = threading.Thread(target=lambda: seen.update(url=PREFECT_API_URL.value()))
    t.start()
    t.join()
    return seen["url"]

def uvicorn_children():
    # live child processes of this one running uvicorn (a stopped server has been waited for)
    n = 0
    for stat in os.listdir("/proc"):
        if not stat.isdigit():
            continue
        try:
            with open(f"/proc/{stat}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{stat}/cmdline", "rb") as fh:
                cmdline = fh.read()
        except OSError:
            continue
        n += int(fields[1]) == os.getpid() and fields[0] != "Z" and b"uvicorn" in cmdline
    return n

api = prefect_api.start_temporary_api()
report = {"started": api is not None, "servers_running": uvicorn_children()}
with prefect_api.use_api(api) as url:
    report["url"] = url
    report["server_module_imported"] = "prefect.server.api.server" in sys.modules
    if api is not None:
        with urllib.request.urlopen(url + "/health", timeout=10) as response:
            report["health"] = response.status
    report["env"] = os.environ.get("PREFECT_API_URL")
    report["thread"] = in_a_new_thread()
report["env_after"] = os.environ.get("PREFECT_API_URL")
report["thread_after"] = in_a_new_thread()
if api is not None:
    process = api.process
    api.stop()
    report["server_exit_code"] = process.poll()
print(json.dumps(report))
'''


def _probe(tmp_path, **env_updates: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "DASK_"))}
    env.update(PREFECT_HOME=str(tmp_path / "prefect-home"), **env_updates)
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=240,
                          env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.prefect
def test_no_api_configured_starts_one_server_that_every_thread_uses(tmp_path):
    report = _probe(tmp_path)
    assert report["started"] and report["servers_running"] == 1
    assert report["url"].startswith("http://127.0.0.1:") and report["url"].endswith("/api")
    assert report["health"] == 200
    # Prefect's own starter is in the server's module (~3 s of imports): not needed to start it
    assert report["server_module_imported"] is False
    # the workers (environment) and every thread of this process (process-wide settings) use it
    assert report["env"] == report["url"]
    assert report["thread"] == report["url"]
    # afterwards nothing points at the stopped server
    assert report["env_after"] is None and report["thread_after"] is None
    assert report["server_exit_code"] is not None


def test_a_configured_api_is_used_and_no_server_starts(tmp_path):
    url = "http://127.0.0.1:9/api"  # nothing listens there: nothing may wait for it either
    report = _probe(tmp_path, PREFECT_API_URL=url)
    assert report["started"] is False and report["servers_running"] == 0
    assert report["url"] == report["env"] == report["thread"] == url
    assert report["env_after"] == report["thread_after"] == url
    assert report["server_module_imported"] is False


def test_ephemeral_mode_off_and_no_api_starts_nothing(tmp_path):
    report = _probe(tmp_path, PREFECT_SERVER_EPHEMERAL_ENABLED="false")
    # the server started before the settings were read is stopped again
    assert report["started"] is False and report["servers_running"] == 0
    assert report["url"] is None and report["env"] is None and report["thread"] is None


def test_an_api_named_by_the_prefect_profile_is_used_and_the_early_server_stopped(tmp_path):
    url = "http://127.0.0.1:9/api"
    home = tmp_path / "prefect-home"
    home.mkdir()
    (home / "profiles.toml").write_text(f'active = "remote"\n\n[profiles.remote]\nPREFECT_API_URL = "{url}"\n')
    report = _probe(tmp_path)
    assert report["started"] is False and report["servers_running"] == 0
    assert report["url"] == report["env"] == report["thread"] == url
    assert report["env_after"] is None  # the environment as it was; the profile still names the API
    assert report["thread_after"] == url


@pytest.mark.prefect
def test_stopping_prefect_services_closes_the_event_websocket(prefect_server, monkeypatch):
    """tests/conftest.py stops Prefect's event and log workers after each module: their websocket's
    keep-alive pings move the global random state under Hypothesis (see stop_prefect_services)."""
    from prefect import flow
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    from newsclean.flows import prefect_api
    from tests.conftest import stop_prefect_services

    api, _ = prefect_server
    monkeypatch.setenv("PREFECT_API_URL", api)

    @flow
    def one() -> int:
        return 1

    with prefect_api.use_api(None):
        assert one() == 1
        # (QueueService._instances: Prefect's registry of running workers)
        assert EventsWorker._instances, "a flow run's events go through the events worker"
        stop_prefect_services()
        assert not EventsWorker._instances and not APILogWorker._instances
        assert one() == 1  # a later flow starts them again
        assert EventsWorker._instances
    stop_prefect_services()


# ---------------------------------------------------------------- the user's Prefect settings

SETTINGS_PROBE = r'''
import json, os
from newsclean.flows.env import configure
configure()
from prefect.settings import get_current_settings
s = get_current_settings()
print(json.dumps({"home_env": os.environ.get("PREFECT_HOME"), "home": str(s.home), "logging": s.logging.level,
                  "dask_logging": os.environ.get("DASK_DISTRIBUTED__LOGGING__DISTRIBUTED"),
                  "analytics": s.server.analytics_enabled, "server_logging": s.server.logging_level,
                  "timeout": s.server.ephemeral.startup_timeout_seconds}))
'''


def _settings_probe(tmp_path, **env_updates: str) -> dict:
    """configure() and Prefect's resulting settings in a fresh interpreter, HOME and the cache
    directory in tmp_path, no PREFECT_* variable but env_updates."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "DASK_"))}
    env.update(HOME=str(tmp_path / "user"), XDG_CACHE_HOME=str(tmp_path / "cache"), **env_updates)
    (tmp_path / "user").mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, "-c", SETTINGS_PROBE], capture_output=True, text=True, timeout=240,
                          env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _profile(home, **settings: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    lines = "".join(f'{k} = "{v}"\n' for k, v in settings.items())
    (home / "profiles.toml").write_text(f'active = "mine"\n\n[profiles.mine]\n{lines}')


def test_a_user_set_prefect_home_and_its_profile_are_kept(tmp_path):
    home = tmp_path / "my-prefect"
    _profile(home, PREFECT_LOGGING_LEVEL="DEBUG", PREFECT_SERVER_ANALYTICS_ENABLED="true")
    got = _settings_probe(tmp_path, PREFECT_HOME=str(home))
    assert got["home_env"] == str(home) and got["home"] == str(home)
    assert (got["logging"], got["analytics"]) == ("DEBUG", True)  # the profile's, not newsclean's defaults
    assert got["dask_logging"] == "debug"  # the Dask runner's library logs at the same level
    assert (got["server_logging"], got["timeout"]) == ("CRITICAL", 120)  # what it leaves unset is filled in


def test_prefect_s_own_home_is_used_when_it_exists(tmp_path):
    _profile(tmp_path / "user" / ".prefect", PREFECT_LOGGING_LEVEL="ERROR")
    got = _settings_probe(tmp_path)
    assert got["home_env"] is None and got["home"] == str(tmp_path / "user" / ".prefect")
    assert got["logging"] == "ERROR"


def test_environment_settings_win_and_a_user_without_prefect_gets_a_cache_home(tmp_path):
    got = _settings_probe(tmp_path, PREFECT_LOGGING_LEVEL="INFO")
    assert got["home_env"] == got["home"] == str(tmp_path / "cache" / "newsclean" / "prefect")
    assert (got["logging"], got["analytics"], got["server_logging"]) == ("INFO", False, "CRITICAL")
    assert got["dask_logging"] == "info"
    assert not (tmp_path / "user" / ".prefect").exists()


def test_dask_logs_at_prefects_level_unless_the_user_set_its_own(tmp_path):
    # newsclean's default: warnings only (the Dask runner's cluster start and end stay off the terminal)
    assert _settings_probe(tmp_path)["dask_logging"] == "warning"
    assert _settings_probe(tmp_path, DASK_DISTRIBUTED__LOGGING__DISTRIBUTED="debug")["dask_logging"] == "debug"


ORPHAN_PROBE = r'''
import sys, time
from newsclean.flows.env import configure
configure()
from newsclean.flows import prefect_api
api = prefect_api.start_temporary_api()
api.wait()
print(api.process.pid, flush=True)
time.sleep(600)
'''


def _running(pid: int) -> bool:
    """Whether process `pid` exists and has not exited (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.prefect
def test_the_server_ends_with_the_run_however_the_run_ends(tmp_path):
    """Killed outright (no exit handler runs), the run's process takes its server with it: the
    server, in a session of its own so that a Ctrl-C leaves it up for the run's last reports, ends
    when its stdin, a pipe from the run, closes."""
    import signal
    import time

    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "DASK_"))}
    env.update(PREFECT_HOME=str(tmp_path / "prefect-home"))
    run = subprocess.Popen([sys.executable, "-c", ORPHAN_PROBE], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        server = int(run.stdout.readline())
        assert _running(server) and os.getpgid(server) != os.getpgid(run.pid)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
        deadline = time.monotonic() + 15
        while _running(server) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(server), "the server outlived the run that started it"
    finally:
        run.kill()
