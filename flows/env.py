"""Prefect settings newsclean needs, applied before Prefect is imported (see ../shared/PLATFORM.md).

Every default can be overridden by setting the variable in the environment.
"""
from __future__ import annotations

import os
from pathlib import Path

DEFAULTS = {
    # The ephemeral server creates and migrates its SQLite database on first use (20-30 s here).
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    # Telemetry would fail on a closed network and print tracebacks.
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_LOGGING_LEVEL": "WARNING",
    "PREFECT_SERVER_LOGGING_LEVEL": "CRITICAL",
}


def configure() -> None:
    for key, value in DEFAULTS.items():
        os.environ.setdefault(key, value)
    if "PREFECT_HOME" not in os.environ:
        cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
        os.environ["PREFECT_HOME"] = str(cache / "newsclean" / "prefect")
    Path(os.environ["PREFECT_HOME"]).mkdir(parents=True, exist_ok=True)
