"""Front matter: the metadata block a static-site generator's page starts with.

Hugo, Jekyll, Eleventy, Astro and most Markdown blogs begin a post with YAML between "---" lines
(or TOML between "+++"): its title, date, author, tags. Read as text, the block's lines are
neither article nor debris, and its "title: …" line looked like the headline. So a document that
starts with such a block has it read as its metadata (the record's own fields: they win over
anything inferred, newsclean.cleaners.metadata.resolve) and its lines are not text (newsclean.cleaners.lines leaves
them empty, as a Markdown renderer does; they keep their place, so line numbers still count raw
lines).

A block counts only at the very start, closed within MAX_LINES lines, and only when it parses as
a mapping with at least one of the fields a page's metadata uses: a page that merely opens with a
"---" rule and some prose is left as it is.
"""
from __future__ import annotations

import datetime as dt
import tomllib
from typing import Any

MAX_LINES = 80
# The fields of a post's front matter that say what the record fields say (newsclean.cleaners.metadata.resolve)
KNOWN_FIELDS = frozenset({"title", "date", "published", "publishdate", "author", "authors", "url", "permalink",
                          "slug", "description", "tags", "categories", "lastmod", "updated", "layout", "draft"})
_DELIMITERS = {"---": ("---", "..."), "+++": ("+++",)}
_FIELD_ALIASES = {"publishdate": "published", "permalink": "url"}  # Hugo's and Jekyll's names for record fields


HEAD_CHARS = 20_000  # the start of a document that holds any front matter block (MAX_LINES lines)
_OPENINGS = ("---", "+++", "\ufeff---", "\ufeff+++")


def block_lines(text: str) -> int:
    """How many of the document's first lines are its front matter block (delimiters included), or 0."""
    return _parse(text)[1]


def fields(text: str) -> dict[str, Any]:
    """The front matter of `text` as record fields ({} when it has none): title, published, author,
    url... (a value YAML reads as a date or a time stays one)."""
    found = _parse(text)[0]
    out: dict[str, Any] = {}
    for key, value in found.items():
        key = str(key).lower()
        if key in KNOWN_FIELDS and value not in (None, "", []) and _flat(value):
            out[_FIELD_ALIASES.get(key, key)] = value
    return out


_SCALARS = (str, int, float, bool, dt.date)  # dt.datetime is a dt.date
MAX_ITEMS = 50


def _flat(value: Any) -> bool:
    """A scalar, or a short list or mapping of scalars ("authors: [Jane Doe, John Roe]", "author:
    {name: Jane Doe}"). Anything nested is left out: YAML's aliases can nest a list in itself a
    billion times over in a few lines (a "billion laughs"), which would only blow up when read."""
    if isinstance(value, _SCALARS):
        return True
    items = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else None
    return items is not None and len(items) <= MAX_ITEMS and all(isinstance(v, _SCALARS) for v in items)


def _parse(text: str) -> tuple[dict, int]:
    if not text.startswith(_OPENINGS):  # most documents: nothing to split
        return {}, 0
    from newsclean.cleaners.lines import split_lines  # the line ends that number lines (newsclean.cleaners.lines imports this module)

    lines = split_lines(text[:HEAD_CHARS])[:MAX_LINES + 1]
    opening = lines[0].lstrip("\ufeff").strip()
    closers = _DELIMITERS.get(opening)
    if closers is None:
        return {}, 0
    end = next((i for i in range(1, min(len(lines), MAX_LINES + 1)) if lines[i].strip() in closers), None)
    if end is None or end == 1:
        return {}, 0
    body = "\n".join(lines[1:end])
    try:
        if opening == "+++":
            data = tomllib.loads(body)
        else:
            import yaml

            data = yaml.safe_load(body)
    except Exception:  # not YAML or TOML after all: the document is left as it is
        return {}, 0
    if not isinstance(data, dict) or not any(str(k).lower() in KNOWN_FIELDS for k in data):
        return {}, 0
    return data, end + 1

