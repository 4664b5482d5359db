"""Prefect settings newsclean needs, applied before Prefect is imported (see ../shared/PLATFORM.md),
and the level dask.distributed logs at (the Dask task runner's).

Only what the user left unset is filled in: a setting in the environment or in the active Prefect
profile is theirs and stays as it is, and so is their Prefect home (PREFECT_HOME, or Prefect's own
~/.prefect when it exists, where `prefect profile` and `prefect config set` keep the profiles). Only
a user with neither gets a PREFECT_HOME of newsclean's, in the cache directory.

The profile is read from its TOML file, not through Prefect's settings module: importing that
costs seconds, which the CLI spends while Prefect's temporary server starts (newsclean.flows.prefect_api).
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

DEFAULTS = {
    # The ephemeral server creates and migrates its SQLite database on first use (20-30 s here).
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    # Telemetry would fail on a closed network and print tracebacks.
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_LOGGING_LEVEL": "WARNING",
    "PREFECT_SERVER_LOGGING_LEVEL": "CRITICAL",
}
PREFECT_OWN_HOME = Path("~/.prefect")  # Prefect's default PREFECT_HOME
DASK_LOGGING = "DASK_DISTRIBUTED__LOGGING__DISTRIBUTED"  # dask.distributed's logger level (dask's config)
LEVEL_NAMES = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def default_home() -> Path:
    """newsclean's Prefect home for a user who has none: in the cache directory."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "newsclean" / "prefect"


def user_home() -> Path | None:
    """The user's own Prefect home: PREFECT_HOME, or Prefect's default when it exists. None when
    the user has none."""
    if os.environ.get("PREFECT_HOME"):
        return Path(os.environ["PREFECT_HOME"]).expanduser()
    own = PREFECT_OWN_HOME.expanduser()
    return own if own.is_dir() else None


def profile_settings(home: Path | None) -> dict:
    """The settings of the active Prefect profile (PREFECT_PROFILE, else the file's `active`), from
    PREFECT_PROFILES_PATH or <home>/profiles.toml; empty when there is none or it cannot be read
    (Prefect then reports it itself)."""
    path = os.environ.get("PREFECT_PROFILES_PATH") or (home / "profiles.toml" if home else None)
    if not path:
        return {}
    try:
        data = tomllib.loads(Path(path).expanduser().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    active = os.environ.get("PREFECT_PROFILE") or data.get("active")
    profile = data.get("profiles", {}).get(active, {}) if isinstance(data.get("profiles"), dict) else {}
    return profile if isinstance(profile, dict) else {}


def configure() -> None:
    home = user_home()
    if home is None and not os.environ.get("PREFECT_PROFILES_PATH"):
        home = default_home()
        os.environ["PREFECT_HOME"] = str(home)
    profile = profile_settings(home)
    for key, value in DEFAULTS.items():
        if key not in os.environ and key not in profile:
            os.environ[key] = value
    # The Dask task runner's library logs its cluster's start and end at INFO on the terminal (~35
    # lines around the progress bar of one run): it logs at Prefect's level instead, unless the
    # user set its own (read when dask is first imported, here and in its worker processes).
    if DASK_LOGGING not in os.environ:
        level = str(os.environ.get("PREFECT_LOGGING_LEVEL") or profile.get("PREFECT_LOGGING_LEVEL") or "").upper()
        os.environ[DASK_LOGGING] = (level if level in LEVEL_NAMES else DEFAULTS["PREFECT_LOGGING_LEVEL"]).lower()
    if home is not None:
        home.mkdir(parents=True, exist_ok=True)
