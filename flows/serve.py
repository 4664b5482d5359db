"""`newsclean serve`: the clean-corpus flow as a served deployment with a cron or interval schedule.

flow.serve() registers a deployment on the Prefect server named by PREFECT_API_URL and runs its
flow runs in subprocesses of this process until it is stopped. Schedules need a real server
(`prefect server start`): Prefect's temporary ephemeral server cannot schedule, so serve refuses
to start without PREFECT_API_URL instead of silently never running.

For users with workers and work pools, prefect.yaml at the project root defines the same
deployment (`prefect deploy --all`).
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

DEPLOYMENT_NAME = "newsclean"


class ServeError(RuntimeError):
    pass


def _api_url() -> str | None:
    url = os.environ.get("PREFECT_API_URL")
    if url:
        return url
    try:  # a profile (`prefect config set PREFECT_API_URL=...`) counts too
        from prefect.settings import get_current_settings

        return get_current_settings().api.url
    except Exception:  # noqa: BLE001
        return None


def serve_flow(raw_dir: str | Path, out_dir: str | Path, *, cron: str | None = None, interval: float | None = None,
               name: str = DEPLOYMENT_NAME, settings: dict | None = None, full: bool = False) -> None:
    """Block serving the deployment `clean-corpus/<name>`."""
    if not _api_url():
        raise ServeError("serve needs a Prefect server: start one with `prefect server start` and set "
                         "PREFECT_API_URL=http://127.0.0.1:4200/api (Prefect's temporary server cannot run schedules)")
    from prefect.types.entrypoint import EntrypointType

    from newsclean.flows.clean_corpus import clean_corpus

    kwargs: dict = {}
    if cron:
        kwargs["cron"] = cron
    elif interval:
        kwargs["interval"] = timedelta(seconds=interval)
    clean_corpus.serve(
        name=name,
        parameters={"raw_dir": str(raw_dir), "out_dir": str(out_dir), "settings": settings or {}, "full": full},
        description=f"Clean {raw_dir} into {out_dir} (incremental).",
        tags=["newsclean"],
        # A run still going when the next one is due: the later run fails at once on OUT_DIR's lock
        # (newsclean.cleaners.runlock); limit=1 also keeps this server process from starting them together.
        limit=1,
        print_starting_message=True,
        entrypoint_type=EntrypointType.MODULE_PATH,  # runs wherever the package is installed
        **kwargs,
    )
