"""The author from the text's evidence: a byline line the cleaner removed ("By JOHN DOE and JANE
ROE, Associated Press" -> "John Doe; Jane Roe"). An agency named as the byline is the outlet, not
an author."""
from __future__ import annotations

import re
from typing import Container, Sequence

from newsclean.cleaners.metadata.registry import load_registry
from newsclean.cleaners.rules.byline import byline_names, byline_parts, name_words, proper_names, stamp_author_names

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


def author_from_stamps(stamps: list[str], lower_case_words: Container[str] = frozenset()) -> str | None:
    """The name at the head of the headline's dated meta line, written without "By" ("Mike Kappel
    May 18, 2016", "Aaron Ricadela | Senior Writer | July 2, 2025"), when none of its words occurs
    in lower case in the body ("Prime Day July 16, 2025" names an event: the body says "day")."""
    for text in stamps:
        parts = byline_parts(text) or byline_parts("By " + text)
        if parts and proper_names(name_words(parts[0]), lower_case_words):
            if (author := _people(parts[0])):
                return author
    return None


# A writer's avatar as its alt text ("Jordanna Campbell's avatar"), and a byline behind the name of
# what was written ("Guide by Jane Roe", "Review by Jane Roe"; not "Reviewed by", a medical
# reviewer, "Voiced by", a reading voice, or "Photos by", a credit).
_AVATAR = re.compile(r"^(?P<name>.+?)(?:['’]s)?\s+(?:avatar|profile\s+(?:photo|picture|image))$", re.I)
_LABELLED_BY = re.compile(r"^(?:guide|review|article|post|posted|story|essay|column|analysis|interview|opinion|commentary"
                          r"|feature|report|blog|newsletter|recipe|explainer)\s+(?=by\s+[A-Z])", re.I)
# A name's label on its own line ("Author Tuhin Bhatt", "Writer: Kalyn Keen", "Words: Jane Roe").
_NAME_LABEL = re.compile(r"^(?:author|writer|words|text|autor(?:in)?|auteur|redaktion)\s*:?\s+(?=[A-Z])", re.I)
_CREDIT_WORD = re.compile(r"^(?:photo|photograph|image|illustration|video|graphic|picture|map|chart)s?\b", re.I)
NAME_LINE_BELOW = 3  # raw lines under the headline where a name alone is its byline
# The removals that judged a line by its shape alone: a name among them may be the byline. A line a
# rule named (menu words, tags, a call to action) is what that rule says it is.
_SHAPE_REMOVALS = frozenset({"model", "short_fragment", "headline_shape"})


def author_from_headline_lines(lines: list[tuple[int, str, str]], headline: int,
                               lower_case_words: Container[str] = frozenset(), page: Sequence[str] = ()) -> str | None:
    """The author from the lines the cleaner removed around the headline (line number, text, the
    rule or "model" that removed it) when no byline or dated stamp named one: a writer's avatar, a
    labelled byline ("Guide by NAME"), or a name alone right under the headline ("Chirag Bhardwaj",
    "Writer: Kalyn Keen"), in that order of trust; a name's capitalised words must not occur in
    lower case in the body (they are names, not a menu). A name alone must also appear on another
    line of the `page` (its author box, a bio, a "by" line): "Post Tags" under a headline is two
    capitalised words that name no one."""
    def avatar(n: int, text: str, by: str):
        m = _AVATAR.match(text)
        return byline_names(m["name"]) if m else None

    def labelled(n: int, text: str, by: str):
        m = _LABELLED_BY.match(text)
        parts = byline_parts(text[m.end():]) if m else None
        return parts[0] if parts else None

    def alone(n: int, text: str, by: str):
        label = _NAME_LABEL.match(text)
        if not 0 < n - headline <= NAME_LINE_BELOW or (by not in _SHAPE_REMOVALS and label is None):
            return None
        name = text[label.end():] if label else text
        if byline_parts(name) is not None or any(_CREDIT_WORD.match(w) for w in name.split()) \
                or not name[-1:].isalpha():  # "Getty Images" credits a photo; "Share This:" is a label
            return None
        names = byline_names(name)
        return names if names and sum(names[0] in t for t in page) >= 2 else None

    for read in (avatar, labelled, alone):
        for n, text, by in lines:
            names = read(n, text.strip(), by)
            if names and proper_names(name_words(names), lower_case_words) \
                    and (author := _people(names)):
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
