"""The whole headline when the ranker picked a shortened copy of it.

A page repeats its headline in shortened forms: a breadcrumb's last item, a related-story card, a
heading over the first section ("Forming a Limited Liability Company" a few lines under "Forming a
Limited Liability Company in New York"). The ranker sometimes prefers the short copy, because it
sits right above the body. A line near it that is the same words followed by a few more, with no
separator between them, is the full headline. Not when:
- a separator joins the extra words ("Headline | Outlet", "Headline – a subtitle"): the annotated
  headline stops at the separator more often than not;
- the short line already ends a sentence or a label ("What is X?", "Update:"): what follows it on a
  longer line is another clause, not the same headline;
- the extra words name an image ("Headline featured image", "Headline thumbnail"): that line is the
  alt text of the headline's picture;
- they name an author ("Headline by Jane Doe"): a teaser card's byline;
- the longer line ends in a full stop: a sentence that starts with the headline's words;
- the short line has fewer than MIN_WORDS words: a body sentence may start with those.
"""
from __future__ import annotations

import re
from typing import Sequence

NEAR = 8  # lines above or below the chosen headline searched for its full form
MAX_EXTRA_WORDS = 8  # a longer line adding more than this is a sentence that starts with the headline
MIN_WORDS = 3
_SEPARATOR = re.compile(r"[|–—•·»:]|\s[-/]\s")
_BYLINE = re.compile(r"\bby\s+[A-Z]")
_ENDS_CLAUSE = (".", "?", "!", ":", "…")
_IMAGE_WORDS = frozenset(
    "image images img photo photos picture pic thumbnail thumb cover banner hero featured logo icon "
    "illustration graphic screenshot header poster".split()
)


def _extension(short: str, line: str) -> str | None:
    """The words `line` adds after `short` (case aside), or None when it does not start with it."""
    if len(line) <= len(short) or line[: len(short)].casefold() != short.casefold():
        return None
    rest = line[len(short):]
    return rest if rest[:1] == " " else None


def full_headline(lines: Sequence[str], chosen: int, candidates: Sequence[bool]) -> int:
    """The index of the full form of the headline at `chosen` (see the module docstring), or
    `chosen` when there is none. `candidates`: the lines that can be a headline at all."""
    short = lines[chosen].strip()
    if len(short.split()) < MIN_WORDS or short.endswith(_ENDS_CLAUSE):
        return chosen
    best, best_len = chosen, len(short)
    for j in range(max(0, chosen - NEAR), min(len(lines), chosen + NEAR + 1)):
        if not candidates[j] or len(lines[j]) <= best_len:
            continue
        line = lines[j].strip()
        rest = _extension(short, line)
        if rest is None or line.endswith(".") or _SEPARATOR.search(rest) or _BYLINE.search(rest):
            continue
        extra = rest.split()
        if len(extra) > MAX_EXTRA_WORDS or extra[-1].casefold().strip(".,") in _IMAGE_WORDS:
            continue
        best, best_len = j, len(lines[j])
    return best
