"""Tag lists: "Tags: a, b, c" and runs of capitalised names with no grammar between them."""
from __future__ import annotations

import re

from cleaners import shape
from cleaners.rules.base import Doc, Line, Proposal

_PREFIX = re.compile(r"^(?:tags?|tagged(?: with)?|topics?|filed under|keywords?|categories|category|subjects?)\s*[:|]\s*\S", re.I)


def tag_prefix(line: Line, doc: Doc) -> Proposal | None:
    if _PREFIX.search(line.text) and line.n_words <= 40:
        return Proposal("tag_list", "tag_prefix")
    return None


def _name_run(line: Line) -> bool:
    ws = line.words
    return (
        not shape.ends_sentence(line.text)
        and all(shape.is_capitalised(w) for w in ws)
        and not any(w.lower() in shape.STOP_WORDS for w in ws)
        and not any(c in line.text for c in ":;?!")
    )


def name_run(line: Line, doc: Doc) -> Proposal | None:
    """Six or more capitalised words and not one function word: names listed, not a sentence."""
    if not shape.ends_sentence(line.text) and line.n_words >= 6 and _name_run(line):
        return Proposal("tag_list", "name_run")
    return None


def separated_items(line: Line, doc: Doc) -> Proposal | None:
    """Three or more short capitalised items separated by commas or pipes, no sentence punctuation."""
    if shape.ends_sentence(line.text) or line.text.count(",") + line.text.count("|") + line.text.count(";") < 2:
        return None  # three items need two separators (a shortcut; same result)
    if line.n_words > 30:
        return None
    items = [p.strip() for p in re.split(r"\s*[,|;]\s*", line.text) if p.strip()]
    if len(items) >= 3 and all(len(p.split()) <= 3 and p[:1].isupper() for p in items) and shape.stop_share(line.words) < 0.1:
        return Proposal("tag_list", "separated_items")
    return None


def short_name_run(line: Line, doc: Doc) -> Proposal | None:
    """Weak: three to five capitalised words with no grammar, outside the body."""
    if not shape.ends_sentence(line.text) and 3 <= line.n_words < 6 and _name_run(line):
        return Proposal("tag_list", "short_name_run", strong=False)
    return None
