"""Metadata: title, publication date and outlet, each with its provenance."""
