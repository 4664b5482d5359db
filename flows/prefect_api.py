"""One Prefect API for a run: the flow's process and every worker it spawns report to it.

With no API configured (no PREFECT_API_URL in the environment or the active Prefect profile),
Prefect runs a temporary ("ephemeral") API server in a subprocess. newsclean starts that same
server itself, the way Prefect does (uvicorn on `prefect.server.api.server:create_app` with
Prefect's ephemeral flags), for two reasons:
- spawned workers inherit only the environment, so the server's address is exported before any
  worker starts (otherwise each worker process starts a server of its own: ~15 s and ~300 MB each);
- Prefect's own starter lives in the server's module, whose import costs the CLI ~3 s before the
  server even begins its own ~7.5 s start. Started first, even before Prefect's settings are read
  (~1.7 s of imports), the server comes up while the CLI imports the flow's modules on the other
  core; it is stopped again at once if the settings name an API or turn the ephemeral mode off.
  The server reads the same environment, profile and settings files as the CLI.

The launch copies Prefect's own (its SubprocessASGIServer's command and private environment flags,
its create_app factory), and use_api refreshes Prefect's process-wide settings: Prefect internals,
declared in newsclean.cleaners.upstream and checked from their source files (the server module is
not imported) while the server starts: another Prefect stops it and raises UpstreamMismatch, saying
what to do.
"""
from __future__ import annotations

import atexit
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Iterator

from newsclean.cleaners import upstream

# What Prefect's SubprocessASGIServer sets for the server it starts: no UI, the ephemeral profile.
_SERVER_FLAGS = {"PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1", "PREFECT__SERVER_FINAL": "1"}
_PORT_IN_USE = 3  # uvicorn's exit code when it cannot bind its port


def configured_url() -> str | None:
    """The API URL the environment or the active Prefect profile sets, if any."""
    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    from prefect.settings import get_current_settings

    return get_current_settings().api.url or None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the OS's pick)."""
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers_health(api_url: str) -> bool:
    """Whether a Prefect API at `api_url` answers its health check now."""
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:  # refused, reset, timed out (URLError is an OSError)
        return False


def share_api_with_workers() -> str | None:
    """Inside a flow run that Prefect started itself (a Python caller's `clean_corpus(...)`, not the
    CLI), export the API this process uses, so that spawned workers (process pool, Dask) report to
    it instead of each starting a temporary server of its own. With no URL configured, that is the
    temporary server Prefect's client already started in this process. Returns the URL."""
    upstream.require("prefect")
    url = configured_url()
    if not url:
        from prefect.settings import get_current_settings

        if not get_current_settings().server.ephemeral.enabled:
            return None
        from prefect.server.api.server import SubprocessASGIServer

        server = SubprocessASGIServer()  # the same instance Prefect's client uses in this process
        server.start()
        url = server.api_url
    os.environ["PREFECT_API_URL"] = url
    return url


# The server's process: uvicorn as `python -m uvicorn` runs it, beside a thread that ends the
# process when its stdin, a pipe from the run's process, closes: the server never outlives the
# run, however the run ends (killed, its terminal closed). It runs in a session of its own, so that
# a Ctrl-C at the terminal, which reaches the run and its workers, leaves it up while they report
# their stop to it; the run stops it last (TemporaryAPI.stop, at exit).
_SERVE = ("import os, runpy, sys, threading\n"
          "threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()\n"
          "runpy.run_module('uvicorn', run_name='__main__', alter_sys=True)\n")


class TemporaryAPI:
    """Prefect's temporary API server in a subprocess on 127.0.0.1, started at construction and
    stopped at exit (after Prefect's own exit handlers have sent their last logs and events).

    Saves each CLI run most of the server's ~7.5 s start, which overlaps the imports instead of
    following them (bench/RESULTS.md, Small runs: started before Prefect's settings too, `make run`
    median 13.40 s against 15.06 s)."""

    def __init__(self) -> None:
        self._env = {**os.environ, **_SERVER_FLAGS}
        self.process: subprocess.Popen | None = None
        self._launch()
        atexit.register(self.stop)  # registered before Prefect's handlers, so it runs after them

    def _launch(self) -> None:
        prefect_dir = Path(importlib.util.find_spec("prefect").origin).parent  # found, not imported
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SERVE, "--app-dir", str(prefect_dir.parent),
             "--factory", "prefect.server.api.server:create_app", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "error", "--lifespan", "on"],
            env=self._env, stdin=subprocess.PIPE, start_new_session=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def wait(self) -> str:
        """Block until the server answers its health check; returns its URL."""
        from prefect.settings import get_current_settings

        timeout_s = float(get_current_settings().server.ephemeral.startup_timeout_seconds)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code == _PORT_IN_USE:  # another process took the port between our check and its bind
                self._launch()
                continue
            if code is not None:
                raise RuntimeError(f"the temporary Prefect API server exited with code {code} before it was ready")
            if answers_health(self.url):
                return self.url
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the temporary Prefect API server did not answer within {timeout_s:.0f} s "
                           "(PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS)")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdin is not None:
            process.stdin.close()


def start_temporary_api() -> TemporaryAPI | None:
    """Start the temporary server when the run will need one (no API configured, Prefect's
    ephemeral mode on); None otherwise. Returns without waiting for it: `use_api` waits. Raises
    UpstreamMismatch, the server stopped, when Prefect is not the one the launch copies."""
    if os.environ.get("PREFECT_API_URL"):
        return None
    api = TemporaryAPI()  # before Prefect's settings are imported: see the module's docstring
    try:
        upstream.require("prefect")  # read from Prefect's source files while its server starts
    except upstream.UpstreamMismatch:
        api.stop()
        raise
    from prefect.settings import get_current_settings

    settings = get_current_settings()
    if settings.api.url or not settings.server.ephemeral.enabled:
        api.stop()
        return None
    return api


@contextmanager
def use_api(api: TemporaryAPI | None) -> Iterator[str | None]:
    """Within the block, this process (every thread of it) and the workers it spawns use `api`
    (once it answers), or the configured API when `api` is None. Yields the URL (None: nothing
    configured and no temporary server)."""
    upstream.require("prefect")
    url = api.wait() if api is not None else configured_url()
    if url is None:
        yield None
        return
    from prefect.context import refresh_global_settings_context

    had = os.environ.get("PREFECT_API_URL")
    os.environ["PREFECT_API_URL"] = url  # what spawned workers read
    # Prefect's process-wide settings, read from the environment again: what every thread reads
    # (a thread-local override would miss the threads Prefect starts, such as the process pool's
    # event forwarder, which would then start a server of their own)
    refresh_global_settings_context()
    try:
        yield url
    finally:
        if had is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = had
        refresh_global_settings_context()
