"""The per-run HTML report: one self-contained OUT/report.html (Jinja2, no network)."""
from flows.report.build import build_report, summary_markdown

__all__ = ["build_report", "summary_markdown"]
