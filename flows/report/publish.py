"""Publish a run's report to Prefect as a link artifact. Call inside a flow or task."""
from __future__ import annotations

import logging
from pathlib import Path

KEY = "newsclean-report"


def publish_report(report_path: Path) -> list[str]:
    """Link artifact `newsclean-report` pointing at report.html (a file:// URI). Returns the keys
    created. Never fails the run: a failure to publish is only logged."""
    from prefect.artifacts import create_link_artifact

    try:
        create_link_artifact(link=Path(report_path).resolve().as_uri(), link_text="report.html",
                             key=KEY, description="the run's HTML report (self-contained, open in a browser)")
    except Exception as exc:  # noqa: BLE001 - the report is a view: never fail a finished run for it
        logging.getLogger("newsclean.report").warning("could not publish the report artifact: %s", exc)
        return []
    return [KEY]
