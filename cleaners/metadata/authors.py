"""The author from the text's evidence: a byline line the cleaner removed ("By JOHN DOE and JANE
ROE, Associated Press" -> "John Doe; Jane Roe"). An agency named as the byline is the outlet, not
an author."""
from __future__ import annotations

from cleaners.metadata.registry import load_registry
from cleaners.rules.byline import byline_names, byline_parts, proper_names, stamp_author_names

AUTHOR_SEPARATOR = "; "  # as trafilatura joins several authors


def _as_written(name: str) -> str:
    """A name in capitals ("JOHN DOE") in the case it is usually written."""
    return name.title() if name.isupper() else name


def author_from_spans(spans: list[tuple[str, str]]) -> str | None:
    """The names of the first byline among (kind, text) debris spans, or of a stamp that ends with
    them ("Posted on November 24, 2026 by Tom Reed"), or None."""
    return next((a for kind, text in spans
                 if (kind == "byline" and (a := _people(byline_names(text))))
                 or (kind == "dateline" and (a := _people(stamp_author_names(text))))), None)


def author_from_stamps(stamps: list[str], lower_case_words: frozenset[str] = frozenset()) -> str | None:
    """The name at the head of the headline's dated meta line, written without "By" ("Mike Kappel
    May 18, 2016", "Aaron Ricadela | Senior Writer | July 2, 2025"), when none of its words occurs
    in lower case in the body ("Prime Day July 16, 2025" names an event: the body says "day")."""
    for text in stamps:
        parts = byline_parts(text) or byline_parts("By " + text)
        if parts and proper_names([w for name in parts[0] for w in name.split()], lower_case_words):
            if (author := _people(parts[0])):
                return author
    return None


def _people(names: tuple[str, ...] | None) -> str | None:
    """The byline's names that are people: not an agency's initials or a registered outlet. A name
    that ends with a registered outlet is the person's name before it ("By Jane Smith Fox News":
    the outlet's name follows the writer's with no separator)."""
    if not names:
        return None
    registry = load_registry()
    people = []
    for n in names:
        if n.isupper() and len(n) <= 5:
            continue
        known = registry.find_in(n)
        if known is not None:
            n = next((head for alias in (known.name, *known.aliases)
                      if n.endswith(" " + alias) and len((head := n[:-len(alias)].strip()).split()) >= 2), "")
        if n:
            people.append(_as_written(n))
    return AUTHOR_SEPARATOR.join(people) or None
