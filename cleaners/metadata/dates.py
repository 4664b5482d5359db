"""Publication dates from text evidence: datelines and publication stamps, never the story's events."""
from __future__ import annotations

import datetime as dt
import re

from dateutil import parser as dateparser

from cleaners.rules.dateline import DATE

EARLIEST = dt.date(1990, 1, 1)
_DATE = re.compile(DATE, re.I)
_UPDATED = re.compile(r"\b(?:updated|modified|edited)\b", re.I)


def plausible(d: dt.date | None, today: dt.date | None = None) -> dt.date | None:
    """A publication date lies in [1990-01-01, today]; anything else is rejected."""
    if d is None:
        return None
    return d if EARLIEST <= d <= (today or dt.date.today()) else None


def parse_date(text: str) -> dt.date | None:
    """The first date written in `text`, if it parses and is plausible."""
    m = _DATE.search(text)
    if m is None:
        return None
    try:
        value = dateparser.parse(m.group(0).replace("Sept", "Sep"), fuzzy=True, default=dt.datetime(2000, 1, 1))
    except (ValueError, OverflowError):
        return None
    return plausible(value.date())


def date_from_datelines(texts: list[str]) -> dt.date | None:
    """Prefer a published date over an updated one; first in the document wins within each."""
    published = [d for t in texts if not _UPDATED.search(t) and (d := parse_date(t))]
    updated = [d for t in texts if _UPDATED.search(t) and (d := parse_date(t))]
    return (published or updated or [None])[0]
