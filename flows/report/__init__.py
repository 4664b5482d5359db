"""The per-run HTML report: one self-contained OUT/report.html (Jinja2, no network)."""
from newsclean.flows.report.build import build_report
from newsclean.flows.report.publish import publish_report

__all__ = ["build_report", "publish_report"]
