"""Publish a run's report to Prefect (a markdown summary and a link artifact). Call inside a flow."""
from __future__ import annotations

from pathlib import Path

from flows.report.build import summary_markdown


def publish_report(out_dir: Path, report_path: Path) -> None:
    """Markdown artifact `newsclean-run` (counts, removals by kind, where report.html is) and link
    artifact `newsclean-report` (file:// URI of report.html). Never fails the run: a failure to publish
    is only logged."""
    import logging

    from prefect.artifacts import create_link_artifact, create_markdown_artifact

    try:
        create_markdown_artifact(markdown=summary_markdown(Path(out_dir)), key="newsclean-run",
                                 description="newsclean run summary")
        create_link_artifact(link=Path(report_path).resolve().as_uri(), link_text="report.html",
                             key="newsclean-report", description="the run's HTML report")
    except Exception as exc:  # noqa: BLE001
        logging.getLogger("newsclean.report").warning("could not publish the report artifact: %s", exc)
