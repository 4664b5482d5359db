"""Validate a batch's rows against the models before they are written.

Validation is lazy (all failures at once). An article row that fails moves to quarantine with
the names of the checks it failed, together with its removed rows; the run goes on.
"""
from __future__ import annotations

import pandas as pd
import pandera.errors

from cleaners.batch import BatchResult
from schemas.tables import ARROW_SCHEMAS, MODELS


def frame(name: str, rows: list[dict]) -> pd.DataFrame:
    cols = ARROW_SCHEMAS[name].names
    df = pd.DataFrame(rows, columns=cols)
    if name == "articles":
        df["published"] = pd.to_datetime(df["published"]).astype("datetime64[ms]")
    return df


def failing_rows(name: str, rows: list[dict]) -> dict[int, list[str]]:
    """Row index -> names of failed checks. Empty when everything passes."""
    if not rows:
        return {}
    try:
        MODELS[name].validate(frame(name, rows), lazy=True)
        return {}
    except pandera.errors.SchemaErrors as exc:
        fails: dict[int, list[str]] = {}
        cases = exc.failure_cases
        for _, case in cases.iterrows():
            idx = case.get("index")
            check = f"{case.get('column') or 'table'}:{case.get('check')}"
            targets = range(len(rows)) if idx is None or pd.isna(idx) else [int(idx)]
            for i in targets:
                fails.setdefault(i, [])
                if check not in fails[i]:
                    fails[i].append(check)
        return fails


def validate_batch(result: BatchResult) -> BatchResult:
    bad = failing_rows("articles", result.articles)
    if bad:
        bad_ids = {result.articles[i]["doc_id"] for i in bad}
        for i, checks in sorted(bad.items()):
            row = result.articles[i]
            result.quarantine.append({"source": row["source"], "doc_id": row["doc_id"], "stage": "validate",
                                      "error": "output failed schema checks: " + ", ".join(checks)})
        result.articles = [r for i, r in enumerate(result.articles) if i not in bad]
        result.removed = [r for r in result.removed if r["doc_id"] not in bad_ids]
    for name in ("removed", "quarantine"):
        fails = failing_rows(name, getattr(result, name))
        if fails:  # these are our own bookkeeping rows: a failure here is a bug, not bad input
            raise ValueError(f"{name} rows failed schema checks: {fails}")
    return result
