"""Publication dates from text evidence: datelines and publication stamps, never the story's events."""
from __future__ import annotations

import datetime as dt
import re

from dateutil import parser as dateparser

from cleaners.rules.dateline import DATE

EARLIEST = dt.date(1990, 1, 1)
# The removed spans that may state the publication date: datelines and stamps, and a byline's date
# ("By Jane Roe | Feb 24, 2018").
DATE_EVIDENCE_KINDS = ("dateline", "byline")
_DATE = re.compile(DATE, re.I)
_DOTTED = re.compile(r"(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})")
# A month written in words: in English dateutil reads it, in another language dateparser does.
_MONTH_WORD = re.compile(r"[^\W\d_]{3,}")
# An English month name as dateutil reads it: the name or its abbreviation ("Februar" is not one).
_ENGLISH_MONTH = re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
                            r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?", re.I)
# dateutil knows "Sep" and "September" but not "Sept" (the whole word only: "September" stays)
_SEPT = re.compile(r"\bSept\b", re.I)
DATE_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl")
_UPDATED = re.compile(r"\b(?:updated|modified|edited|aktualisiert|geändert|mis à jour|modifié|actualizado|modificado"
                      r"|aggiornato|modificato|atualizado|bijgewerkt|gewijzigd|zaktualizowano)\b", re.I)


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
    written = m.group(0)
    dotted = _DOTTED.fullmatch(written)
    try:
        if dotted:  # 24.02.2018 is day first wherever it is written
            return plausible(dt.date(int(dotted.group(3)), int(dotted.group(2)), int(dotted.group(1))))
        if _MONTH_WORD.search(written) and not _ENGLISH_MONTH.search(written):
            return _parse_foreign(written)
        value = dateparser.parse(_SEPT.sub("Sep", written), fuzzy=True, default=dt.datetime(2000, 1, 1))
    except (ValueError, OverflowError):
        return None
    return plausible(value.date())


def _parse_foreign(written: str) -> dt.date | None:
    """A date with another language's month name, read by the dateparser library (which knows
    them all); dateutil would take the day and year and silently default the month."""
    import dateparser as multilingual  # imported on first need: it loads its language data

    value = multilingual.parse(written, languages=list(DATE_LANGUAGES),
                               settings={"REQUIRE_PARTS": ["day", "month", "year"], "PREFER_DAY_OF_MONTH": "first"})
    return plausible(value.date()) if value is not None else None


def date_from_datelines(texts: list[str]) -> dt.date | None:
    """Prefer a published date over an updated one; first in the document wins within each."""
    published = [d for t in texts if not _UPDATED.search(t) and (d := parse_date(t))]
    updated = [d for t in texts if _UPDATED.search(t) and (d := parse_date(t))]
    return (published or updated or [None])[0]
