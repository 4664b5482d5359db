"""Shared fixtures. Prefect runs in its local ephemeral mode with a project-local PREFECT_HOME."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("PREFECT_HOME", str(ROOT / ".prefect"))
from flows.env import configure  # noqa: E402

configure()

SEEDS_RAW = ROOT / "raw"
GOLDEN = Path(__file__).parent / "golden" / "seeds_expected.jsonl"


@pytest.fixture(scope="session")
def expected_seeds() -> dict[str, dict]:
    return {r["source"]: r for r in map(json.loads, GOLDEN.read_text(encoding="utf-8").splitlines())}


@pytest.fixture
def settings():
    from cleaners.settings import Settings
    return Settings()
