"""Compare clean output with the golden expectations of the sample corpus (as check-seeds does)."""
from __future__ import annotations

import unicodedata


def plain(v):
    if v is None or (isinstance(v, float) and v != v) or str(v) == "NaT":
        return None
    if hasattr(v, "isoformat"):
        return v.isoformat()[:10]
    return unicodedata.normalize("NFC", str(v))


def differences(article: dict, removed: list[dict], expected: dict) -> list[str]:
    bad = []
    for field in ("title", "text", "outlet", "outlet_domain", "published"):
        if plain(article.get(field)) != expected[field]:
            bad.append(f"{field}: got {plain(article.get(field))!r:.200} expected {expected[field]!r:.200}")
    got = sorted((r["line"], r["kind"], r["text"]) for r in removed)
    exp = sorted((r["line"], r["kind"], r["text"]) for r in expected["removed"])
    if got != exp:
        bad.append(f"removed: got {got} expected {exp}")
    return bad
