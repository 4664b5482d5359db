"""Tag lists: "Tags: a, b, c" and runs of capitalised names with no grammar between them."""
from __future__ import annotations

import re
from operator import itemgetter

from cleaners import shape
from cleaners.rules.base import Doc, Line, Proposal, whole_line, starts_with

_PREFIX = re.compile(r"^(?:tags?|tagged(?: with)?|topics?|filed under|keywords?|categories|category|subjects?)\s*[:|]\s*\S", re.I)
# The header of a tag box, alone on its line ("Tags", "Schlagwörter:", "Mots-clés"), and a blog's
# category footer ("Posted in News | Tagged economy, jobs", "This entry was posted in News on …").
_HEADER = re.compile(r"^(?:tags?|tagged|keywords|schlagw(?:ö|oe)rter|schlagworte|stichw(?:ö|oe)rter|mots-cl(?:é|e)s"
                     r"|(?:é|e)tiquettes|etiquetas|tagi|trefwoorden)\s*:?$", re.I)
_CATEGORY_FOOTER = re.compile(r"^(?:posted\s+in\s+(?-i:[A-Z])[\w&'’ -]*(?:\s*[,|]\s*[\w&'’ -]+)+$"
                              r"|this\s+(?:entry|post)\s+was\s+(?:posted|filed)\s+(?:in|under)\b)", re.I)


@starts_with(_PREFIX)
def tag_prefix(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words <= 40 and _PREFIX.search(line.text):
        return whole_line("tag_list", "tag_prefix")
    return None


@starts_with(_HEADER, _CATEGORY_FOOTER)
def tag_header(line: Line, doc: Doc) -> Proposal | None:
    if (line.n_words <= 15 and _HEADER.search(line.text)) or (line.n_words <= 40 and _CATEGORY_FOOTER.search(line.text)):
        return whole_line("tag_list", "tag_header")
    return None


def _name_run(line: Line) -> bool:
    ws = line.words  # (words are never empty: w[0] is shape.is_capitalised's w[:1])
    return (
        not line.ends_sentence
        and all(map(str.isupper, map(itemgetter(0), ws)))
        and shape.STOP_WORDS.isdisjoint(map(str.lower, ws))
        and not any(c in line.text for c in ":;?!")
    )


def name_run(line: Line, doc: Doc) -> Proposal | None:
    """Six or more capitalised words and not one function word: names listed, not a sentence. Not
    a list item ("- Klein Tools RT210 GFCI Outlet Tester": one product's name under its bullet)."""
    if line.n_words >= 6 and not line.ends_sentence and not shape.LIST_BULLET.match(line.text) and _name_run(line):
        return whole_line("tag_list", "name_run")
    return None


def separated_items(line: Line, doc: Doc) -> Proposal | None:
    """Three or more short capitalised items separated by commas or pipes, no sentence punctuation."""
    if line.ends_sentence or line.text.count(",") + line.text.count("|") + line.text.count(";") < 2:
        return None  # three items need two separators (a shortcut; same result)
    if line.n_words > 30:
        return None
    items = [p.strip() for p in re.split(r"\s*[,|;]\s*", line.text) if p.strip()]
    if len(items) >= 3 and all(len(p.split()) <= 3 and p[:1].isupper() for p in items) and shape.stop_share(line.words) < 0.1:
        return whole_line("tag_list", "separated_items")
    return None


def short_name_run(line: Line, doc: Doc) -> Proposal | None:
    """Weak: three to five capitalised words with no grammar, outside the body."""
    if 3 <= line.n_words < 6 and not line.ends_sentence and _name_run(line):
        return whole_line("tag_list", "short_name_run", strong=False)
    return None
