"""The author from the text's evidence: a byline line the cleaner removed ("By JOHN DOE and JANE
ROE, Associated Press" -> "John Doe; Jane Roe"). An agency named as the byline is the outlet, not
an author."""
from __future__ import annotations

from cleaners.metadata.registry import load_registry
from cleaners.rules.byline import byline_parts

AUTHOR_SEPARATOR = "; "  # as trafilatura joins several authors


def _as_written(name: str) -> str:
    """A name in capitals ("JOHN DOE") in the case it is usually written."""
    return name.title() if name.isupper() else name


def author_from_spans(spans: list[tuple[str, str]]) -> str | None:
    """The names of the first byline among (kind, text) debris spans, or None."""
    registry = load_registry()
    for kind, text in spans:
        if kind != "byline":
            continue
        parts = byline_parts(text)
        if parts is None:
            continue
        people = [_as_written(n) for n in parts[0] if not (n.isupper() and len(n) <= 5) and registry.find_in(n) is None]
        if people:
            return AUTHOR_SEPARATOR.join(people)
    return None
