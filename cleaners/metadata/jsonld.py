"""A page's JSON-LD blocks, parsed once for every reader of them (the headline ranker, the date
ranker)."""
from __future__ import annotations

import json

JSON_MAX_CHARS = 200_000  # a longer block is a site's data dump, not the page's description


def jsonld_blocks(tree) -> tuple:
    """The parsed JSON of each <script type="application/ld+json"> of `tree` (an lxml HTML tree),
    in page order. A block that is not JSON (control characters inside strings are let through,
    as CMSs write them), is longer than JSON_MAX_CHARS or nests deeper than the parser goes is
    skipped."""
    root = tree.getroottree().getroot() if hasattr(tree, "getroottree") else tree
    blocks = []
    for el in root.iter("script"):
        if "ld+json" not in (el.get("type") or "").lower():
            continue  # (before reading the text: most scripts are code, some of it long)
        text = el.text
        if not text or len(text) > JSON_MAX_CHARS:
            continue
        try:
            blocks.append(json.loads(text, strict=False))
        except (ValueError, RecursionError):
            continue
    return tuple(blocks)
